"""Storage benchmark: many rooms saving their state concurrently.

    .venv/bin/python bench/bench_storage.py [--rooms 1000] [--postgres URL]

Each "action" is one ``save_room`` of a realistic 4-player room state
(what the table manager writes per accepted action); every 13th also writes
a round record and every 13th (offset) a settlement with its ledger rows.

Two measurements per backend, each beside MemoryRepository measured in the
same run (the baseline: the cost of the asyncio plumbing alone):
- saturated: every room fires its actions back to back; actions/s is the
  ceiling, and latency there is mostly queueing;
- paced: rooms act at a fixed total rate (a real table waits for people);
  p50/p99 latency of one save at that rate.
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
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from storage.api import Repository, RoundRecord, SettlementEntry, SettlementRecord  # noqa: E402
from storage.memory import MemoryRepository  # noqa: E402
from storage.sql import SqlRepository  # noqa: E402

CARDS = [r + s for s in "SHDC" for r in "23456789TJQKA"]


def room_state(room_id: str, step: int) -> dict:
    """About the size and shape of a manager snapshot of a 4-player round."""
    rng = random.Random(step)
    deck = CARDS[:]
    rng.shuffle(deck)
    seats = []
    for i in range(4):
        hand = deck[i * 13 : (i + 1) * 13]
        seats.append(
            {
                "player": f"telegram:{1000 + i}",
                "name": f"Player {i}",
                "hand": hand,
                "head": hand[:3],
                "middle": hand[3:8],
                "confirmed": step % 2 == 0,
                "total": rng.randint(-50, 50),
            }
        )
    return {
        "room_id": room_id,
        "phase": "arranging",
        "round": step // 13 + 1,
        "language": "zh-Hans",
        "options": {"preset": "classic", "jokers": 0, "banker": False, "arrange_seconds": 120},
        "seats": seats,
        "deck": deck,
        "salt": "ab" * 16,
        "deadline": 1_760_000_000.0 + step,
        "step": step,
    }


async def run_room(
    repo: Repository, room, actions: int, latencies: list[float], gap: float
) -> None:
    version = room.version
    for step in range(1, actions + 1):
        state = room_state(room.room_id, step)
        round_record = settlement = None
        round_no = step // 13 + 1
        if step % 13 == 1:
            round_record = RoundRecord(
                room.room_id, round_no, "telegram", room.chat_id, tuple(state["deck"]),
                "ab" * 16, "cd" * 32, tuple(s["player"] for s in state["seats"]), {}, datetime.now(UTC),
            )  # fmt: skip
        if step % 13 == 12:
            settlement = SettlementRecord(
                room.room_id, round_no, "telegram", room.chat_id, datetime.now(UTC),
                tuple(SettlementEntry(s["player"], s["name"], p, scoops=0)
                      for s, p in zip(state["seats"], (6, -2, -2, -2), strict=True)),
                {"round": round_no},
            )  # fmt: skip
        # Latency counts from when the action was due, not from when this
        # coroutine got to run: time lost to a busy event loop counts too
        # (an inline database call delays everyone else, not itself).
        start = time.perf_counter()
        if gap:
            pause = gap * random.uniform(0.5, 1.5)
            await asyncio.sleep(pause)
            start += pause
        version = await repo.save_room(
            room.room_id, state, version, round_record=round_record, settlement=settlement
        )
        latencies.append(time.perf_counter() - start)


async def measure(repo: Repository, rooms: int, actions: int, rate: float | None, tag: str) -> dict:
    created = [await repo.create_room("telegram", f"{tag}-{i}", {}) for i in range(rooms)]
    latencies: list[float] = []
    gap = rooms / rate if rate else 0.0
    start = time.perf_counter()
    await asyncio.gather(*(run_room(repo, r, actions, latencies, gap) for r in created))
    elapsed = time.perf_counter() - start
    latencies.sort()
    return {
        "actions": len(latencies),
        "per_s": len(latencies) / elapsed,
        "p50_ms": 1000 * statistics.median(latencies),
        "p99_ms": 1000 * latencies[int(0.99 * (len(latencies) - 1))],
        "max_ms": 1000 * latencies[-1],
    }


def show(name: str, mode: str, result: dict, base: dict) -> None:
    print(
        f"{name:10} {mode:18} {result['actions']:7d} actions {result['per_s']:8.0f}/s "
        f"p50 {result['p50_ms']:7.2f} ms  p99 {result['p99_ms']:7.2f} ms  max {result['max_ms']:7.2f} ms"
        f"   (throughput {result['per_s'] / base['per_s']:.2f}x memory)"
    )


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rooms", type=int, default=1000)
    parser.add_argument("--actions", type=int, default=13, help="actions per room (saturated)")
    parser.add_argument("--rates", default="250,500,1000", help="paced total actions/s")
    parser.add_argument("--paced-seconds", type=float, default=8.0)
    parser.add_argument("--postgres", default=os.environ.get("BENCH_POSTGRES_URL"))
    parser.add_argument(
        "--sqlite-threaded", action="store_true", help="also SQLite in a worker thread"
    )
    parser.add_argument("--no-gc", action="store_true", help="disable the cyclic GC (diagnosis)")
    args = parser.parse_args()
    if args.no_gc:
        gc.disable()
    rates = [float(r) for r in args.rates.split(",") if r]

    with tempfile.TemporaryDirectory() as tmp:
        backends: list[tuple[str, str | None, bool | None]] = [
            ("memory", None, None),
            ("sqlite", f"sqlite:///{tmp}/bench.db", None),  # default: inline
        ]
        if args.sqlite_threaded:
            backends.append(("sqlite-thr", f"sqlite:///{tmp}/bench-threaded.db", True))
        if args.postgres:
            backends.append(("postgres", args.postgres, None))
        base: dict[str, dict] = {}
        for name, url, threaded in backends:
            repo: Repository = (
                MemoryRepository() if url is None else SqlRepository(url, threaded=threaded)
            )
            await repo.init()
            tag = f"{name}-{time.time_ns()}"
            result = await measure(repo, args.rooms, args.actions, None, f"{tag}-sat")
            base.setdefault("saturated", result)
            show(name, "saturated", result, base["saturated"])
            for rate in rates:
                actions = max(int(rate * args.paced_seconds / args.rooms), 1)
                result = await measure(repo, args.rooms, actions, rate, f"{tag}-{rate:.0f}")
                base.setdefault(f"paced {rate:.0f}", result)
                show(name, f"paced {rate:.0f}/s", result, base[f"paced {rate:.0f}"])
            await repo.close()


if __name__ == "__main__":
    asyncio.run(main())
