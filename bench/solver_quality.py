"""The AI ladder head to head: simulated 4-player classic games, duplicate format.

Every deal is played once with all four seats on the baseline and once per
seat with that seat on the tested strategy (the other three on the
baseline); the tested seat's result minus the baseline's result in the same
seat on the same cards is one sample of "points per hand" (also shown per
opponent, divided by the 3 opponents). Samples of one deal are averaged
(they share cards), and the 95% interval is mean ± 1.96 · sd / sqrt(deals).
Pairs are ``--pairs tested:baseline,...``; a strong seat is told the other
seats' level (the baseline's), as the table tells its AI seats.

    .venv/bin/python bench/solver_quality.py --deals 1000 --pairs strong:normal,normal:easy
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from solver_baselines import lane_percentile_sum, strongest_tail_first  # noqa: E402

from bot.rules import PlayerHand, make_rules, settle  # noqa: E402
from bot.solver import ai_arrange  # noqa: E402

# The AI level each strategy plays as: a strong seat is told that the
# other seats play as the pair's baseline (as the table tells AI seats).
LEVEL = {"strong": "strong", "normal": "normal", "easy": "easy"}
LEVEL |= {"percentile": "normal", "tail-first": "easy"}


def strategies(rules, table: str | None = None):
    opponents = None if table is None else (table,) * 3
    return {
        "strong": lambda cards: ai_arrange(cards, rules, "strong", opponents=opponents),
        "normal": lambda cards: ai_arrange(cards, rules, "normal"),
        "easy": lambda cards: ai_arrange(cards, rules, "easy"),
        "tail-first": lambda cards: strongest_tail_first(cards, rules),
        "percentile": lambda cards: lane_percentile_sum(cards, rules),
    }


def seat_totals(plays, rules) -> list[int]:
    from bot.rules import detect_special

    hands = []
    for i, (cards, (arr, declare)) in enumerate(plays):
        special = detect_special(cards, rules) if declare else None
        hands.append(PlayerHand(str(i), arr, special))
    st = settle(hands, rules)
    return [st.totals[str(i)] for i in range(len(hands))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--pairs", default="strong:normal,normal:easy,strong:percentile")
    args = ap.parse_args(argv)
    rules = make_rules("classic", 4)
    strat = strategies(rules)
    pairs = [tuple(p.split(":")) for p in args.pairs.split(",")]
    tested = list(dict.fromkeys(t for t, _ in pairs))
    baselines = list(dict.fromkeys(b for _, b in pairs))
    load = os.getloadavg()[0]
    rng = random.Random(args.seed)
    deck = list(rules.deck.cards())
    diffs: dict[tuple[str, str], list[float]] = {(t, b): [] for t, b in pairs}
    t0 = time.time()
    strat["strong"](deck[:13])  # build the model outside the timing
    t_build = time.time() - t0
    t0 = time.time()
    for _ in range(args.deals):
        rng.shuffle(deck)
        hands = [tuple(deck[13 * i : 13 * i + 13]) for i in range(4)]
        for b in baselines:
            strat = strategies(rules, LEVEL[b])
            plays = {name: [strat[name](h) for h in hands] for name in {b, *tested}}
            control = seat_totals(list(zip(hands, plays[b], strict=True)), rules)
            for t in (t for t, bb in pairs if bb == b):
                per_seat = []
                for s in range(4):
                    mix = [plays[t][i] if i == s else plays[b][i] for i in range(4)]
                    res = seat_totals(list(zip(hands, mix, strict=True)), rules)
                    per_seat.append(res[s] - control[s])
                diffs[(t, b)].append(float(np.mean(per_seat)))
    elapsed = time.time() - t0
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    print(
        f"== {stamp}, nproc={os.cpu_count()}, load average {load:.2f} before / {os.getloadavg()[0]:.2f} after"
    )
    print(f"deals {args.deals}, seed {args.seed}, model build {t_build:.1f}s, games {elapsed:.1f}s")
    print("tested vs baseline   points/hand [95% interval]      per opponent")
    for (t, b), d in diffs.items():
        a = np.array(d)
        half = 1.96 * a.std(ddof=1) / np.sqrt(len(a))
        print(
            f"  {t:>8} vs {b:<10} {a.mean():+.3f}  [{a.mean() - half:+.3f}, {a.mean() + half:+.3f}]"
            f"   {a.mean() / 3:+.3f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
