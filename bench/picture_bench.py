"""Card pictures: render time and PNG size, and the screenshots of docs/.

    python bench/picture_bench.py                       # timings (200 renders each)
    python bench/picture_bench.py --n 500
    python bench/picture_bench.py --screenshots docs/pictures

Each render is the whole public call (draw + PNG encode, as ``render_hand``
etc. run in a worker thread). The baseline, measured in the same run, is
Pillow's own PNG encode of a blank canvas of the same size at the same
compression level: the ratio says how much the drawing adds on top of the
encode no picture can avoid, whatever the machine's load.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import io
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.core.showdown import Settlement  # noqa: E402
from bot.pictures import (  # noqa: E402
    HandPicture,
    Marks,
    render_async,
    render_dealt,
    render_hand,
    render_settlement,
    render_showdown,
)
from bot.pictures.outcome import PictureRound, PictureSeat, settlement, showdown  # noqa: E402
from bot.rules import PlayerHand, evaluate_lane, make_rules, settle  # noqa: E402
from bot.rules.cards import parse_cards  # noqa: E402
from bot.rules.foul import check_foul  # noqa: E402
from bot.rules.types import Arrangement, Lane  # noqa: E402
from bot.solver import auto_arrange  # noqa: E402

LANGUAGES = ("zh-Hans", "zh-Hant", "en")
NAMES = ("小明🐟", "Alice", "陳大文", "王小二", "🀄雀神")
LANE_NAMES = ("head", "middle", "tail")


def sample_round(language: str, players: int = 5, revealed: int = 3) -> PictureRound:
    """A dealt, solver-arranged and settled round (the 65-card deck for 5)."""
    options = {"added_suit": "h"} if players == 5 else {}
    rules = make_rules("classic", players, options)
    deck = list(rules.deck.cards())
    random.Random(11).shuffle(deck)
    hands = [
        PlayerHand(NAMES[i], auto_arrange(deck[13 * i : 13 * i + 13], rules))
        for i in range(players)
    ]
    result = settle(hands, rules).to_json()
    seats = tuple(
        PictureSeat(h.id, h.id, (h.arrangement.head, h.arrangement.middle, h.arrangement.tail))
        for h in hands
    )
    room = {h.id: result["totals"][h.id] + 3 * (i - 2) for i, h in enumerate(hands)}
    return PictureRound(
        language,
        7,
        seats,
        Settlement.from_json(result),
        Marks(added_suit=rules.added_suit),
        room,
        frozenset(LANE_NAMES[:revealed]),
    )


def sample_hand(language: str) -> HandPicture:
    """A hand half arranged: head and middle placed, the tail still open."""
    rules = make_rules("classic", 4, {"wild_rank": "6"})
    head, middle = parse_cards("Qs Qh 4c"), parse_cards("9h 9d 9s 3h 3d")
    return HandPicture(
        language=language,
        round_no=7,
        lanes=(head, middle, ()),
        unplaced=parse_cards("As Ks Js Ts 6c"),
        categories=(
            evaluate_lane(head, rules).category,
            evaluate_lane(middle, rules).category,
            None,
        ),
        marks=Marks(wild_rank=6),
    )


def unstamped(r: PictureRound) -> object:
    """The round's showdown with no moments stamped under it."""
    return dataclasses.replace(showdown(r), moments=())


def sample_fouled_hand(language: str) -> HandPicture:
    """A complete split that fouls (倒水): a head of aces over a middle of
    kings (the tail, a straight, is in order)."""
    rules = make_rules("classic", 4, {})
    lanes = parse_cards("As Ah 4c"), parse_cards("Ks Kd Qs Jh 3d"), parse_cards("9c 8d 7s 6h 5c")
    report = check_foul(Arrangement.of(*lanes), rules)
    assert report is not None
    named = {lane for pair in report.pairs for lane in pair}
    return HandPicture(
        language=language,
        round_no=7,
        lanes=lanes,
        unplaced=(),
        categories=(
            evaluate_lane(lanes[0], rules).category,
            evaluate_lane(lanes[1], rules).category,
            evaluate_lane(lanes[2], rules).category,
        ),
        fouled=(Lane.HEAD in named, Lane.MIDDLE in named, Lane.TAIL in named),
    )


def timed(
    render: Callable[[object], bytes], picture: object, n: int
) -> tuple[list[float], list[float], int]:
    """Wall-clock and CPU (this thread's) milliseconds per render, PNG size.
    On a shared machine the CPU time leaves out the waits for a free core."""
    render(picture)  # warm the sprite and font caches, as a running bot has them
    wall, cpu = [], []
    size = 0
    for _ in range(n):
        t0, c0 = time.perf_counter(), time.thread_time()
        png = render(picture)
        wall.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.thread_time() - c0) * 1000)
        size = len(png)
    return wall, cpu, size


def baseline(width: int, height: int, n: int) -> list[float]:
    blank = Image.new("RGB", (width, height), (24, 106, 66))
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        blank.save(io.BytesIO(), "PNG", compress_level=3)
        times.append((time.perf_counter() - t0) * 1000)
    return times


async def _loop_stall(
    render: Callable[[object], bytes], picture: object, n: int, threaded: bool
) -> float:
    """The longest the event loop went without running a 1 ms ticker while
    ``n`` pictures were rendered inline or in worker threads (ms)."""
    gaps: list[float] = []
    done = asyncio.Event()

    async def ticker() -> None:
        last = time.perf_counter()
        while not done.is_set():
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            gaps.append((now - last) * 1000)
            last = now

    task = asyncio.create_task(ticker())
    await asyncio.sleep(0.01)
    for _ in range(n):
        if threaded:
            await render_async(render, picture)
        else:
            render(picture)
            await asyncio.sleep(0)
    done.set()
    await task
    return max(gaps)


def p99(xs: list[float]) -> float:
    return sorted(xs)[min(len(xs) - 1, round(0.99 * (len(xs) - 1)))]


def bench(n: int) -> None:
    print(
        f"({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average {os.getloadavg()[0]:.2f} before)"
    )
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, python {platform.python_version()}"
    )
    cases: list[tuple[str, Callable[[object], bytes], object, str]] = [
        ("hand (13 cards)", render_hand, sample_hand("zh-Hans"), "≤ 30 ms"),  # type: ignore[list-item]
        ("showdown, 5 players", render_showdown, showdown(sample_round("zh-Hans")), "≤ 80 ms"),  # type: ignore[list-item]
        # the same round without its two scoop stamps: what the stamps cost
        ("  without stamps", render_showdown, unstamped(sample_round("zh-Hans")), "—"),  # type: ignore[list-item]
        ("settlement, 5 players", render_settlement, settlement(sample_round("zh-Hans")), "—"),  # type: ignore[list-item]
    ]
    print(
        f"{'picture':22} {'size px':>9} {'PNG KB':>6} {'p50 ms':>6} {'p99 ms':>6} {'target':>7} "
        f"{'blank p99':>9} {'ratio':>5} {'CPU p50':>7} {'CPU p99':>7}"
    )
    for label, render, picture, target in cases:
        wall, cpu, size = timed(render, picture, n)
        w, h = Image.open(io.BytesIO(render(picture))).size
        base = baseline(w, h, n)
        print(
            f"{label:22} {f'{w}x{h}':>9} {size / 1000:6.1f} {statistics.median(wall):6.1f} "
            f"{p99(wall):6.1f} {target:>7} {p99(base):9.1f} {p99(wall) / p99(base):5.1f} "
            f"{statistics.median(cpu):7.1f} {p99(cpu):7.1f}"
        )
    picture = showdown(sample_round("zh-Hans"))
    inline = asyncio.run(_loop_stall(render_showdown, picture, 30, threaded=False))  # type: ignore[arg-type]
    threaded = asyncio.run(_loop_stall(render_showdown, picture, 30, threaded=True))  # type: ignore[arg-type]
    print(
        f"event loop's longest stall over 30 showdown renders: inline {inline:.1f} ms, "
        f"render_async (worker thread) {threaded:.1f} ms"
    )
    print(f"(load average {os.getloadavg()[0]:.2f} after)")


def screenshots(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for lang in LANGUAGES:
        shots: dict[str, bytes] = {
            "hand": render_hand(sample_hand(lang)),
            "hand-foul": render_hand(sample_fouled_hand(lang)),
            "showdown": render_showdown(showdown(sample_round(lang))),
            "settlement": render_settlement(settlement(sample_round(lang))),
        }
        if lang == "zh-Hans":  # mid-showdown: the tails still face down
            shots["showdown-step2"] = render_showdown(showdown(sample_round(lang, revealed=2)))
            # the round's table at the deal: the same message, nothing turned up yet
            shots["table"] = render_dealt(showdown(sample_round(lang, revealed=0)))
        for name, png in shots.items():
            path = folder / f"{name}.{lang}.png"
            path.write_bytes(png)
            print(f"{path} {len(png) / 1000:.1f} KB")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200, help="renders per picture")
    parser.add_argument("--screenshots", type=Path, help="write the docs' screenshots here instead")
    args = parser.parse_args(argv)
    if args.screenshots:
        screenshots(args.screenshots)
    else:
        bench(args.n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
