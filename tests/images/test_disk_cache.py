"""The disk cache: what was put is got, within its bound, least recently used out first."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from server.images.disk_cache import DiskCache


def test_what_is_put_is_got_back_and_survives_a_restart(tmp_path: Path) -> None:
    DiskCache(tmp_path, max_bytes=1000).put("a", b"x" * 100)
    again = DiskCache(tmp_path, max_bytes=1000)
    assert again.get("a") == b"x" * 100
    assert again.get("b") is None
    assert again.total_bytes == 100


def test_the_least_recently_used_go_first_when_over_the_bound(tmp_path: Path) -> None:
    cache = DiskCache(tmp_path, max_bytes=300)
    for key in ("a", "b", "c"):
        cache.put(key, key.encode() * 100)
    assert cache.get("a") is not None  # now b is the least recently used
    cache.put("d", b"d" * 100)
    assert cache.get("b") is None
    assert [cache.get(key) is not None for key in ("a", "c", "d")] == [True, True, True]
    assert cache.total_bytes == 300
    assert sorted(path.name for path in tmp_path.iterdir()) == ["a.cached", "c.cached", "d.cached"]


def test_recency_survives_a_restart(tmp_path: Path) -> None:
    cache = DiskCache(tmp_path, max_bytes=300)
    for age, key in enumerate(("a", "b", "c")):
        cache.put(key, b"." * 100)
        # Distinct mtimes, oldest first, whatever the file system's resolution.
        os.utime(tmp_path / f"{key}.cached", ns=(age * 10**9, age * 10**9))
    restarted = DiskCache(tmp_path, max_bytes=300)
    restarted.put("d", b"." * 100)
    assert restarted.get("a") is None
    assert restarted.get("b") is not None


def test_a_smaller_bound_at_start_evicts_at_once(tmp_path: Path) -> None:
    cache = DiskCache(tmp_path, max_bytes=1000)
    for key in ("a", "b", "c"):
        cache.put(key, b"." * 100)
    assert DiskCache(tmp_path, max_bytes=150).total_bytes == 100


def test_an_entry_larger_than_the_bound_is_not_kept(tmp_path: Path) -> None:
    cache = DiskCache(tmp_path, max_bytes=100)
    cache.put("small", b"." * 50)
    cache.put("huge", b"." * 101)
    assert cache.get("huge") is None
    assert cache.get("small") is not None


def test_other_files_in_the_folder_are_left_alone(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_bytes(b"." * 500)
    cache = DiskCache(tmp_path, max_bytes=100)
    cache.put("a", b"." * 100)
    cache.put("b", b"." * 100)
    assert (tmp_path / "notes.txt").exists()
    assert cache.total_bytes == 100


def test_a_file_removed_behind_its_back_is_a_miss(tmp_path: Path) -> None:
    cache = DiskCache(tmp_path, max_bytes=1000)
    cache.put("a", b"." * 100)
    (tmp_path / "a.cached").unlink()
    assert cache.get("a") is None
    assert cache.total_bytes == 0


@pytest.mark.parametrize("key", ["../escape", "a/b", "", "x" * 201])
def test_keys_cannot_name_other_paths(tmp_path: Path, key: str) -> None:
    with pytest.raises(ValueError, match="unusable cache key"):
        DiskCache(tmp_path, max_bytes=100).put(key, b".")
