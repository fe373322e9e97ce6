"""A card tap's answer while another player in the same room asks for
suggestions (issue 28 item 13: "no tap waits on another player's solver").

Through the real python-telegram-bot client, the real TableManager and the
Telegram adapter on the fake Bot API (the taps bench's scaffolding,
tests/telegram), on the in-memory repository. Each trial: Ann presses 推荐
on her hand; while her suggestion is being worked out, Bo taps a card on
his (a card every ``--gap`` seconds: 0.25, four taps a second, a quick player) until her
answer is in. A tap is timed from its update coming in until the press was
answered (``process_update`` returned: the answerCallbackQuery sent, the
hand's edit written to the outbox). The same taps with nobody asking are the
control.

The first suggestion of a deck setting in a process builds the solver's
opponent model (about a second of CPU: what players saw as the first 推荐
after a start taking 1.4-2.1 s); each trial forgets it, so every suggestion
is such a first one (``--warm``: keep it, suggestions take milliseconds).

Before/after in one session: ``--baseline TREE`` runs this script under
another checkout (e.g. ``git worktree add --detach MAIN_TREE main``) and
under this one in turn, in child processes, ``--runs`` times each, and
prints both.

    .venv/bin/python bench/solver_lock_bench.py --baseline MAIN_TREE --runs 3
    .venv/bin/python bench/solver_lock_bench.py --tree . --json   (one child run)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def _tree_from_argv() -> Path:
    """The checkout whose code is measured (``--tree``; this one by default),
    put first on the path before anything of the bot is imported."""
    for i, arg in enumerate(sys.argv):
        if arg == "--tree" and i + 1 < len(sys.argv):
            return Path(sys.argv[i + 1]).resolve()
    return HERE


sys.path.insert(0, str(_tree_from_argv()))

from telegram import Update  # noqa: E402

from bot.solver import model as solver_model  # noqa: E402
from bot.table.actions import Verb  # noqa: E402
from tests.telegram.fakebotapi import FakeBotAPI, StoredMessage  # noqa: E402
from tests.telegram.harness import Harness, TgUser, buttons_of  # noqa: E402
from tests.telegram.play import deal, table  # noqa: E402

ANN, BO = TgUser(31, "Ann"), TgUser(32, "Bo")


async def _press(h: Harness, user: TgUser, message: StoredMessage, data: str) -> float:
    """One press, handled; the seconds until it was answered."""
    update = Update.de_json(h.press_update(user, message, data), h.app.bot)
    started = time.perf_counter()
    await h.app.process_update(update)
    return time.perf_counter() - started


async def measure(trials: int, gap: float, warm: bool) -> dict[str, list[float]]:
    api = FakeBotAPI()
    await api.start()
    api.opened |= {ANN.id, BO.id}
    out: dict[str, list[float]] = {"during": [], "quiet": [], "suggest": []}
    try:
        async with table(api) as (h, _, _):
            await deal(h, ANN, BO)
            pick = buttons_of(h.hand_message(BO), Verb.PICK)[0]["callback_data"]
            # Once shown, her suggestions take the button's place: later
            # trials press the same button's data again (worked out anew).
            suggest = buttons_of(h.hand_message(ANN), Verb.SUGGEST)[0]["callback_data"]
            for _ in range(trials):
                # Nobody asking: the control.
                for _ in range(5):
                    out["quiet"].append(await _press(h, BO, h.hand_message(BO), pick))
                    await asyncio.sleep(gap)
                await h.outbox.drain()
                if not warm:
                    solver_model._MODELS.clear()  # the next suggestion is a process's first
                asking = asyncio.create_task(_press(h, ANN, h.hand_message(ANN), suggest))
                await asyncio.sleep(gap)  # her press reaches the table first
                while not asking.done():
                    out["during"].append(await _press(h, BO, h.hand_message(BO), pick))
                    await asyncio.sleep(gap)
                out["suggest"].append(await asking)
                await h.outbox.drain()
    finally:
        await api.stop()
    return out


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def summary(values: list[float]) -> str:
    if not values:
        return "| 0 | – | – | – |"
    ms = [1000 * v for v in values]
    return f"| {len(ms)} | {statistics.median(ms):.1f} | {_pct(ms, 0.99):.1f} | {max(ms):.1f} |"


def _child(tree: Path, args: argparse.Namespace) -> dict[str, list[float]]:
    cmd = [sys.executable, __file__, "--tree", str(tree), "--json"]
    cmd += ["--trials", str(args.trials), "--gap", str(args.gap)]
    cmd += ["--warm"] if args.warm else []
    done = subprocess.run(cmd, check=True, capture_output=True, text=True, cwd=tree)
    result: dict[str, list[float]] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def compare(args: argparse.Namespace) -> None:
    trees = {"before (baseline)": Path(args.baseline).resolve(), "after (this tree)": HERE}
    results: dict[str, dict[str, list[float]]] = {k: {} for k in trees}
    for _ in range(args.runs):  # alternated, so both see the same load
        for name, tree in trees.items():
            for kind, values in _child(tree, args).items():
                results[name].setdefault(kind, []).extend(values)
    solve = "cold (each suggestion builds the opponent model)" if not args.warm else "warm"
    print(
        f"# A card tap while the neighbour's suggestion is worked out "
        f"({args.runs} runs x {args.trials} trials each, alternated; solver {solve})"
    )
    print("| tree | what | n | median ms | p99 ms | max ms |")
    print("|---|---|---|---|---|---|")
    labels = {
        "during": "Bo's tap, Ann's 推荐 being worked out",
        "quiet": "Bo's tap, nobody asking",
        "suggest": "Ann's 推荐 itself",
    }
    for name, kinds in results.items():
        for kind, label in labels.items():
            print(f"| {name} | {label} " + summary(kinds.get(kind, [])))
    before = _pct([1000 * v for v in results["before (baseline)"]["during"]], 0.99)
    after = _pct([1000 * v for v in results["after (this tree)"]["during"]], 0.99)
    print(f"\np99 of a tap during a neighbour's suggestion: {before:.1f} ms -> {after:.1f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", default=str(HERE), help="the checkout measured")
    parser.add_argument("--baseline", help="another checkout: measure both, alternated")
    parser.add_argument("--runs", type=int, default=3, help="child runs per tree")
    parser.add_argument("--trials", type=int, default=10, help="suggestions per run")
    parser.add_argument("--gap", type=float, default=0.25, help="seconds between Bo's taps")
    parser.add_argument("--warm", action="store_true", help="keep the opponent model")
    parser.add_argument("--json", action="store_true", help="print the raw times as JSON")
    args = parser.parse_args()
    if args.baseline:
        compare(args)
    else:
        result = asyncio.run(measure(args.trials, args.gap, args.warm))
        if args.json:
            print(json.dumps(result))
        else:
            for kind, values in result.items():
                print(kind, summary(values))
