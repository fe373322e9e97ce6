"""Database round trips per tap, counted on scripted Telegram games.

Runs rounds through the real python-telegram-bot client, the real
TableManager, the Telegram adapter and its outbox (the fake Bot API server
of tests/telegram), on the in-memory repository with every awaited
repository call counted: each one is a round trip to the database on SQL.
A tap is counted from the update coming in until the outbox has delivered
what it caused (the press's answer, the hand's edit).

Rows: a card tap (PICK) on the private hand message, and a tap on the
owner's private settings panel (SET_OPTION), which also redraws the panel.
``--detail`` lists the calls of one tap by method, the press (adapter and
manager) and the delivery apart.

    .venv/bin/python -m bot bench taps [--rounds 3]   (= python bench/taps_bench.py)
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import inspect
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from telegram import Update  # noqa: E402

from bot.table.actions import Verb  # noqa: E402
from storage.memory import MemoryRepository  # noqa: E402
from tests.telegram.fakebotapi import FakeBotAPI  # noqa: E402
from tests.telegram.harness import Harness, TgUser, buttons_of  # noqa: E402
from tests.telegram.play import (  # noqa: E402
    arrange_by_picking,
    deal_again,
    open_room,
    reveal,
    start_round,
    table,
)
from tests.telegram.play import players as seated  # noqa: E402


class Counted:
    """Counts the repository's awaited calls, by method, into ``phase``; a
    call of a delivery lane (a task of its own, woken as soon as the press's
    save commits) is delivery's whenever it is made."""

    def __init__(self, repo: Any) -> None:
        self.calls: collections.Counter[str] = collections.Counter()
        self.phase = "other"
        self.press: asyncio.Task[Any] | None = None  # the press's own task
        for name in dir(repo):
            method = getattr(repo, name, None)
            if name.startswith("_") or not inspect.iscoroutinefunction(method):
                continue
            setattr(repo, name, self._wrap(name, method))

    def _wrap(self, name: str, method: Any) -> Any:
        async def counted(*args: Any, **kwargs: Any) -> Any:
            phase = self.phase
            if phase == "press" and asyncio.current_task() is not self.press:
                phase = "delivery"
            self.calls[f"{phase} {name}"] += 1
            return await method(*args, **kwargs)

        return counted

    def total(self) -> int:
        return sum(self.calls.values())


async def _tap(h: Harness, counted: Counted, user: TgUser, message: Any, data: str) -> Any:
    """One press, then its delivery; the calls of each counted apart."""
    update = h.press_update(user, message, data)
    counted.phase = "press"
    counted.press = asyncio.ensure_future(h.app.process_update(Update.de_json(update, h.app.bot)))
    await counted.press
    counted.phase = "delivery"
    await h.outbox.drain()
    counted.phase = "other"


async def measure(players: int, rounds: int, seed: int) -> dict[str, Any]:
    api = FakeBotAPI()
    await api.start()
    users = seated(players)
    api.opened |= {u.id for u in users}
    repo = MemoryRepository()
    counted = Counted(repo)
    taps: collections.Counter[str] = collections.Counter()
    by_method: dict[str, collections.Counter[str]] = {
        "pick": collections.Counter(),
        "panel": collections.Counter(),
    }
    cpu = {"pick": 0.0, "panel": 0.0}

    async def tap(kind: str, user: TgUser, message: Any, data: str) -> None:
        before = counted.calls.copy()
        started = time.process_time()
        await _tap(h, counted, user, message, data)
        cpu[kind] += time.process_time() - started
        by_method[kind].update(counted.calls - before)
        taps[kind] += 1

    async def picking(user: TgUser, hand: Any, datas: list[str]) -> None:
        for data in datas:
            await tap("pick", user, hand, data)

    rng = random.Random(seed * 1000 + players)
    async with table(api, repo, rng=rng) as (h, _manager, clock):
        await open_room(h, users[0], *users[1:])
        for n in range(rounds):
            # The owner's settings panel, in private: a tap on an option.
            await h.command(users[0], "/settings")
            panel = h.message_with(users[0].id, Verb.SET_OPTION)
            option = buttons_of(panel, Verb.SET_OPTION)[0]["callback_data"]
            await tap("panel", users[0], panel, option)
            if n == 0:
                await start_round(h, users[0])
            else:
                await deal_again(h, users[0])
            for user in users:
                await arrange_by_picking(h, user, picking)
            await reveal(h, clock)
    await api.stop()
    return {
        kind: {
            "taps": taps[kind],
            "calls": sum(by_method[kind].values()) / taps[kind],
            "press": sum(v for k, v in by_method[kind].items() if k.startswith("press"))
            / taps[kind],
            "delivery": sum(v for k, v in by_method[kind].items() if k.startswith("delivery"))
            / taps[kind],
            "cpu_ms": 1000 * cpu[kind] / taps[kind],
            "methods": {k: v / taps[kind] for k, v in sorted(by_method[kind].items())},
        }
        for kind in ("pick", "panel")
    }


async def main(players: int, rounds: int, seed: int, detail: bool) -> None:
    result = await measure(players, rounds, seed)
    print(f"# Database round trips per tap ({players} players, {rounds} rounds, seed {seed})")
    print("| tap | taps | round trips | in the press | in delivery | CPU ms |")
    print("|---|---|---|---|---|---|")
    for kind, row in result.items():
        print(
            f"| {kind} | {row['taps']} | {row['calls']:.2f} | {row['press']:.2f} | "
            f"{row['delivery']:.2f} | {row['cpu_ms']:.1f} |"
        )
    if detail:
        for kind, row in result.items():
            parts = ", ".join(f"{k} {v:.2f}" for k, v in row["methods"].items())
            print(f"- {kind}: {parts}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--detail", action="store_true", help="calls of a tap by method")
    args = parser.parse_args()
    asyncio.run(main(args.players, args.rounds, args.seed, args.detail))
