"""Latency of the review (复盘) per player: ``bot.table.review.review_seat``
on dealt and settled rounds, median and p99, against ``suggest(top=1)`` of
the same hands measured in the same run (the review's main part).

Each round is dealt with a fixed seed; half the seats arrange as the solver
would (auto_arrange), half play the strongest tail first, so reviews see
both perfect and weaker arrangements. The model of each setting is built
before timing. Wall time (perf_counter) and this process's CPU time
(process_time) are both reported: the 2-core machine is shared.

    .venv/bin/python bench/review_bench.py --rounds 150
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.core.round import Round  # noqa: E402
from bot.core.showdown import Showdown  # noqa: E402
from bot.rules import make_rules  # noqa: E402
from bot.rules.options import DealStyle  # noqa: E402
from bot.solver import auto_arrange, prepare, strongest_tail_first, suggest  # noqa: E402
from bot.table.hand import new_hand, set_arrangement  # noqa: E402
from bot.table.review import review_seat  # noqa: E402
from bot.table.solving import settle_round  # noqa: E402

SETTINGS = {
    "4 players, no jokers": ("classic", 4, {}),
    "4 players, 2 jokers": ("classic", 4, {"jokers": 2}),
    "3 players, 多三张 (16 cards)": ("classic", 3, {"extra_three": True}),
}


def deal_round(rules, rng: random.Random) -> Round:
    deck = list(rules.deck.cards())
    rng.shuffle(deck)
    size = rules.cards_per_player
    seats = [f"p{i}" for i in range(rules.players)]
    rnd = Round(
        no=1,
        seats=tuple(seats),
        dice=(1, 1),
        first_seat=0,
        deal_style=DealStyle.ONE,
        hash="",
        deck=(),
        salt="",
        wild_rank=None,
        rules={},
        banker=None,
        hands={},
        deadline=0.0,
        remind_at=None,
    )
    for i, key in enumerate(seats):
        cards = deck[i * size : (i + 1) * size]
        hand = new_hand([c.token for c in cards])
        arrange = auto_arrange if i % 2 == 0 else strongest_tail_first
        set_arrangement(hand, arrange(cards, rules), undoable=False)
        hand.done = True
        rnd.hands[key] = hand
    settlement, reveal, specials = settle_round(rnd, rules)
    rnd.result = Showdown(settlement, reveal, tuple(specials), ())
    return rnd


def stats(ms: list[float]) -> str:
    a = np.array(ms)
    return (
        f"median {np.median(a):6.1f} ms  p99 {np.percentile(a, 99):6.1f} ms  max {a.max():6.1f} ms"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=150)
    ap.add_argument("--seed", type=int, default=12)
    args = ap.parse_args()
    load0 = os.getloadavg()[0]
    print(f"({datetime.now(UTC):%Y-%m-%d %H:%M} UTC, load average {load0:.2f} before)")
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, python {platform.python_version()}"
    )
    for label, (preset, players, options) in SETTINGS.items():
        rules = make_rules(preset, players, options)
        prepare(rules)
        rng = random.Random(args.seed)
        rounds = [deal_round(rules, rng) for _ in range(args.rounds)]
        wall: list[float] = []
        cpu: list[float] = []
        base: list[float] = []
        given: dict[bool, list[float]] = {True: [], False: []}
        for rnd in rounds:
            for i, key in enumerate(rnd.seats):
                cards = rnd.hands[key].card_list()
                t0 = time.perf_counter()
                suggest(cards, rules, players=players, top=1)
                base.append(1000 * (time.perf_counter() - t0))
                t0, c0 = time.perf_counter(), time.process_time()
                rv = review_seat(rnd, key, rules, [None] * (players - 1))
                wall.append(1000 * (time.perf_counter() - t0))
                cpu.append(1000 * (time.process_time() - c0))
                given[i % 2 == 0].append(rv["given_up"])
        print(f"\n{label}: {len(wall)} reviews ({args.rounds} rounds)")
        print(f"  review, wall:        {stats(wall)}")
        print(f"  review, CPU:         {stats(cpu)}")
        print(f"  suggest(top=1) only: {stats(base)}")
        ratio = np.median(wall) / np.median(base)
        print(f"  review / suggest (medians): {ratio:.2f}x")
        print(
            f"  expected points given up: auto-arranged seats {np.mean(given[True]):+.3f} "
            f"(declaring a special is part of the best), "
            f"strongest-tail-first seats {np.mean(given[False]):+.3f}"
        )
    print(f"\nload average after {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
