"""Time for the table manager: deadlines, reminders and showdown steps.

Every timer goes through a Clock so tests drive time with ``FakeClock`` and
never sleep for real. Times are absolute seconds (``now()``), because
deadlines are stored in the room state and must survive a restart.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

log = logging.getLogger(__name__)

TimerCallback = Callable[[], Awaitable[None]]


class TimerHandle(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    def now(self) -> float:
        """Absolute time in seconds."""

    def call_at(self, when: float, callback: TimerCallback) -> TimerHandle:
        """Run ``callback`` at ``when`` (at once when it has passed)."""


class _RealTimer:
    def __init__(self) -> None:
        self.handle: asyncio.TimerHandle | None = None
        self.task: asyncio.Task[None] | None = None
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True
        if self.handle is not None:
            self.handle.cancel()
        # A running callback is left to finish: it holds the room lock and
        # cancelling it half-way would leave nothing stored anyway.


class RealClock:
    """Wall-clock time (``time.time()``) and asyncio timers."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()

    def now(self) -> float:
        return time.time()

    def call_at(self, when: float, callback: TimerCallback) -> _RealTimer:
        loop = asyncio.get_running_loop()
        timer = _RealTimer()

        def fire() -> None:
            if timer.cancelled:
                return
            task = loop.create_task(_run_logged(callback))
            timer.task = task
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        timer.handle = loop.call_later(max(0.0, when - self.now()), fire)
        return timer


async def _run_logged(callback: TimerCallback) -> None:
    try:
        await callback()
    except Exception:  # a failing timer must not kill the loop
        log.exception("timer callback failed")


class _FakeTimer:
    def __init__(self, when: float, seq: int, callback: TimerCallback) -> None:
        self.when = when
        self.seq = seq
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True

    def __lt__(self, other: _FakeTimer) -> bool:
        return (self.when, self.seq) < (other.when, other.seq)


class FakeClock:
    """A clock for tests: time moves only when ``advance`` is awaited, and
    due callbacks run inside ``advance`` in time order (awaited one by one,
    so a test sees their effects as soon as ``advance`` returns)."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = float(start)
        self._heap: list[_FakeTimer] = []
        self._seq = itertools.count()

    def now(self) -> float:
        return self._now

    def call_at(self, when: float, callback: TimerCallback) -> _FakeTimer:
        timer = _FakeTimer(float(when), next(self._seq), callback)
        heapq.heappush(self._heap, timer)
        return timer

    @property
    def pending(self) -> int:
        """Timers still armed (not cancelled, not run)."""
        return sum(1 for t in self._heap if not t.cancelled)

    def next_due(self) -> float | None:
        live = [t.when for t in self._heap if not t.cancelled]
        return min(live) if live else None

    async def advance(self, seconds: float = 0.0) -> None:
        """Move time forward by ``seconds``, running every timer that falls
        due (including timers those callbacks arm inside the window)."""
        target = self._now + max(0.0, seconds)
        while self._heap and self._heap[0].when <= target:
            timer = heapq.heappop(self._heap)
            if timer.cancelled:
                continue
            self._now = max(self._now, timer.when)
            await timer.callback()
        self._now = target
