"""Per-client token buckets: a burst at once, then a steady rate; bounded memory."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(kw_only=True)
class TokenBuckets:
    """One bucket per key (a client's IP): `burst` requests at once, `per_second` after. Past
    `max_keys`, the key seen longest ago is forgotten: its bucket has had the most time to refill,
    so a full one next time changes least."""

    burst: float
    per_second: float
    max_keys: int = 10_000
    clock: Callable[[], float] = time.monotonic
    # key -> (tokens left, when they were counted), least recently seen first.
    _buckets: OrderedDict[str, tuple[float, float]] = field(default_factory=OrderedDict, init=False)

    def allow(self, key: str) -> bool:
        now = self.clock()
        tokens, counted_at = self._buckets.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - counted_at) * self.per_second)
        allowed = tokens >= 1
        if allowed:
            tokens -= 1
        self._buckets[key] = (tokens, now)
        while len(self._buckets) > self.max_keys:
            self._buckets.popitem(last=False)
        return allowed

    def __len__(self) -> int:
        return len(self._buckets)
