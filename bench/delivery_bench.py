"""Durable delivery: what the outbox costs an action, and what a flood costs other chats.

    python bench/delivery_bench.py --rooms 1000 --think 1.0
    (or: python -m bot bench delivery --rooms 1000)

Part 1 - p99 per action with the outbox vs without, on SQLite, in one run:
N concurrent 4-player rooms (bench/rooms_bench.py's people: open, 3 joins,
start, 8 taps and a confirm each, one round) through the real TableManager.
"without": the manager stores state only. "with": every view is written to
the outbox in the same transaction, and a DeliveryEngine on the same event
loop delivers it (to a transport that answers at once), as ``thirteen run``
does: the engine's reads and deletes compete with the actions.

Part 2 - delivery latency for other chats while one group floods: a
DeliveryEngine with Telegram's limits (20 a minute per group, 1 a second
per private chat, 30 a second overall) and a transport that takes
``--send-ms`` per call; --chats other chats (half groups, half private) get a new post every
--interval seconds each, within their own limits.
Measured twice in one run: no flood (baseline), then one group with
--flood views queued at once. p50/p99 of (write -> delivered) for the
other chats.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from rooms_bench import Driver, run_one  # noqa: E402

from bot.delivery import DeliveryEngine, Limits  # noqa: E402
from bot.delivery.entries import is_durable, target_chat  # noqa: E402
from storage.delivery import OutboxEntry, OutboxRow, SentRef  # noqa: E402
from storage.sql import SqlRepository  # noqa: E402


class Instant:
    """A transport that answers after ``delay`` seconds and records latency."""

    platform = "bench"

    def __init__(self, delay: float = 0.0) -> None:
        self.delay = delay
        self.sent = 0

    def is_group(self, chat_id: str) -> bool:
        return chat_id.startswith("bench-") or chat_id.startswith("-")

    async def deliver(self, row: OutboxRow) -> SentRef | None:
        if self.delay:
            await asyncio.sleep(self.delay)
        self.sent += 1
        return SentRef(row.platform, row.chat_id, row.key, str(self.sent))


async def outbox_part(args: argparse.Namespace) -> list[dict[str, Any]]:
    results = []
    for label, durable in (("sqlite, no outbox (baseline)", False), ("sqlite + outbox", True)):
        with tempfile.TemporaryDirectory() as tmp:
            repo = SqlRepository(f"sqlite:///{os.path.join(tmp, 'bench.db')}")
            engine: DeliveryEngine | None = None
            if durable:
                engine = DeliveryEngine(repo, Instant(), limits=Limits.off(), exclusive=True)
                wake = engine.wake
                orig = Driver.handle

                async def handle(
                    self: Driver, action: Any, orig: Any = orig, wake: Any = wake
                ) -> Any:
                    out = await orig(self, action)
                    for view in out.views:  # what the adapter does with an outcome
                        if is_durable(view):
                            wake(target_chat(view))
                    return out

                Driver.handle = handle  # type: ignore[method-assign]

            async def prepare(mgr: Any, engine: DeliveryEngine | None = engine) -> None:
                if engine is not None:
                    mgr.durable.platforms.add("bench")
                    engine.start()

            args.prepare = prepare
            try:
                result = await run_one(label, repo, args)
            finally:
                if durable:
                    Driver.handle = orig  # type: ignore[method-assign]
            if engine is not None:
                result["delivered"] = sum(engine.delivered.values())
                await engine.stop(timeout=5)
            results.append(result)
            print(f"# {result}", flush=True)
    return results


async def flood_part(args: argparse.Namespace, flood: int) -> dict[str, float]:
    from storage.memory import MemoryRepository

    repo = MemoryRepository()
    transport = Instant(args.send_ms / 1000)
    engine = DeliveryEngine(repo, transport, limits=Limits(), exclusive=True)
    engine.start()
    done: dict[str, float] = {}

    def delivered(row: OutboxRow, age: float) -> None:
        if row.chat_id != "-1":
            done[row.key] = time.perf_counter()

    engine.on_delivered = delivered
    now = datetime.now(UTC)
    if flood:
        await repo.enqueue(
            [OutboxEntry("bench", "-1", f"flood#{i}", "notice", {"n": i}) for i in range(flood)],
            now,
        )
        engine.wake("-1")
    rng = random.Random(args.seed)
    written: dict[str, float] = {}
    for tick in range(args.ticks):
        for c in range(args.chats):
            chat = f"-{100 + c}" if c % 2 else str(100 + c)  # groups and private chats
            key = f"v{tick}.{c}"
            await repo.enqueue(
                [OutboxEntry("bench", chat, key, "table", {"t": tick})], datetime.now(UTC)
            )
            written[key] = time.perf_counter()
            engine.wake(chat)
        await asyncio.sleep(args.interval + rng.uniform(-0.05, 0.05))
    for _ in range(200):
        if len(done) >= len(written):
            break
        await asyncio.sleep(0.05)
    latencies = sorted(done[k] - written[k] for k in written if k in done)
    await engine.stop(timeout=0)
    q = statistics.quantiles(latencies, n=100)
    return {
        "delivered": len(latencies),
        "written": len(written),
        "p50": q[49] * 1000,
        "p99": q[98] * 1000,
    }


async def main_async(args: argparse.Namespace) -> int:
    from bot.rules.cards import parse_card
    from bot.rules.options import make_rules
    from bot.solver import auto_arrange

    # Warm the solver's tables once, outside both measurements.
    hand = ["As", "Kd", "Qh", "Jc", "Ts", "9d", "8h", "7c", "6s", "5d", "4h", "3c", "2s"]
    auto_arrange([parse_card(c) for c in hand], make_rules("classic", 4))
    if not args.skip_outbox:
        rows = await outbox_part(args)
        base = rows[0]
        print(f"# {args.rooms} rooms x 4 players, 1 round, think {args.think}s, step {args.step}s")
        print("| store | actions | actions/s | p50 ms | p99 ms | max ms | p99 / baseline |")
        print("|---|---|---|---|---|---|---|")
        for r in rows:
            print(
                f"| {r['label']} | {r['actions']} | {r['aps']:.0f} | {r['p50']:.2f} | "
                f"{r['p99']:.2f} | {r['max']:.1f} | {r['p99'] / base['p99']:.2f} |"
            )
        if "delivered" in rows[-1]:
            print(f"# views delivered with the outbox: {rows[-1]['delivered']}")
    quiet = await flood_part(args, 0)
    flooded = await flood_part(args, args.flood)
    print(
        f"# {args.chats} other chats (half groups, half private), a new post each every "
        f"{args.interval} s (within their limits) for {args.ticks} rounds; "
        f"send {args.send_ms} ms; flood: {args.flood} views queued in one group"
    )
    print("| case | views | p50 ms | p99 ms | p99 - unflooded p99 |")
    print("|---|---|---|---|---|")
    for label, r in (("unflooded (baseline)", quiet), ("one group flooded", flooded)):
        print(
            f"| {label} | {r['delivered']}/{r['written']} | {r['p50']:.1f} | {r['p99']:.1f} | "
            f"{r['p99'] - quiet['p99']:+.1f} ms |"
        )
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--rooms", type=int, default=1000)
    p.add_argument("--rounds", type=int, default=1)
    p.add_argument("--think", type=float, default=1.0)
    p.add_argument("--step", type=float, default=0.5)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--chats", type=int, default=30)
    p.add_argument("--ticks", type=int, default=5)
    p.add_argument(
        "--interval", type=float, default=3.5, help="seconds between views to each other chat"
    )
    p.add_argument("--flood", type=int, default=300)
    p.add_argument("--send-ms", type=float, default=20.0)
    p.add_argument("--skip-outbox", action="store_true")
    return asyncio.run(main_async(p.parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
