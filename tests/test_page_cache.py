"""The rendered-page cache: one page per path and content version, bounded in bytes."""

from __future__ import annotations

from server.rendering.page_renderer import RenderedPage, RenderedPageCache


def page(size: int, mark: str = "x") -> RenderedPage:
    return RenderedPage.from_html(mark * size)


def test_a_page_is_served_while_what_it_was_made_from_is_unchanged() -> None:
    cache = RenderedPageCache(max_bytes=1000)
    made = page(10)
    cache.put("/projects/a", (1, 2), made)
    assert cache.get("/projects/a", (1, 2)) is made
    assert cache.get("/projects/a", (1, 3)) is None
    assert cache.get("/projects/b", (1, 2)) is None


def test_past_its_size_the_least_recently_asked_for_goes_first() -> None:
    cache = RenderedPageCache(max_bytes=300)
    for name in "abc":
        cache.put(f"/projects/{name}", 1, page(100, name))
    assert cache.get("/projects/a", 1) is not None  # a is now the most recent
    cache.put("/projects/d", 1, page(100, "d"))
    assert cache.get("/projects/b", 1) is None
    assert [cache.get(f"/projects/{name}", 1) is not None for name in "acd"] == [True] * 3
    assert (len(cache), cache.size_bytes) == (3, 300)


def test_thousands_of_items_stay_within_the_bound() -> None:
    cache = RenderedPageCache(max_bytes=50_000)
    for index in range(5000):
        cache.put(f"/projects/item-{index}", 1, page(1000))
    assert cache.size_bytes <= 50_000
    assert len(cache) == 50
    assert cache.get("/projects/item-4999", 1) is not None


def test_a_page_rendered_again_replaces_its_old_copy() -> None:
    cache = RenderedPageCache(max_bytes=1000)
    cache.put("/projects/a", 1, page(400))
    cache.put("/projects/a", 2, page(500))
    assert (len(cache), cache.size_bytes) == (1, 500)
    # A page larger than the whole cache is not kept, and evicts nothing.
    cache.put("/projects/b", 1, page(2000))
    assert cache.get("/projects/b", 1) is None
    assert cache.get("/projects/a", 2) is not None
