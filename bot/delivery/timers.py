"""Room timers across processes: each process polls for due timers and
fires those it leased (``FOR UPDATE SKIP LOCKED`` on PostgreSQL), so a
deadline fires even when the process that dealt the round is gone. The
process that changed a room still arms its own precise timer; a second
firing changes nothing (the room's version check)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Protocol

log = logging.getLogger(__name__)


class TimerStore(Protocol):
    async def claim_due_timers(
        self, now: float, owner: str, until: datetime, wall_now: datetime, limit: int = 50
    ) -> list[str]: ...


class TimerPoller:
    def __init__(
        self,
        store: TimerStore,
        fire: Callable[[str], Awaitable[None]],
        clock: Callable[[], float],
        owner: str,
        *,
        interval: float = 1.0,
        lease_seconds: float = 30.0,
    ) -> None:
        self.store = store
        self.fire = fire
        self.clock = clock
        self.owner = owner
        self.interval = interval
        self.lease_seconds = lease_seconds
        self._task: asyncio.Task[None] | None = None
        self.fired = 0

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def poll_once(self) -> int:
        wall = datetime.now(UTC)
        until = wall + timedelta(seconds=self.lease_seconds)
        rooms = await self.store.claim_due_timers(self.clock(), self.owner, until, wall)
        for room_id in rooms:
            await self.fire(room_id)
        self.fired += len(rooms)
        return len(rooms)

    async def _run(self) -> None:
        while True:
            try:
                await self.poll_once()
            except Exception:  # the database may be away for a moment: try again
                log.warning("timers: could not look for due rooms", exc_info=True)
            await asyncio.sleep(self.interval)
