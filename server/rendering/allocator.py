"""Keep the C allocator from holding on to the memory large pages pass through.

A render of a large page makes a handful of megabyte-sized buffers (the page
data's JSON, V8's HTML, the document, its bytes) that live for a moment.
glibc's malloc raises its mmap threshold each time such a buffer is freed, so
soon they all come from the heap arenas, which keep what was freed; each thread
that allocates may get an arena of its own. Fixing the threshold makes those
buffers mmap'd and given back on free, and two arenas are enough for a worker
whose Python code runs one thread at a time. Elsewhere than glibc, nothing is done.
`malloc_figures` says what the allocator holds, for the tests and the memory script.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
from dataclasses import dataclass

logger = logging.getLogger(__name__)

# mallopt's parameters (malloc.h).
_M_MMAP_THRESHOLD = -3
_M_ARENA_MAX = -8

# Buffers from this size up are mapped and unmapped: a card's page with a few
# hundred cards is larger; Python's own small objects never are.
MMAP_THRESHOLD_BYTES = 128 * 1024
ARENAS = 2


def give_back_large_buffers() -> bool:
    """Tune glibc's malloc for this process (again: no harm); whether it was done."""
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name)
        mallopt = libc.mallopt
    except (OSError, AttributeError, TypeError):
        logger.debug("No glibc mallopt here: the allocator is left as it is")
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    threshold_set = bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES))
    return bool(mallopt(_M_ARENA_MAX, ARENAS)) and threshold_set


class _MallInfo2(ctypes.Structure):
    # struct mallinfo2 (malloc.h, glibc 2.33 and later).
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena",
            "ordblks",
            "smblks",
            "hblks",
            "hblkhd",
            "usmblks",
            "fsmblks",
            "uordblks",
            "fordblks",
            "keepcost",
        )
    ]


@dataclass(frozen=True)
class MallocFigures:
    # Handed out: from the arenas and mmap'd.
    in_use_bytes: int
    # Free but kept by the allocator, not given back to the system.
    free_kept_bytes: int


def malloc_figures() -> MallocFigures:
    """glibc's mallinfo2 for this process (OSError or AttributeError elsewhere than glibc)."""
    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    mallinfo2 = libc.mallinfo2
    mallinfo2.restype = _MallInfo2
    info = mallinfo2()
    return MallocFigures(in_use_bytes=info.uordblks + info.hblkhd, free_kept_bytes=info.fordblks)
