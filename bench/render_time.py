"""Section: how long V8 takes to render each route's React tree, with the shipped content."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import asdict, dataclass

from py_mini_racer import MiniRacer

from bench.context import BenchContext, progress
from bench.report import SectionReport, Table, fixed, median, percentile, thousands
from server.company import load_company
from server.content.cache import ContentCache
from server.content.local import LocalContentStore
from server.rendering.document import DocumentTemplate
from server.rendering.manifest import AssetManifest
from server.rendering.page_renderer import PageRenderer, empty_page_data
from server.rendering.render_pool import RENDER_FUNCTION, SERVER_BUNDLE, RenderPool
from server.settings import Settings
from server.site_map import PAGES

NAME = "render"
TITLE = "4. V8 render time per route (shipped content)"
WARM_UP_RENDERS = 50


@dataclass(frozen=True, kw_only=True)
class RenderTimes:
    route: str
    renders: int
    page_data_bytes: int
    html_bytes: int
    # Milliseconds: V8's renderPage call alone, and RenderPool.render (adds the thread hop).
    v8_median_ms: float
    v8_p99_ms: float
    v8_max_ms: float
    pool_median_ms: float
    pool_p99_ms: float


def run(context: BenchContext) -> SectionReport:
    renders = 100 if context.quick else 1000
    settings = Settings()  # the shipped content, whatever the shell's environment says
    page_data, pool_ms = asyncio.run(_through_pool(settings, renders))
    bundle = (settings.bundles_dir / SERVER_BUNDLE).read_text(encoding="utf-8")
    times = []
    for route, data_json in page_data.items():
        progress(f"{NAME}: {route}, {renders:,} renders in V8")
        html, v8_ms = _in_v8(bundle, route, data_json, renders)
        times.append(
            RenderTimes(
                route=route,
                renders=renders,
                page_data_bytes=len(data_json.encode()),
                html_bytes=len(html.encode()),
                v8_median_ms=median(v8_ms),
                v8_p99_ms=percentile(v8_ms, 0.99),
                v8_max_ms=max(v8_ms),
                pool_median_ms=median(pool_ms[route]),
                pool_p99_ms=percentile(pool_ms[route], 0.99),
            )
        )
    rows = [
        [
            item.route,
            thousands(item.page_data_bytes),
            thousands(item.html_bytes),
            fixed(item.v8_median_ms, 3),
            fixed(item.v8_p99_ms, 3),
            fixed(item.v8_max_ms, 3),
            fixed(item.pool_median_ms, 3),
            fixed(item.pool_p99_ms, 3),
        ]
        for item in times
    ]
    table = Table(
        title=f"{TITLE}: {renders:,} renders per route",
        columns=[
            "route",
            "data bytes",
            "body bytes",
            "V8 p50 ms",
            "V8 p99 ms",
            "V8 max ms",
            "pool p50 ms",
            "pool p99 ms",
        ],
        rows=rows,
    )
    notes = [
        "V8: one mini-racer context loaded with bundles/server/render.js, calling "
        f"{RENDER_FUNCTION}(url, pageDataJson) directly; pool: RenderPool.render (one context), "
        "which adds the hop to a worker thread. One render at a time, in this process.",
        "Page data: PageRenderer.page_data over the shipped content/ (as the server builds it); "
        "data bytes: its JSON; body bytes: the HTML React renders (no document around it).",
        f"{WARM_UP_RENDERS} untimed renders per route first (JIT).",
    ]
    return SectionReport(
        tables=[table],
        notes=notes,
        data={"renders_per_route": renders, "routes": [asdict(item) for item in times]},
    )


async def _through_pool(
    settings: Settings, renders: int
) -> tuple[dict[str, str], dict[str, list[float]]]:
    """Each route's page data (as the server builds it) and RenderPool.render times."""
    company = load_company(settings.company_file)
    warm_up = ("/", json.dumps(empty_page_data(company)))
    pool = await RenderPool.start(
        settings.bundles_dir, size=1, timeout_seconds=10.0, warm_up=warm_up
    )
    store = LocalContentStore(settings.content_dir)
    renderer = PageRenderer(
        content=ContentCache(store, max_age_seconds=settings.content_cache_seconds),
        pool=pool,
        document=DocumentTemplate(AssetManifest.load(settings.bundles_dir)),
        company=company,
        base_url=settings.public_base_url,
    )
    page_data: dict[str, str] = {}
    pool_ms: dict[str, list[float]] = {}
    try:
        for page in PAGES:
            progress(f"{NAME}: {page.path}, {renders:,} renders through RenderPool")
            data_json = json.dumps(await renderer.page_data(page), ensure_ascii=False)
            page_data[page.path] = data_json
            for _ in range(WARM_UP_RENDERS):
                await pool.render(page.path, data_json)
            times = pool_ms[page.path] = []
            for _ in range(renders):
                started = time.perf_counter()
                await pool.render(page.path, data_json)
                times.append((time.perf_counter() - started) * 1000)
    finally:
        await pool.close()
        await store.close()
    return page_data, pool_ms


def _in_v8(bundle: str, url: str, data_json: str, renders: int) -> tuple[str, list[float]]:
    """The rendered HTML and the times of `renders` calls, on a fresh context."""
    context = MiniRacer()
    try:
        context.eval(bundle)
        html = ""
        for _ in range(WARM_UP_RENDERS):
            html = str(context.call(RENDER_FUNCTION, url, data_json, timeout_sec=10))
        times = []
        for _ in range(renders):
            started = time.perf_counter()
            context.call(RENDER_FUNCTION, url, data_json, timeout_sec=10)
            times.append((time.perf_counter() - started) * 1000)
    finally:
        context.close()
    return html, times
