"""Keep the C allocator from holding on to the memory large pages pass through.

A render of a large page makes a handful of megabyte-sized buffers (the page
data's JSON, V8's HTML, the document, its bytes) that live for a moment.
glibc's malloc raises its mmap threshold each time such a buffer is freed, so
soon they all come from the heap arenas, which keep what was freed; each thread
that allocates may get an arena of its own. Fixing the threshold makes those
buffers mmap'd and given back on free, and two arenas are enough for a worker
whose Python code runs one thread at a time. Elsewhere than glibc, nothing is done.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging

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
