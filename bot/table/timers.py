"""The rooms' timers: when a room's next timed transition is due (the
reminder, the deadline, each showdown step), and arming it on the clock.

The times live in the stored state as absolute times, so a restarted
process re-arms them (``TableManager.start``) and one that passed while the
bot was down fires at once. What a timer does when it fires is the
manager's (``TableManager._on_timer``); this module says when.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from enum import StrEnum
from typing import Any

from . import round as R
from .clock import Clock, TimerHandle
from .effects import Effects

log = logging.getLogger(__name__)

# A timer whose work failed (the database, for a moment) fires again after this long.
RETRY_SECONDS = 5.0


class Due(StrEnum):
    """What a room's timer does when it fires."""

    REMIND = "remind"
    DEADLINE = "deadline"
    STEP = "step"


def next_event(state: dict[str, Any]) -> float | None:
    """When the room's next timed transition is due (None: none is)."""
    rnd = state.get("round")
    if rnd is None:
        return None
    if state["phase"] == "arranging":
        if rnd.get("remind_at") is not None and not rnd["reminded"]:
            return min(rnd["remind_at"], rnd["deadline"])
        return rnd["deadline"]
    if state["phase"] == "showdown":
        return rnd["next_at"]
    return None


def due(state: dict[str, Any], now: float) -> Due | None:
    """The timed transition due at ``now`` (None: nothing yet)."""
    rnd = state.get("round")
    if rnd is None:
        return None
    if state["phase"] == "arranging":
        if now >= rnd["deadline"]:
            return Due.DEADLINE
        if rnd.get("remind_at") is not None and not rnd["reminded"] and now >= rnd["remind_at"]:
            return Due.REMIND
    if state["phase"] == "showdown" and rnd["next_at"] is not None and now >= rnd["next_at"]:
        return Due.STEP
    return None


def timed(what: Due, state: dict[str, Any], ctx: R.Ctx) -> Effects:
    """Apply the timed transition ``what`` to ``state`` (the deadline's
    auto-arrange calls the solver)."""
    if what is Due.DEADLINE:
        return R.deadline(state, ctx)
    if what is Due.REMIND:
        return R.remind(state, ctx)
    return R.showdown_step(state, ctx)


class Timers:
    """One armed timer per room, on ``clock``; ``fire(room_id)`` runs when it is due."""

    def __init__(
        self, clock: Clock, fire: Callable[[str], Awaitable[None]], step_seconds: float
    ) -> None:
        self.clock = clock
        self.fire = fire
        self.step_seconds = step_seconds
        self.armed: dict[str, tuple[float, TimerHandle]] = {}

    def stop(self) -> None:
        for _, handle in self.armed.values():
            handle.cancel()
        self.armed.clear()

    def arm(self, room_id: str, state: dict[str, Any]) -> None:
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
