"""The manager's timed transitions, as they run when a room's timer fires:
the reminder, the deadline (every unfinished hand auto-arranged) and each
showdown step (the last one with the review and the pay). When they are due
is timers.py's; this is what firing does.

The deadline's auto-arrange is solver work: it is worked out on a snapshot
of the room outside its lock, as the manager does for a suggestion, so a
player's tap meanwhile is answered at once; the arrangements are then
replayed on the room as it is under the lock (solved.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Protocol

from bot.core.review import SeatReview
from bot.core.room import Room
from bot.delivery.entries import Durable
from bot.views.model import View
from storage.api import Repository, RoomStatus, StaleVersion
from storage.delivery import DeliveryStore

from . import history, present
from . import review as reviewing
from . import timers as timing
from .clock import Clock
from .contract import Sink
from .effects import Effects
from .rooms import Held, Rooms
from .round import Ctx, finishing
from .solved import AHEAD_TRIES, Ahead, Solved, Unsolved
from .timers import Timers

log = logging.getLogger(__name__)


class TimedTable(Protocol):
    """What the timed transitions use of the table manager."""

    repo: Repository
    clock: Clock
    rooms: Rooms
    timers: Timers
    durable: Durable
    pictures: bool
    max_retries: int
    _sink: Sink | None

    def _ctx(self, solved: Solved | None = None) -> Ctx: ...

    async def _snapshot(self, room_id: str) -> Held | None: ...

    async def _store(
        self, rec: Held, state: Room, fx: Effects, views: list[View], actor: str | None = None
    ) -> tuple[Held, list[View]]: ...


class Timed:
    """The timed transitions of ``table``'s rooms."""

    def __init__(self, table: TimedTable) -> None:
        self.table = table

    async def fire(self, room_id: str) -> None:
        """The room's timer fired: its due transition, stored and shown."""
        try:
            await self._step(room_id)
        except Exception:
            # e.g. the database is down: nothing was stored, so try again soon.
            log.exception("timer of room %s failed; retrying", room_id)
            self.table.timers.retry(room_id)

    async def _step(self, room_id: str) -> None:
        solved = Solved()
        for _ in range(AHEAD_TRIES):
            ahead = await self._ahead(room_id, solved)
            with contextlib.suppress(Unsolved):
                views = await self._locked(room_id, solved.replaying(), ahead)
                break
        else:
            views = await self._locked(room_id, solved.computing())
        sink = self.table._sink
        if views and sink is not None:
            try:
                await sink(views)
            except Exception:  # the adapter's failure must not stop the table
                log.exception("sink failed for room %s", room_id)

    async def _ahead(self, room_id: str, solved: Solved) -> Ahead | None:
        """The deadline applied to a snapshot of the room, outside its lock,
        in a worker thread (None: no deadline is due)."""
        rec = await self.table._snapshot(room_id)
        ctx = self.table._ctx(solved)
        if rec is None or rec.status is RoomStatus.CLOSED:
            return None
        if timing.due(rec.room, ctx.now) is not timing.Due.DEADLINE:
            return None
        state = rec.room.copy()
        fx = await asyncio.to_thread(timing.timed, timing.Due.DEADLINE, state, ctx)
        return Ahead(rec.version, state, fx)

    async def _locked(self, room_id: str, solved: Solved, ahead: Ahead | None = None) -> list[View]:
        """The room's due transition applied under its lock and stored; the
        views it made (``Unsolved``: the deadline needs an arrangement that
        was not worked out ahead, and ``solved`` only replays)."""
        table = self.table
        views: list[View] = []
        async with table.rooms.lock(room_id):
            for _ in range(table.max_retries):
                rec = await table.rooms.load(room_id)
                if rec is None or rec.status is RoomStatus.CLOSED:
                    return []
                ctx = table._ctx(solved)
                due = timing.due(rec.room, ctx.now)
                if due is None:
                    table.timers.arm(room_id, rec.room)
                    return []
                if due is timing.Due.STEP:
                    wait = await table.timers.step_wait(rec, ctx.now, self._outbox_of(rec))
                    if wait is not None:
                        table.timers.retry(room_id, wait)
                        return []
                state = rec.room.copy()
                if due is timing.Due.STEP and finishing(state):
                    state.rnd.review = await self._review(state)
                if (
                    due is timing.Due.DEADLINE
                    and ahead is not None
                    and ahead.version == rec.version
                ):
                    state, fx = ahead.state, ahead.fx  # the room is as it was read
                else:
                    # In a worker thread: ``solved`` computing, a deadline arranges here.
                    fx = await asyncio.to_thread(timing.timed, due, state, ctx)
                now = table.clock.now()
                views = present.views_of(state, fx, now, pictures=table.pictures)
                if fx.final and (m := state.match):
                    # The last round's settlement is stored with these views.
                    views += await history.final_views(
                        table.repo, state, m, fx.settlement_record, pictures=table.pictures
                    )
                try:
                    _, views = await table._store(rec, state, fx, views)
                except StaleVersion:
                    table.rooms.forget(room_id)
                    continue
                break
        return views

    def _outbox_of(self, rec: Held) -> DeliveryStore | None:
        """The store the room's views are delivered from, where they go
        through the outbox (None: shown as they are made)."""
        repo = self.table.repo
        durable = rec.room.platform in self.table.durable.platforms
        return repo if durable and isinstance(repo, DeliveryStore) else None

    @staticmethod
    async def _review(state: Room) -> dict[str, SeatReview]:
        """Each person's review, stored with the settlement: solver work, so
        in a worker thread. A failure costs the review, never the round's pay."""
        try:
            return await asyncio.to_thread(reviewing.review_round, state)
        except Exception:
            log.exception("the review of room %s round %s failed", state.room_id, state.round_no)
            return {}
