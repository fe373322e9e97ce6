"""Latency of the solver per hand: suggest(top=3), median and p99.

Hands are drawn with a fixed seed; hands of the joker settings hold exactly
that many jokers. Wall time (perf_counter) and CPU time of this process
(process_time) are both reported, since the 2-core machine is shared. The
scoring model of each setting is built before timing (it is built once per
process). The baseline is pure-Python enumeration of every split with the
lane values of bot.rules.evaluate_lane, measured on a few hands in the same run.

    .venv/bin/python bench/solver_latency.py --hands 1000
    .venv/bin/python bench/solver_latency.py --hands 1000 --opponents strong,strong,strong

With ``--rerank-baseline`` each hand is also timed with the suggestion's
second stage off (no deep seat pool: the first stage's ranking, as before
the re-rank), right after the timed call, so the ratio is taken under the
same load; ``--settings`` keeps only the named settings.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from itertools import combinations
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.rules import evaluate_lane, make_rules  # noqa: E402
from bot.solver import api, prepare, suggest  # noqa: E402

SETTINGS = {
    "no jokers": (("classic", 4, {}), 0),
    "1 joker": (("classic", 4, {"jokers": 1}), 1),
    "2 jokers": (("classic", 4, {"jokers": 2}), 2),
    "wild rank 6": (("classic", 4, {"wild_rank": "6"}), None),
    "65-card deck": (("classic", 5, {"added_suit": "s"}), None),
    "16 cards (多三张)": (("classic", 3, {"extra_three": True}), None),
}


def hands_for(rules, jokers: int | None, n: int, rng: random.Random):
    deck = list(rules.deck.cards())
    size = rules.cards_per_player
    out = []
    for _ in range(n):
        if jokers is None:
            out.append(rng.sample(deck, size))
            continue
        plain = [c for c in deck if not c.is_joker]
        out.append([c for c in deck if c.is_joker][:jokers] + rng.sample(plain, size - jokers))
    return out


def pure_python_best(cards, rules) -> float:
    """Every split scored by a lane-strength sum, legality by LaneValue order."""
    five = {s: evaluate_lane([cards[i] for i in s], rules) for s in combinations(range(13), 5)}
    three = {s: evaluate_lane([cards[i] for i in s], rules) for s in combinations(range(13), 3)}
    best = -1.0
    full = set(range(13))
    for t, tv in five.items():
        left = sorted(full - set(t))
        for m in combinations(left, 5):
            mv = five[m]
            if mv > tv:
                continue
            h = tuple(sorted(set(left) - set(m)))
            hv = three[h]
            if hv > mv:
                continue
            best = max(best, tv.category * 100 + mv.category * 10 + hv.category)
    return best


def timed(fn, items):
    wall, cpu = [], []
    for x in items:
        w, c = time.perf_counter(), time.process_time()
        fn(x)
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    return np.array(wall) * 1e3, np.array(cpu) * 1e3


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--hands16", type=int, default=200)
    ap.add_argument("--baseline-hands", type=int, default=10)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument(
        "--opponents",
        help="the other seats' AI levels, comma-separated, '-' for a person "
        "(e.g. strong,strong,strong); default: a table of people",
    )
    ap.add_argument(
        "--rerank-baseline",
        action="store_true",
        help="also time each hand without the second stage (re-rank against the deep seat pool)",
    )
    ap.add_argument("--settings", help="comma-separated setting names (default: all)")
    args = ap.parse_args(argv)
    opponents = (
        [None if level == "-" else level for level in args.opponents.split(",")]
        if args.opponents
        else None
    )
    rng = random.Random(args.seed)
    print("setting              hands  wall median / p99 ms   cpu median / p99 ms")
    medians = {}
    chosen = args.settings.split(",") if args.settings else list(SETTINGS)
    deep_pool = api.deep_seat_pool
    for name, ((preset, players, options), jokers) in SETTINGS.items():
        if name not in chosen:
            continue
        rules = make_rules(preset, players, options)
        prepare(rules)
        n = args.hands16 if rules.extra_three else args.hands
        hands = hands_for(rules, jokers, n, rng)
        wall, cpu, base_wall, base_cpu = [], [], [], []
        for h in hands:
            w, c = timed(lambda x, r=rules: suggest(x, r, top=3, opponents=opponents), [h])
            wall.append(w[0])
            cpu.append(c[0])
            if args.rerank_baseline:
                api.deep_seat_pool = lambda r: None  # type: ignore[assignment]
                try:
                    w, c = timed(lambda x, r=rules: suggest(x, r, top=3, opponents=opponents), [h])
                finally:
                    api.deep_seat_pool = deep_pool
                base_wall.append(w[0])
                base_cpu.append(c[0])
        medians[name] = np.median(wall)
        print(
            f"{name:<20} {n:>5}  {np.median(wall):7.2f} / {np.percentile(wall, 99):7.2f}"
            f"      {np.median(cpu):7.2f} / {np.percentile(cpu, 99):7.2f}"
        )
        if base_cpu:
            print(
                f"  without re-rank          {np.median(base_wall):7.2f} / "
                f"{np.percentile(base_wall, 99):7.2f}      {np.median(base_cpu):7.2f} / "
                f"{np.percentile(base_cpu, 99):7.2f}   (cpu median ratio "
                f"{np.median(cpu) / np.median(base_cpu):.2f}x)"
            )
    if "no jokers" not in medians:
        return 0
    rules = make_rules("classic", 4)
    hands = hands_for(rules, 0, args.baseline_hands, rng)
    wall, _ = timed(lambda h: pure_python_best(h, rules), hands)
    print(
        f"baseline: pure-Python enumeration, no jokers, {args.baseline_hands} hands: "
        f"median {np.median(wall):.1f} ms = {np.median(wall) / medians['no jokers']:.0f}x "
        "the solver's median"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
