"""A client-wide request-rate limit with an injectable clock, for the online library.

Every request takes the next free slot; slots are ``1 / rate`` seconds apart, so
however many tasks ask at once, requests leave at most ``rate`` per second (after
the first ``burst``). The clock and sleep function are injectable so a test can
count request timestamps in virtual time instead of sleeping.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Awaitable, Callable

import anyio

__all__ = ["Clock", "RateLimiter", "Sleep"]

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]


class RateLimiter:
    """At most ``rate`` acquisitions per second, with an initial ``burst``.

    Args:
        rate: Requests per second; ``None`` or ``0`` means no limit.
        burst: How many requests may go at once before spacing starts.
        clock: Monotonic seconds (default: ``time.monotonic``, the same on every event
            loop, since sync and async calls of one client run on different loops).
        sleep: Awaitable sleep in seconds (default: ``anyio.sleep``).
    """

    def __init__(
        self,
        rate: float | None,
        *,
        burst: int = 1,
        clock: Clock | None = None,
        sleep: Sleep | None = None,
    ) -> None:
        if rate is not None and rate < 0:
            raise ValueError("rate must be >= 0 (0 or None disables the limit)")
        self.rate = rate or None
        self.interval = 1.0 / self.rate if self.rate else 0.0
        self.burst = max(1, burst)
        self._clock: Clock = clock or time.monotonic
        self._sleep: Sleep = sleep or anyio.sleep
        self._tat: float | None = None
        self._lock = threading.Lock()  # two loops (threads) may ask at once

    async def acquire(self) -> float:
        """Wait for the next slot; return the clock time the slot starts at."""
        now = self._clock()
        if not self.interval:
            return now
        # GCRA: `_tat` is when the bucket would be empty again. Reserve before
        # sleeping (no await in between), so concurrent callers get distinct slots.
        with self._lock:
            tat = now if self._tat is None else max(self._tat, now)
            slot = max(now, tat - self.interval * (self.burst - 1))
            self._tat = tat + self.interval
        if slot > now:
            await self._sleep(slot - now)
        return slot
