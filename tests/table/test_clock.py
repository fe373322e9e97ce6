"""The clocks: FakeClock runs due timers in time order inside advance();
RealClock fires a timer whose time has passed on the next loop turn."""

from __future__ import annotations

import asyncio

from bot.table.clock import FakeClock, RealClock


async def test_fake_clock_runs_due_timers_in_order_and_chains():
    clock = FakeClock(100.0)
    seen: list[tuple[str, float]] = []

    async def cb(name: str) -> None:
        seen.append((name, clock.now()))
        if name == "a":
            clock.call_at(clock.now() + 1, lambda: cb("chained"))

    clock.call_at(105, lambda: cb("b"))
    clock.call_at(102, lambda: cb("a"))
    cancelled = clock.call_at(101, lambda: cb("never"))
    cancelled.cancel()
    clock.call_at(200, lambda: cb("late"))
    await clock.advance(10)
    assert seen == [("a", 102.0), ("chained", 103.0), ("b", 105.0)]
    assert clock.now() == 110.0 and clock.pending == 1 and clock.next_due() == 200


async def test_real_clock_fires_a_passed_time_at_once():
    clock = RealClock()
    fired = asyncio.Event()

    async def cb() -> None:
        fired.set()

    clock.call_at(clock.now() - 60, cb)  # a deadline that passed while down
    for _ in range(10):
        if fired.is_set():
            break
        await asyncio.sleep(0)
    assert fired.is_set()
    handle = clock.call_at(clock.now() + 3600, cb)
    handle.cancel()
