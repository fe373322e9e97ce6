"""bench/solver_lock_bench.py runs end to end on one trial (its numbers are
not checked: BENCHMARKS.md has them): the neighbour's suggestion is answered,
and the taps made while it was worked out and with nobody asking are timed."""

from __future__ import annotations

from bench import solver_lock_bench


async def test_one_trial_times_the_taps_and_the_suggestion() -> None:
    times = await solver_lock_bench.measure(trials=1, gap=0.05, warm=False)
    assert len(times["suggest"]) == 1
    assert len(times["quiet"]) == 5
    assert times["during"], "no tap was made while the suggestion was worked out"
    assert all(t > 0 for values in times.values() for t in values)
