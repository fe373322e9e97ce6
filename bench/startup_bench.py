"""How soon ``thirteen run`` answers: from the process's start to the first
answered update, with an empty solver cache (a first start on a fresh
machine) and then with the cache the first start left.

Each start is ``thirteen run`` as a separate process (tests/procs/botproc.py)
against the fake Bot API of tests/telegram, polling, on a new SQLite file,
with the solver's default sizes (``THIRTEEN_SOLVER_*`` unset) and its cache
in a folder of its own. A ``/newgame`` is queued before the process starts,
so the times below are when the bot got to it:

  polling   the first getUpdates call
  answered  the table of the ``/newgame`` posted in the group
  dealt     the owner added a strong AI seat and pressed Start as soon as the
            table showed: the owner's hand arrived (the first deal of a deck
            setting waits for its quick model)
  press     then the slowest of 8 taps on a card of that hand, from the tap
            to its answer (on the first start, while the full pools are built)
  built     (first start) the log line saying the full opponent pools are
            built, which the next start reads from the cache

The bot runs from a copy of this checkout's ``bot`` and ``storage`` taken
when the bench starts (the cache's file names digest the solver's source: an
edit made meanwhile would otherwise look like another solver); ``--source
DIR`` runs another source tree instead (e.g. an export of an older commit),
for a before/after comparison on the same machine.

    python bench/startup_bench.py [--starts 2] [--source DIR]
    (= thirteen bench startup)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.table.actions import Verb  # noqa: E402
from tests.procs.botproc import ANN, BotProcess, Players, bot_env, until  # noqa: E402
from tests.telegram.fakebotapi import FakeBotAPI  # noqa: E402
from tests.telegram.harness import GROUP_ID, buttons_of  # noqa: E402

BUILT = re.compile(r"solver: the full opponent pools for .* are built")
SOLVER_DEFAULTS = ("THIRTEEN_SOLVER_MODEL_HANDS", "THIRTEEN_SOLVER_POOL_HANDS")
GUARD = 900.0  # seconds: a hang guard for the full build, never a speed limit


PRESSES = 8


async def press_latency(api: FakeBotAPI, players: Players) -> float:
    """The slowest answer to ``PRESSES`` taps on a card of the owner's hand,
    0.3 s apart as a person taps (on a first start: while the full pools are
    built in the same process)."""
    slowest = 0.0
    for _ in range(PRESSES):
        hand = players.hands(ANN, 1)[-1]
        started = time.monotonic()
        query = players.press(ANN, hand, Verb.PICK)
        await until(lambda query=query: players.answer(query), "the press's answer", GUARD)
        slowest = max(slowest, time.monotonic() - started)
        await asyncio.sleep(0.3)
    return slowest


async def one_start(
    api: FakeBotAPI, env: dict[str, str], workdir: Path, n: int, wait_built: bool
) -> dict[str, float | None]:
    players = Players(api, group_id=GROUP_ID - n)  # a group of its own: no room open there
    api.opened.add(ANN.id)
    polls = len(api.calls_of("getUpdates"))
    hands = len(players.hands(ANN, 1))  # Ann's private chat has the hands of earlier starts
    players.command(ANN, "/newgame")  # waiting for the bot before it starts
    bot = BotProcess(env, workdir)
    started = time.monotonic()
    bot.start()
    times: dict[str, float | None] = {}
    try:
        await until(lambda: len(api.calls_of("getUpdates")) > polls, "polling", GUARD)
        times["polling"] = time.monotonic() - started
        await until(players.live_tables, "the table", GUARD)
        times["answered"] = time.monotonic() - started
        table = players.live_tables()[-1]
        players.press(ANN, table, Verb.ADD_AI)

        def startable() -> bool:
            tables = players.live_tables()
            return bool(tables and buttons_of(tables[-1], Verb.START) and "AI" in tables[-1].text)

        await until(startable, "the AI seat", GUARD)
        players.press(ANN, players.live_tables()[-1], Verb.START)
        await until(lambda: len(players.hands(ANN, 1)) > hands, "the deal", GUARD)
        times["dealt"] = time.monotonic() - started
        times["press"] = await press_latency(api, players)
        times["built"] = None
        if wait_built:
            await until(lambda: BUILT.search(bot.log_text()), "the full pools", GUARD)
            times["built"] = time.monotonic() - started
    finally:
        status = await bot.terminate()
    if status != 0:
        raise SystemExit(f"the bot exited with {status}: {bot.log_text()[-3000:]}")
    return times


def snapshot(into: Path) -> Path:
    root = Path(__file__).resolve().parents[1]
    for package in ("bot", "storage"):
        shutil.copytree(
            root / package, into / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    return into


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="thirteen-startup-") as tmp:
        workdir = Path(tmp)
        api = FakeBotAPI()
        await api.start()
        try:
            env = bot_env(api, f"sqlite:///{workdir / 'bot.db'}")
            for name in SOLVER_DEFAULTS + ("THIRTEEN_SOLVER_POOL_HANDS_16",):
                env.pop(name, None)  # the defaults, as a user's .env has them
            env["THIRTEEN_SOLVER_CACHE"] = str(workdir / "solver-cache")
            source = Path(args.source).resolve() if args.source else snapshot(workdir / "src")
            env["PYTHONPATH"] = str(source)
            print(
                f"machine: {platform.machine()}, {os.cpu_count()} cores, python {sys.version.split()[0]}"
            )
            print(f"load average before: {os.getloadavg()[0]:.2f}")
            print(
                f"{'start':<22}{'polling':>10}{'answered':>10}{'dealt':>10}{'press':>10}{'built':>10}"
            )
            for n in range(args.starts):
                label = "1 (empty cache)" if n == 0 else f"{n + 1} (cache of start 1)"
                # (an older tree built everything before polling, and logs no such line)
                times = await one_start(api, env, workdir, n, wait_built=n == 0 and not args.source)
                cells = "".join(
                    f"{'—' if v is None else f'{v:.2f} s':>10}"
                    for v in (times[k] for k in ("polling", "answered", "dealt", "press", "built"))
                )
                print(f"{label:<22}{cells}", flush=True)
                # The stopped process's last long poll may still be waiting in
                # the fake API (up to 1 s): it must not take the next /newgame.
                await asyncio.sleep(1.5)
            print(f"load average after: {os.getloadavg()[0]:.2f}")
        finally:
            await api.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--starts", type=int, default=3, help="starts in all (the first: empty cache)"
    )
    parser.add_argument("--source", help="run the bot of this source tree instead")
    asyncio.run(main(parser.parse_args()))
