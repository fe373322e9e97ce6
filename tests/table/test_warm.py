"""The solver's warm-up (bot.table.solving.warm): a quick model first, the
full pools afterwards in a background thread, logged when that build starts
and when it is done; callers that ask meanwhile share one build. The
solver itself is replaced by stand-ins that count and wait."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from typing import Any

import pytest

from bot.rules.options import make_rules
from bot.table import solving


class Solver:
    """``prepare`` and ``refine`` of a deck setting with no pools on disk."""

    def __init__(self) -> None:
        self.prepared = 0
        self.refined = 0
        self.quick_built = threading.Event()
        self.release_quick = threading.Event()
        self.release_full = threading.Event()
        self.full = False
        self.thread = 0  # the thread refine ran in, and when: its log lines are this build's
        self.started = 0.0

    def prepare(self, rules: Any, *, quick: bool = False) -> bool:
        assert quick
        self.prepared += 1
        if self.prepared == 1:
            self.release_quick.wait(10)
            self.quick_built.set()
        return not self.full  # the full pools still to build

    def refine(self, rules: Any) -> bool:
        self.thread = threading.get_ident()
        self.started = time.time()
        self.refined += 1
        self.release_full.wait(10)
        self.full = True
        return True


@pytest.fixture
def solver(monkeypatch: pytest.MonkeyPatch) -> Solver:
    import bot.solver

    fake = Solver()
    monkeypatch.setattr(bot.solver, "prepare", fake.prepare)
    monkeypatch.setattr(bot.solver, "refine", fake.refine)
    monkeypatch.setattr(solving, "_warmed", set())
    monkeypatch.setattr(solving, "_building", {})
    # Locks of its own: a real build another test left running holds the
    # module's, and the stand-in would wait behind it for minutes.
    monkeypatch.setattr(solving, "_one_build", threading.Lock())
    monkeypatch.setattr(solving, "_one_refine", threading.Lock())
    return fake


async def until(check: Any) -> None:
    for _ in range(200):
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("timed out")


async def test_callers_share_one_quick_build_and_never_wait_for_the_full_one(
    solver: Solver, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger=solving.__name__)
    rules = make_rules("classic", 4)
    first = asyncio.create_task(solving.warm(rules))
    second = asyncio.create_task(solving.warm(rules))
    await asyncio.sleep(0.1)
    assert not first.done() and not second.done()  # the quick model is being built
    solver.release_quick.set()
    await asyncio.wait_for(asyncio.gather(first, second), 5)
    await solving.warm(rules)  # ready: at once
    # the full build runs in the background, logged as it starts
    await until(lambda: solver.refined == 1)

    def ours() -> list[str]:
        # Only this build's lines since refine began: a build another test
        # left running logs the same words from a thread of the same name
        # (and, once it has ended, perhaps the same id).
        return [
            r.getMessage()
            for r in caplog.records
            if r.thread == solver.thread and r.created >= solver.started
        ]

    messages = [r.getMessage() for r in caplog.records if r.thread == solver.thread]
    assert any("building the AI's full opponent pools for classic" in m for m in messages)
    assert not any("are built" in m for m in ours())
    solver.release_full.set()
    await until(lambda: any("are built" in m for m in ours()))
    done = next(m for m in ours() if "are built" in m)
    assert done.startswith("solver: the full opponent pools for classic are built (")
    assert solver.refined == 1


async def test_a_cancelled_wait_leaves_the_build_to_the_others(solver: Solver) -> None:
    rules = make_rules("classic", 3)
    impatient = asyncio.create_task(solving.warm(rules))
    patient = asyncio.create_task(solving.warm(rules))
    await asyncio.sleep(0.05)
    impatient.cancel()  # e.g. the process told to stop
    solver.release_quick.set()
    solver.release_full.set()
    await asyncio.wait_for(patient, 5)
    assert impatient.cancelled()


async def test_a_failed_quick_build_is_tried_again(
    solver: Solver, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.solver

    calls = []

    def broken(rules: Any, *, quick: bool = False) -> bool:
        calls.append(quick)
        if len(calls) == 1:
            raise OSError("disk full")
        return False  # the pools were on disk

    monkeypatch.setattr(bot.solver, "prepare", broken)
    rules = make_rules("extended", 4)
    with pytest.raises(OSError):
        await solving.warm(rules)
    await solving.warm(rules)
    assert len(calls) == 2
