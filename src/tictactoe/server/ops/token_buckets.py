"""Token buckets: `burst` tokens refilled at `rate` per second, one bucket (a socket's message
limit) or one per key (a client address's limits, a table's reactions)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable


class TokenBucket:
    """One bucket: `burst` tokens, refilled at `rate` per second (a socket's own message limit:
    one per open socket, so it holds two numbers and no dict).

    >>> bucket = TokenBucket(rate=1.0, burst=2, clock=lambda: 0.0)
    >>> [bucket.take() for _ in range(3)]
    [0.0, 0.0, 1.0]
    """

    __slots__ = ("_clock", "_then", "_tokens", "burst", "rate")

    def __init__(
        self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = float(burst)
        self._clock = clock
        self._tokens = self.burst
        self._then = clock()

    def take(self) -> float:
        """Takes a token: 0.0 if there was one, else the seconds until there will be."""
        now = self._clock()
        tokens = min(self.burst, self._tokens + (now - self._then) * self.rate)
        self._then = now
        if tokens >= 1.0:
            self._tokens = tokens - 1.0
            return 0.0
        self._tokens = tokens
        return (1.0 - tokens) / self.rate


class TokenBuckets:
    """One bucket per key: `burst` tokens, refilled at `rate` per second.

    >>> buckets = TokenBuckets(rate=1.0, burst=2, clock=lambda: 0.0)
    >>> [buckets.take("a") for _ in range(3)]
    [0.0, 0.0, 1.0]
    >>> buckets.take("b")
    0.0
    """

    def __init__(
        self,
        rate: float,
        burst: int,
        clock: Callable[[], float] = time.monotonic,
        max_keys: int = 100_000,
    ) -> None:
        self.rate = rate
        self.burst = float(burst)
        self._clock = clock
        self._max_keys = max_keys
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, when counted)

    def take(self, key: str) -> float:
        """Takes a token: 0.0 if there was one, else the seconds until there will be."""
        now = self._clock()
        tokens, then = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if tokens >= 1.0:
            self._buckets[key] = (tokens - 1.0, now)
            if len(self._buckets) > self._max_keys:
                self._forget_full(now)
            return 0.0
        self._buckets[key] = (tokens, now)
        return (1.0 - tokens) / self.rate

    def _forget_full(self, now: float) -> None:
        # A bucket that has refilled is the same as no bucket: memory stays bounded by the
        # clients active within the last burst/rate seconds.
        full = [
            key
            for key, (tokens, then) in self._buckets.items()
            if tokens + (now - then) * self.rate >= self.burst
        ]
        for key in full:
            del self._buckets[key]


def retry_after(wait: float) -> str:
    """The Retry-After header value for a wait in seconds (whole seconds, at least 1).

    >>> retry_after(0.2), retry_after(2.5)
    ('1', '3')
    """
    return str(max(1, math.ceil(wait)))
