"""The rooms' timers: when a room's next timed transition is due (the
reminder, the deadline, each showdown step), arming it on the clock, and
pacing the showdown so every step is seen. A Telegram room's private hands
count down too: a step of that countdown is a timed transition (``TICK``).

The times live in the stored state as absolute times, so a restarted
process re-arms them (``TableManager.start``) and one that passed while the
bot was down fires at once. What a timer does when it fires is the
manager's (``Timed.fire``, timed.py); this module says when.

A showdown shows every step, however late its timer runs and however slowly
the chat is served: each step's time counts from when the step before it
was stored (``pace``), and on a platform whose views go through the outbox
a step is taken only once the group has been shown the room's messages
before it (``Timers.step_wait``), so a step is never replaced in the outbox
before it was sent.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import TYPE_CHECKING

from bot.core.room import Room
from bot.core.state import Phase
from storage.delivery import DeliveryStore, room_part

from . import round as round_flow
from .clock import Clock, TimerHandle
from .effects import Effects

if TYPE_CHECKING:
    from .rooms import Held

log = logging.getLogger(__name__)

# A showdown step whose predecessor is not delivered yet looks again this
# often; after waiting this long it is taken anyway (a chat that cannot be
# served must not hold the round for ever).
STEP_POLL_SECONDS = 0.25
STEP_WAIT_LIMIT = 60.0
# A timer whose work failed (the database, for a moment) fires again after this long.
RETRY_SECONDS = 5.0


class Due(StrEnum):
    """What a room's timer does when it fires."""

    REMIND = "remind"
    TICK = "tick"  # a step of the private hands' countdown
    DEADLINE = "deadline"
    STEP = "step"


def next_event(room: Room) -> float | None:
    """When the room's next timed transition is due (None: none is)."""
    rnd = room.round
    if rnd is None:
        return None
    if room.phase == Phase.ARRANGING:
        times = [rnd.deadline]
        if rnd.remind_at is not None and not rnd.reminded:
            times.append(rnd.remind_at)
        tick = round_flow.next_tick(room)
        if tick is not None:
            times.append(tick)
        return min(times)
    if room.phase == Phase.SHOWDOWN:
        return rnd.next_at
    return None


def due(room: Room, now: float) -> Due | None:
    """The timed transition due at ``now`` (None: nothing yet)."""
    rnd = room.round
    if rnd is None:
        return None
    if room.phase == Phase.ARRANGING:
        if now >= rnd.deadline:
            return Due.DEADLINE
        if rnd.remind_at is not None and not rnd.reminded and now >= rnd.remind_at:
            return Due.REMIND
        tick = round_flow.next_tick(room)
        if tick is not None and now >= tick:
            return Due.TICK
    if room.phase == Phase.SHOWDOWN and rnd.next_at is not None and now >= rnd.next_at:
        return Due.STEP
    return None


def timed(what: Due, state: Room, ctx: round_flow.Ctx) -> Effects:
    """Apply the timed transition ``what`` to ``state`` (the deadline's
    auto-arrange calls the solver)."""
    if what is Due.DEADLINE:
        return round_flow.deadline(state, ctx)
    if what is Due.REMIND:
        return round_flow.remind(state, ctx)
    if what is Due.TICK:
        return round_flow.tick(state, ctx)
    return round_flow.showdown_step(state, ctx)


def pace(before: Room, state: Room, now: float, step_seconds: float) -> None:
    """A showdown step that is about to be stored is shown for a whole
    step from now: the transitions time the next step from when they
    began (``Ctx.now``), which may be long ago when the solver ran first
    (a cold deadline's auto-arrange) or the timer fired late; from then,
    the next step could already be due and replace this one before it
    was sent."""
    rnd = state.round
    if state.phase != Phase.SHOWDOWN or rnd is None or rnd.next_at is None:
        return
    old = before.round
    stored = (
        (old.no if old else None, old.step if old else None)
        if before.phase == Phase.SHOWDOWN
        else None
    )
    if stored == (rnd.no, rnd.step):
        return  # this step was stored before: its time stands
    rnd.next_at = max(rnd.next_at, now + step_seconds)


class Timers:
    """One armed timer per room, on ``clock``; ``fire(room_id)`` runs when it is due."""

    def __init__(
        self, clock: Clock, fire: Callable[[str], Awaitable[None]], step_seconds: float
    ) -> None:
        self.clock = clock
        self.fire = fire
        self.step_seconds = step_seconds
        self.armed: dict[str, tuple[float, TimerHandle]] = {}
        # room -> ((round, step), since when) whose delivery the next step waits for
        self._late_steps: dict[str, tuple[tuple[int, int], float]] = {}

    def stop(self) -> None:
        for _, handle in self.armed.values():
            handle.cancel()
        self.armed.clear()
        self._late_steps.clear()

    def arm(self, room_id: str, state: Room) -> None:
        """The room's timer at its next due time (none where nothing is due)."""
        when = next_event(state)
        current = self.armed.get(room_id)
        if current is not None:
            if current[0] == when:
                return
            current[1].cancel()
            del self.armed[room_id]
        if when is None:
            return

        entry: list[TimerHandle] = []

        async def fire() -> None:
            current = self.armed.get(room_id)
            if current is not None and entry and current[1] is entry[0]:
                del self.armed[room_id]
            await self.fire(room_id)

        handle = self.clock.call_at(when, fire)
        entry.append(handle)
        self.armed[room_id] = (when, handle)

    def retry(self, room_id: str, delay: float = RETRY_SECONDS) -> None:
        """Fire the room's timer again ``delay`` seconds from now."""

        async def again() -> None:
            await self.fire(room_id)

        current = self.armed.pop(room_id, None)
        if current is not None:
            current[1].cancel()
        when = self.clock.now() + delay
        self.armed[room_id] = (when, self.clock.call_at(when, again))

    async def step_wait(self, rec: Held, now: float, store: DeliveryStore | None) -> float | None:
        """How long the showdown's next step waits (None: take it now).

        Where the room's views go through the outbox (``store``: the one it
        delivers from; None where views are shown as they are made, as on
        the console and in tests), a step waits until the group has been
        shown what the room sent it before (no row of the room left
        undelivered in the group's chat): the outbox sends only the latest
        state of a message, so a step stored while the one before is still
        waiting would replace it unseen. A step that had to wait then stays
        a whole step on screen (kept by this process: one that takes over
        goes on at once). After ``STEP_WAIT_LIMIT`` seconds of waiting a
        step is taken anyway."""
        if store is None:
            return None
        room = rec.room
        rnd = room.rnd
        # Every row not delivered yet: due now, or waiting for a retry.
        horizon = datetime.now(UTC) + timedelta(days=366)
        rows = await store.lane_rows(room.platform, room.chat_id, horizon)
        step = (rnd.no, rnd.step)
        waited = self._late_steps.pop(rec.room_id, None)
        since = waited[1] if waited is not None and waited[0] == step else now
        if any(room_part(row.key) == rec.room_id for row in rows):
            if now - since < STEP_WAIT_LIMIT:
                self._late_steps[rec.room_id] = (step, since)
                return STEP_POLL_SECONDS
            log.warning(
                "room %s: showdown step taken before the last one was delivered", rec.room_id
            )
            return None
        if waited is not None and waited[0] == step:
            return self.step_seconds  # delivered just now: shown a whole step
        return None
