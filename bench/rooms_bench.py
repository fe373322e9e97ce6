"""Concurrent 4-player rooms through whole rounds: actions/s and p99 handle().

    python bench/rooms_bench.py --rooms 1000 --rounds 2 --think 1.0
    (or: python -m bot bench rooms --rooms 1000)

Every room is driven like a table of 4 people: open, 3 joins, start, then
each player taps 8 cards and confirms, with a random pause (uniform 0 ..
2 x --think seconds) before every tap; the showdown runs on the real clock.
The time of every ``TableManager.handle`` call is recorded. The in-memory
repository runs the same workload first as the baseline (the manager's own
cost); SQLite (a file) and PostgreSQL (``--pg URL``, skipped when no server
answers) follow, and the ratios against the baseline are printed.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.core.round import rules_of  # noqa: E402
from bot.core.state import Phase  # noqa: E402
from bot.rules.cards import parse_card  # noqa: E402
from bot.table.actions import Action, Actor, Verb  # noqa: E402
from bot.table.clock import RealClock  # noqa: E402
from bot.table.manager import TableManager  # noqa: E402
from tests.stored import cached_json, cached_phase  # noqa: E402
from tests.table.helpers import lane_indexes, quick_split  # noqa: E402

PG_DEFAULT = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def taps_for(hand: dict[str, Any], rules: Any) -> list[int]:
    """Card indexes a player taps (head 3, middle 5). People think on their
    own machines, so the driver keeps its own CPU small: the first legal
    one of three cheap splits (groups, suits, ranks to the tail), the
    solver only when all three foul."""
    arr = quick_split(hand["cards"], rules)
    if arr is None:
        from bot.solver import auto_arrange

        arr = auto_arrange([parse_card(t) for t in hand["cards"]], rules)
    head, middle, _tail = lane_indexes(hand["cards"], arr)
    return head + middle


class Driver:
    def __init__(self, mgr: TableManager, think: float, seed: int) -> None:
        self.mgr = mgr
        self.think = think
        self.rng = random.Random(seed)
        self.latencies: list[float] = []
        self.by_verb: dict[str, list[float]] = {}
        self.refused = 0
        self.tag = (
            f"{random.getrandbits(32):08x}"  # fresh chats: a shared database may hold old rooms
        )

    async def pause(self) -> None:
        if self.think > 0:
            await asyncio.sleep(self.rng.uniform(0, 2 * self.think))

    async def handle(self, action: Action) -> Any:
        t0 = time.perf_counter()
        out = await self.mgr.handle(action)
        dt = time.perf_counter() - t0
        self.latencies.append(dt)
        self.by_verb.setdefault(action.verb.name, []).append(dt)
        if not out.ok:
            self.refused += 1
        return out

    async def player(self, rid: str, actor: Actor, round_no: int) -> None:
        state = cached_json(self.mgr, rid)
        assert state is not None
        rnd = state["round"]
        taps = taps_for(rnd["hands"][actor.key], rules_of(rnd["rules"]))
        for i in taps:
            await self.pause()
            await self.handle(Action(actor, Verb.PICK, room_id=rid, round_no=round_no, arg=str(i)))
        await self.pause()
        await self.handle(Action(actor, Verb.CONFIRM, room_id=rid, round_no=round_no))

    async def room(self, n: int, rounds: int) -> None:
        chat = f"bench-{self.tag}-{n}"
        people = [Actor("bench", f"{n}-{k}", f"P{k}") for k in range(4)]
        await self.pause()
        out = await self.handle(Action(people[0], Verb.NEW, chat_id=chat, arg="classic"))
        rid = out.room_id
        for p in people[1:]:
            await self.pause()
            await self.handle(Action(p, Verb.JOIN, chat_id=chat))
        for _ in range(rounds):
            await self.pause()
            await self.handle(Action(people[0], Verb.START, chat_id=chat))
            state = cached_json(self.mgr, rid)
            assert state is not None and state["phase"] == "arranging"
            no = state["round_no"]
            await asyncio.gather(*(self.player(rid, p, no) for p in people))
            while cached_phase(self.mgr, rid) not in (None, Phase.LOBBY):
                await asyncio.sleep(0.1)
        await self.handle(Action(people[0], Verb.CANCEL, chat_id=chat))


def rss_mb() -> float:
    """This process's resident memory now (VmRSS), in MB; 0 where /proc is not."""
    try:
        status = Path("/proc/self/status").read_text()
    except OSError:
        return 0.0
    line = next(x for x in status.splitlines() if x.startswith("VmRSS:"))
    return int(line.split()[1]) / 1024


async def run_one(label: str, repo: Any, args: argparse.Namespace) -> dict[str, Any]:
    await repo.init()
    mgr = TableManager(
        repo,
        clock=RealClock(),
        arrange_seconds=900,
        reminder_seconds=0,
        showdown_step_seconds=args.step,
    )
    await mgr.start()
    prepare = getattr(args, "prepare", None)
    if prepare is not None:  # delivery_bench: the outbox and its engine
        await prepare(mgr)
    driver = Driver(mgr, args.think, args.seed)
    # Memory: the process before the rooms open and its peak while they are
    # all open at once (sampled), so what the open rooms hold.
    gc.collect()
    before, peak = rss_mb(), [0.0]

    async def sample() -> None:
        while True:
            peak[0] = max(peak[0], rss_mb())
            await asyncio.sleep(0.5)

    sampler = asyncio.create_task(sample())
    t0 = time.perf_counter()
    await asyncio.gather(*(driver.room(n, args.rounds) for n in range(args.rooms)))
    wall = time.perf_counter() - t0
    sampler.cancel()
    await mgr.stop()
    await repo.close()
    lat = sorted(driver.latencies)
    q = statistics.quantiles(lat, n=100)
    verbs = {
        v: statistics.quantiles(sorted(x), n=100)[98] * 1000
        for v, x in driver.by_verb.items()
        if len(x) > 1
    }
    return {
        "label": label,
        "actions": len(lat),
        "refused": driver.refused,
        "wall": wall,
        "aps": len(lat) / wall,
        "p50": q[49] * 1000,
        "p99": q[98] * 1000,
        "max": lat[-1] * 1000,
        "mean": statistics.fmean(lat) * 1000,
        "verbs": verbs,
        "mb_before": before,
        "mb_peak": peak[0],
    }


async def pg_reachable(url: str) -> bool:
    try:
        import psycopg

        dsn = url.replace("postgresql+psycopg://", "postgresql://")
        conn = await psycopg.AsyncConnection.connect(dsn, connect_timeout=3)
        await conn.close()
        return True
    except Exception as e:  # no server here: say so and skip
        print(f"# PostgreSQL not reachable at {url}: {type(e).__name__}: {e}".splitlines()[0])
        return False


async def main_async(args: argparse.Namespace) -> int:
    # Warm the solver's tables for this deck once, outside the measurement.
    from bot.rules.options import make_rules
    from bot.solver import auto_arrange
    from storage.memory import MemoryRepository
    from storage.sql import SqlRepository

    auto_arrange(
        [
            parse_card(t)
            for t in ["As", "Kd", "Qh", "Jc", "Ts", "9d", "8h", "7c", "6s", "5d", "4h", "3c", "2s"]
        ],
        make_rules("classic", 4),
    )

    results = []
    if not args.skip_memory:
        results.append(await run_one("memory (baseline)", MemoryRepository(), args))
        print(f"# {results[-1]}", flush=True)
    if not args.skip_sqlite:
        with tempfile.TemporaryDirectory() as tmp:
            url = args.sqlite or f"sqlite:///{os.path.join(tmp, 'bench.db')}"
            results.append(await run_one("sqlite", SqlRepository(url), args))
            print(f"# {results[-1]}", flush=True)
    if args.pg and await pg_reachable(args.pg):
        repo = SqlRepository(args.pg, pool_size=args.pg_pool)
        results.append(await run_one(f"postgresql (pool {args.pg_pool})", repo, args))
    base = results[0] if not args.skip_memory else None
    print(
        f"# {args.rooms} rooms x 4 players, {args.rounds} round(s), think {args.think}s, step {args.step}s"
    )
    print(
        "| store | actions | refused | wall s | actions/s | p50 ms | p99 ms | max ms | p99 / baseline |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for r in results:
        ratio = f"{r['p99'] / base['p99']:.2f}" if base else "-"
        print(
            f"| {r['label']} | {r['actions']} | {r['refused']} | {r['wall']:.1f} | {r['aps']:.0f} | "
            f"{r['p50']:.2f} | {r['p99']:.2f} | {r['max']:.1f} | {ratio} |"
        )
    for r in results:
        per = ", ".join(f"{v} {ms:.1f}" for v, ms in sorted(r["verbs"].items()))
        print(f"# p99 ms by verb, {r['label']}: {per}")
    for r in results:
        held = (r["mb_peak"] - r["mb_before"]) / args.rooms * 1024
        print(
            f"# memory, {r['label']}: {r['mb_before']:.0f} MB before the rooms, peak "
            f"{r['mb_peak']:.0f} MB with {args.rooms} open: ~{held:.0f} KB a room"
        )
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rooms", type=int, default=1000)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--think", type=float, default=1.0, help="mean pause before a tap, seconds")
    p.add_argument("--step", type=float, default=0.5, help="showdown step seconds")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--sqlite", default=None, help="SQLite URL (default: a temporary file)")
    p.add_argument("--pg", default=PG_DEFAULT, help="PostgreSQL URL ('' to skip)")
    p.add_argument("--pg-pool", type=int, default=8, help="PostgreSQL connections/threads")
    p.add_argument("--skip-memory", action="store_true")
    p.add_argument("--skip-sqlite", action="store_true")
    args = p.parse_args(argv)
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    sys.exit(main())
