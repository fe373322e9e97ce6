"""Token buckets: a chat's and the bot's overall message budget."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Limits:
    """Messages per second; 0 switches a limit off. Telegram's documented
    limits: about 20 a minute in a group, about 1 a second in a private
    chat, about 30 a second overall. ``burst``: how many may go at once
    after a quiet spell (a group's whole minute, a private chat's few)."""

    group_per_second: float = 20 / 60
    group_burst: float = 20
    private_per_second: float = 1.0
    private_burst: float = 3
    overall_per_second: float = 30.0
    overall_burst: float = 30

    @classmethod
    def off(cls) -> Limits:
        return cls(0, 1, 0, 1, 0, 1)


class TokenBucket:
    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = max(burst, 1.0)
        self._clock = clock
        self._tokens = self.burst
        self._at = clock()

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
        self._at = now

    def wait_time(self) -> float:
        """Seconds until one token is there (0: now)."""
        if self.rate <= 0:
            return 0.0
        self._refill()
        return 0.0 if self._tokens >= 1 else (1 - self._tokens) / self.rate

    def take(self) -> None:
        if self.rate > 0:
            self._refill()
            self._tokens -= 1

    async def acquire(self) -> None:
        while (delay := self.wait_time()) > 0:
            await asyncio.sleep(delay)
        self.take()
