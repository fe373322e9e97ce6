"""Every showdown step is shown, and for its whole time, however slowly the
deadline's solver runs or the group's chat is served: the solver works in
a worker thread (the event loop goes on), the next step's time counts from
when a step is stored, and where views go through the outbox a step waits
until the one before it reached the group (bot/table/timers.py)."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.i18n import t
from bot.solver.api import strongest_tail_first
from bot.table import review, solving
from bot.table.actions import Verb
from bot.table.clock import RealClock
from bot.table.timers import STEP_WAIT_LIMIT

from .helpers import CHAT, make_manager, ok, open_table, press_arrangement, state_of

LANE_TITLES = {
    t(lang, f"show.{lane}") for lang in ("zh-Hans", "en") for lane in ("head", "middle", "tail")
}


def lanes_shown(lines: Any) -> int:
    """How many lanes a showdown text reveals (0: not a showdown)."""
    return sum(str(line) in LANE_TITLES for line in lines)


async def test_a_slow_deadline_leaves_the_loop_free_and_each_step_its_time(repo, monkeypatch):
    step, solver = 0.25, 0.3  # seconds: each hand's auto-arrange takes longer than a step
    clock = RealClock()
    mgr, _ = make_manager(
        repo, clock, arrange_seconds=1, reminder_seconds=0, showdown_step_seconds=step
    )
    shown: list[tuple[float, int]] = []  # (when, lanes revealed) of each showdown view

    async def sink(views: Any) -> None:
        for view in views:
            if n := lanes_shown(view.lines):
                shown.append((time.monotonic(), n))

    mgr.set_sink(sink)

    def cold(cards: Any, rules: Any) -> Any:
        time.sleep(solver)  # a solver building its pools for this table: CPU time
        return strongest_tail_first(cards, rules)  # legal, and needs no pool

    monkeypatch.setattr(solving, "auto_arrange", cold)
    monkeypatch.setattr(review, "review_round", lambda state: {})  # no pools here either

    async def warm(rules: Any) -> None:
        return None

    monkeypatch.setattr(solving, "warm", warm)  # nor at the deal
    rid, actors = await open_table(mgr, 2)
    await ok(mgr, actors[0], Verb.START)  # nobody arranges: the deadline does, in 1 s
    gaps: list[float] = []

    async def heartbeat() -> None:
        while True:
            before = time.monotonic()
            await asyncio.sleep(0.01)
            gaps.append(time.monotonic() - before)

    beat = asyncio.create_task(heartbeat())
    try:
        for _ in range(200):  # a hang guard: the round takes about 2 s
            if (await state_of(mgr, rid))["phase"] == "lobby":
                break
            await asyncio.sleep(0.05)
    finally:
        beat.cancel()
        await mgr.stop()
    assert (await state_of(mgr, rid))["phase"] == "lobby"
    assert max(gaps) < solver, "the solver ran on the event loop"
    assert [n for _, n in shown] == [1, 2, 3]
    times = [when for when, _ in shown]
    pauses = [b - a for a, b in zip(times, times[1:], strict=False)]
    assert min(pauses) >= step * 0.8, pauses  # step 0 was not cut short by the solver's time


def _far() -> datetime:
    return datetime.now(UTC) + timedelta(days=1)


async def deliver(repo: Any) -> list[int]:
    """What a delivery engine does, at once: every row of the group sent;
    the lanes each showdown view sent reveals, in order."""
    out = []
    for row in await repo.lane_rows("telegram", CHAT, _far()):
        if n := lanes_shown(row.payload["lines"]):
            out.append(n)
        assert await repo.finish(row, None)
    return out


async def test_a_step_waits_until_the_one_before_reached_the_group(repo, clock):
    mgr, _ = make_manager(repo, clock, showdown_step_seconds=2)
    mgr.durable.platforms.add("telegram")  # views go through the outbox
    rid, actors = await open_table(mgr, 2)
    await ok(mgr, actors[0], Verb.START)
    await press_arrangement(mgr, rid, actors[0])
    await deliver(repo)
    await press_arrangement(mgr, rid, actors[1])  # the showdown's first step is stored
    # The group's lane is slow (a flood limit, a lease of a dead process):
    # the next step waits instead of replacing the first one unseen.
    await clock.advance(10)
    assert (await state_of(mgr, rid))["round"]["step"] == 0
    shown = await deliver(repo)
    assert shown == [1]
    await clock.advance(1)  # shown late: it stays a whole step on screen
    assert (await state_of(mgr, rid))["round"]["step"] == 0
    await clock.advance(1.5)
    assert (await state_of(mgr, rid))["round"]["step"] == 1
    shown += await deliver(repo)
    await clock.advance(2)  # delivered in time: the next step follows on time
    shown += await deliver(repo)
    await clock.advance(2)  # the last step pays the round
    st = await state_of(mgr, rid)
    assert st["phase"] == "lobby"
    shown += await deliver(repo)
    assert shown == [1, 2, 3]
    assert mgr.clock.pending == 0


async def test_a_step_never_delivered_is_taken_after_the_wait_limit(repo, clock):
    mgr, _ = make_manager(repo, clock, showdown_step_seconds=2)
    mgr.durable.platforms.add("telegram")
    rid, actors = await open_table(mgr, 2)
    await ok(mgr, actors[0], Verb.START)
    await press_arrangement(mgr, rid, actors[0])
    await press_arrangement(mgr, rid, actors[1])
    await clock.advance(2 + STEP_WAIT_LIMIT - 1)
    assert (await state_of(mgr, rid))["round"]["step"] == 0
    await clock.advance(2)  # a chat nobody serves does not hold the round for ever
    assert (await state_of(mgr, rid))["round"]["step"] == 1
