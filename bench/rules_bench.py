"""Rules-engine throughput: 5-card lane evaluations per second (with and
without jokers) and judge rounds per second in batch mode.

    python bench/rules_bench.py [--n 200000] [--rounds 2000]

Baseline measured in the same run: a brute-force joker evaluator (try each
joker as each of the 52 cards and keep the best natural evaluation), which is
what a straightforward implementation of "a joker stands for any card" does.
"""

from __future__ import annotations

import argparse
import io
import json
import platform
import random
import time
from itertools import combinations, product

from bot.cli.jsonl import handle_lines
from bot.cli.judge import judge
from bot.rules import evaluate_lane, make_rules
from bot.rules.cards import DeckSpec
from bot.rules.types import LaneValue


def brute_force(cards, rules):
    natural = [c for c in cards if not c.is_joker]
    jokers = len(cards) - len(natural)
    best = None
    for subs in product(DeckSpec().cards(), repeat=jokers):
        v = evaluate_lane(natural + list(subs), rules)
        v = LaneValue(v.category, v.ranks, v.not_added_suit, -jokers)
        best = v if best is None or v > best else best
    return best


def vector_rate(rules, deck, hands: int, rng: random.Random) -> float:
    """The solver's vectorized path: all 1,287 five-card subsets of a 13-card hand at once."""
    import numpy as np

    from bot.solver.codes import card_arrays, subset_codes

    idx = np.array(list(combinations(range(13), 5)), dtype=np.intp)
    samples = [card_arrays(rng.sample(deck, 13), rules) for _ in range(hands)]
    subset_codes(samples[0], idx, rules)  # build the lookup tables first
    t = time.perf_counter()
    for arrays in samples:
        subset_codes(arrays, idx, rules)
    return hands * len(idx) / (time.perf_counter() - t)


def rate(fn, items) -> float:
    t = time.perf_counter()
    for it in items:
        fn(it)
    return len(items) / (time.perf_counter() - t)


def round_line(rng: random.Random) -> str:
    from bot.solver import auto_arrange  # a legal arrangement per player

    rules = make_rules("classic", 4)
    deck = list(DeckSpec().cards())
    rng.shuffle(deck)
    players = []
    for i in range(4):
        arr = auto_arrange(deck[i * 13 : (i + 1) * 13], rules)
        players.append({"id": f"P{i}", **arr.to_tokens()})
    return json.dumps({"preset": "classic", "players": players})


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=200_000)
    ap.add_argument("--rounds", type=int, default=2_000)
    args = ap.parse_args()
    rng = random.Random(1)
    plain, jokers = make_rules("classic", 4), make_rules("classic", 4, {"jokers": 2})
    deck52, deck54 = DeckSpec().cards(), DeckSpec(jokers=2).cards()
    hands = [rng.sample(deck52, 5) for _ in range(args.n)]
    joker_hands = [rng.sample(deck52, 4) + [rng.choice(deck54[52:])] for _ in range(args.n // 4)]
    r_plain = rate(lambda h: evaluate_lane(h, plain), hands)
    r_joker = rate(lambda h: evaluate_lane(h, jokers), joker_hands)
    r_brute = rate(lambda h: brute_force(h, plain), joker_hands[: max(200, args.n // 400)])
    v_plain = vector_rate(plain, list(deck52), 2000, rng)
    v_joker = vector_rate(jokers, list(deck54), 2000, rng)
    lines = [round_line(rng) for _ in range(args.rounds)]
    t = time.perf_counter()
    handle_lines(lines, judge, io.StringIO())
    r_judge = len(lines) / (time.perf_counter() - t)
    print(
        f"machine: {platform.processor() or platform.machine()}, python {platform.python_version()}"
    )
    print(f"5-card evaluations/s, no jokers:   {r_plain:,.0f}")
    print(f"5-card evaluations/s, one joker:   {r_joker:,.0f}")
    print(f"  brute-force joker baseline:      {r_brute:,.0f}  (ratio {r_joker / r_brute:.0f}x)")
    print(
        f"solver's vectorized 5-card evaluations/s, no jokers: {v_plain:,.0f} ({v_plain / r_plain:.0f}x)"
    )
    print(
        f"solver's vectorized 5-card evaluations/s, 54-card deck: {v_joker:,.0f} ({v_joker / r_joker:.0f}x)"
    )
    print(f"judge rounds/s (4 players, batch): {r_judge:,.0f}")


if __name__ == "__main__":
    main()
