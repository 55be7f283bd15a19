"""The V8 render pool: real mini-racer contexts running the real server bundle."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from py_mini_racer import MiniRacer

from server.rendering.page_content import empty_page_data
from server.rendering.render_pool import RenderError, RenderPool
from server.settings import REPO_ROOT
from server.site.company import load_company

BUNDLES = REPO_ROOT / "bundles"
PAGE_DATA = json.dumps(
    {
        **empty_page_data(load_company(REPO_ROOT / "company.toml")),
        "content": {
            "projects": [
                {"id": "a", "name": "Amman <villa>", "description": "d", "photoUrl": "/a.jpg"}
            ]
        },
    }
)


@pytest.fixture
async def pool() -> AsyncIterator[RenderPool]:
    pool = await RenderPool.start(
        BUNDLES, size=1, timeout_seconds=2.0, warm_up=("/projects", PAGE_DATA)
    )
    yield pool
    await pool.close()


@pytest.mark.anyio
async def test_renders_the_route_with_its_data_as_escaped_html(pool: RenderPool) -> None:
    html = await pool.render("/projects", PAGE_DATA)
    assert "<h1" in html
    assert "Projects" in html
    assert "Amman &lt;villa&gt;" in html


@pytest.mark.anyio
async def test_a_render_that_throws_is_an_error_and_the_pool_keeps_serving(
    pool: RenderPool,
) -> None:
    with pytest.raises(RenderError, match="render of /projects failed"):
        await pool.render("/projects", '{"company": null, "content": {}}')
    # The broken context was replaced: the next render works.
    assert "Projects" in await pool.render("/projects", PAGE_DATA)


@pytest.mark.anyio
async def test_a_render_past_its_time_limit_is_stopped(tmp_path: Path) -> None:
    # A bundle whose render never returns stands in for a runaway component.
    (tmp_path / "server").mkdir()
    (tmp_path / "server" / "render.js").write_text(
        "globalThis.renderPage = (url) => { if (url === '/') return 'ok'; for (;;) {} };"
    )
    pool = await RenderPool.start(tmp_path, size=1, timeout_seconds=0.2, warm_up=("/", "{}"))
    try:
        with pytest.raises(RenderError, match=r"no result within 0\.2 s"):
            await pool.render("/slow", "{}")
        assert await pool.render("/", "{}") == "ok"
    finally:
        await pool.close()


@pytest.mark.anyio
async def test_the_pool_counts_a_context_being_replaced_as_missing_until_it_is_back(
    pool: RenderPool,
) -> None:
    assert (pool.size, len(pool.contexts)) == (1, 1)
    with pytest.raises(RenderError):
        await pool.render("/projects", '{"company": null, "content": {}}')
    assert len(pool.contexts) == 0  # the broken one is gone, the fresh one still warming
    await pool.render("/projects", PAGE_DATA)  # waits for the fresh context
    assert len(pool.contexts) == 1
    await pool.close()
    assert len(pool.contexts) == 0


def test_the_server_bundle_loads_in_bare_v8() -> None:
    # Bare V8 has none of these; the bundle's polyfills must supply them
    # (React does without queueMicrotask).
    context = MiniRacer()
    context.eval((BUNDLES / "server" / "render.js").read_text())
    present = context.eval(
        "[typeof TextEncoder, typeof URL, typeof MessageChannel, typeof renderPage].join()"
    )
    assert present == "function,function,function,function"
    context.close()
