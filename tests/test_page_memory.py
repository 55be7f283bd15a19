"""Memory bounded by settings, not by the number of projects.

Where a worker's memory went with 1,000 projects (docs/benchmarks.md): the V8
heap a large render grew, the allocator keeping freed megabyte buffers (the
Procfile's MALLOC_* variables), the rendered pages. Each is bounded here.
"""

from __future__ import annotations

import gzip
import json
import secrets
import subprocess
import sys

import pytest

from harness.live_server import procfile_environment, site_free_environment
from server.http.compression import encoded
from server.rendering import render_pool
from server.rendering.page_content import empty_page_data
from server.rendering.page_renderer import RenderedPage, RenderedPageCache
from server.rendering.render_pool import RenderPool
from server.settings import REPO_ROOT
from server.site.company import load_company

BUNDLES = REPO_ROOT / "bundles"


def big_page_data(cards: int) -> str:
    return json.dumps(
        {
            **empty_page_data(load_company(REPO_ROOT / "company.toml")),
            "content": {
                "projects": [
                    {
                        "id": f"p{index}",
                        "name": f"Project {index}",
                        "description": "Honed Jerusalem stone, laid by hand. " * 4,
                        "photoUrl": "/images/a.jpg",
                    }
                    for index in range(cards)
                ]
            },
        }
    )


def test_compressed_copies_count_toward_the_cache_bound() -> None:
    cache = RenderedPageCache(max_bytes=3000)
    first = RenderedPage.from_html(random_text(1200))
    second = RenderedPage.from_html(random_text(1200))
    cache.put("/projects/a", 1, first)
    cache.put("/projects/b", 1, second)
    assert cache.size_bytes == 2400
    # A compressed copy, made the first time it is asked for, is kept with its page
    # and counted; the next page put makes room for it, the oldest first.
    body, encoding = encoded(second.html, "gzip", second.copies)
    assert (encoding, gzip.decompress(body)) == ("gzip", second.html)
    assert encoded(second.html, "gzip", second.copies)[0] is body
    assert cache.size_bytes == 2400 + len(body)
    cache.put("/projects/c", 1, RenderedPage.from_html(random_text(200)))
    assert cache.get("/projects/a", 1) is None
    assert cache.get("/projects/b", 1) is second
    assert cache.size_bytes == 1400 + len(body)


def random_text(length: int) -> str:
    # Text that compresses little, so a copy is near the page's own size.
    return secrets.token_hex(length // 2)


async def heap_after_renders(pool: RenderPool, page_data: str, renders: int) -> int:
    for index in range(renders):  # card pages: the list with one card open
        await pool.render(f"/projects/p{index}", page_data)
    # Renders give the context back after a collection: wait for it.
    context = pool.contexts[0]
    await pool.render("/", big_page_data(0))
    return int(context.heap_stats()["total_heap_size"])


@pytest.mark.anyio
async def test_a_context_grown_by_large_renders_is_collected(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = big_page_data(1000)
    heaps = {}
    for label, threshold in (("kept", 1 << 40), ("collected", render_pool.COLLECT_HEAP_BYTES)):
        monkeypatch.setattr(render_pool, "COLLECT_HEAP_BYTES", threshold)
        pool = await RenderPool.start(
            BUNDLES, size=1, timeout_seconds=10.0, warm_up=("/", big_page_data(0))
        )
        try:
            heaps[label] = await heap_after_renders(pool, data, renders=30)
        finally:
            await pool.close()
    assert heaps["collected"] < heaps["kept"]
    assert heaps["collected"] <= render_pool.COLLECT_HEAP_BYTES * 2


# What glibc's malloc keeps after a worker's buffers of 0.2 to 8 MB are freed
# (mallinfo2's fordblks: free, not given back). Untuned, freeing the first
# 8 MB buffer raises the mmap threshold past the rest, which then come from
# the heap and stay there.
MALLOC_KEPT = """
import ctypes, ctypes.util
class MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd",
        "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]
libc = ctypes.CDLL(ctypes.util.find_library("c"))
libc.mallinfo2.restype = MallInfo2
before = libc.mallinfo2().fordblks
for size in [39, *range(1, 40)]:
    buffer = bytes(size * 200_000)
    del buffer
print(libc.mallinfo2().fordblks - before)
"""


def test_freed_megabyte_buffers_go_back_to_the_system() -> None:
    # In a process started as the Procfile starts the server (glibc reads
    # MALLOC_* when the process starts).
    env = {**site_free_environment(), **procfile_environment()}
    result = subprocess.run(  # noqa: S603 - this interpreter, our own script
        [sys.executable, "-c", MALLOC_KEPT], env=env, capture_output=True, text=True, check=True
    )
    assert int(result.stdout) < 1_000_000
