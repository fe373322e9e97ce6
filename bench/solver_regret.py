"""Regret of each arranger against a best response (classic, 4 players, 52 cards).

For each of ``--hands`` random hands, the 39 cards left are dealt to the
three opponents ``--deals`` times for a selection pool and ``--deals`` more
times for an evaluation pool; the opponents arrange their hands with one
table policy (``--tables``: ``strong`` = our best-response solver,
``percentile`` = the lane-percentile sum) and declare specials as that
policy does. Every split on the hand's Pareto frontier (every legal split
that no other legal split beats or equals in all three lanes), and
declaring when the hand has a special, is settled against every deal
(lanes, scoops, home runs of the hand or of an opponent, specials: a
vectorized settlement, checked against ``bot.rules.settle`` on sampled
pairs). The best response is the candidate with the highest mean on the
selection pool; each arranger's pick (``--picks``) and the best response
are then scored on the evaluation pool:

    regret = eval(best response) - eval(pick), points per hand (3 opponents)

reported as mean and 95% interval (1.96 sd / sqrt(hands)), also per
opponent, with the share of hands where the pick is the best response (the
same lane codes, or the same special; in brackets: or a split that scores
exactly the same on both pools). Hands run in ``--workers`` processes.

The benchmark's own noise ceiling follows (``regret_noise.py``): how often
the two pools agree on the best split, how stable the selection pool's best
is under bootstrap resampling, how often a perfect solver would be scored
"best picked" (the merged pools taken as the truth, resampled to one pool's
size), each pick's rate against the evaluation pool's and the merged pools'
best, and how far its misses are from the best in paired standard errors.
``--dump`` keeps each hand's per-deal totals so other picks can be scored
on the same deals later: ``--rescore DIR`` scores the current picks there,
beside the dumped run's own (``regret_rescore.py``; only while the
opponents still play as they did in that run).

Picks: ``strong`` is the first suggestion told who sits at the table (AI
seats of the table's level: strong, or normal for the percentile table);
``strong-people`` the first suggestion at a table of people (no level
given: the pool's person mix); ``normal`` and ``easy`` the AI seats;
``percentile`` and ``tail-first`` the two simple baselines of
solver_baselines.py (independent code, the same rules as normal and easy).

    .venv/bin/python bench/solver_regret.py --hands 200 --deals 1000 --workers 2
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from regret_noise import noise, summarize_noise  # noqa: E402
from regret_rescore import hero_of, rescore  # noqa: E402
from solver_baselines import lane_percentile_sum, strongest_tail_first  # noqa: E402

from bot.rules import (  # noqa: E402
    Arrangement,
    Card,
    Lane,
    PlayerHand,
    Rules,
    detect_special,
    lane_points,
    make_rules,
    settle,
)
from bot.solver import ai_arrange, prepare, suggest  # noqa: E402
from bot.solver.codes import CAT_SHIFT, lane_code  # noqa: E402
from bot.solver.frontier import frontier  # noqa: E402
from bot.solver.search import arrangement, evaluate_hand, legal_rows  # noqa: E402

Play = tuple[Arrangement, bool]  # arrangement, declares its special
PICKS = ("strong", "strong-people", "normal", "easy", "percentile", "tail-first")
TABLES = ("strong", "percentile")
# The AI level each table plays as, for the table-aware first suggestion.
LEVEL = {"strong": "strong", "percentile": "normal"}
PTS = np.array([[0.0] + [float(lane_points(lane, c)) for c in range(1, 11)] for lane in Lane])


def policies(rules: Rules) -> dict[str, Callable[[Sequence[Card]], Play]]:
    return {
        "strong": lambda c: ai_arrange(c, rules, "strong", opponents=("strong",) * 3),
        "normal": lambda c: ai_arrange(c, rules, "normal"),
        "easy": lambda c: ai_arrange(c, rules, "easy"),
        "percentile": lambda c: lane_percentile_sum(c, rules),
        "tail-first": lambda c: strongest_tail_first(c, rules),
    }


def first_suggestion(cards: Sequence[Card], rules: Rules, level: str | None) -> Play:
    """The first of the 3 suggestions shown, at a table of ``level`` AI
    seats (None: a table of people)."""
    s = suggest(cards, rules, top=3, opponents=None if level is None else (level,) * 3)
    return s.items[0].arrangement, s.declare_recommended


def codes_of(arr: Arrangement, rules: Rules) -> tuple[int, int, int]:
    return (
        lane_code(arr.head, rules),
        lane_code(arr.middle, rules),
        lane_code(arr.tail, rules),
    )


def deal_pool(
    hero: list[Card], deck: list[Card], n: int, rng: random.Random, play: Callable[..., Play]
) -> dict[str, Any]:
    """``n`` deals of the cards left to 3 opponents, arranged by ``play``."""
    rules = RULES
    unseen = [c for c in deck if c not in hero]
    codes = np.zeros((n, 3, 3), dtype=np.int64)
    special = np.zeros((n, 3))
    hands, arrs, specials = [], [], []
    for d in range(n):
        rng.shuffle(unseen)
        row_h, row_a, row_s = [], [], []
        for o in range(3):
            cards = unseen[13 * o : 13 * o + 13]
            arr, declare = play(cards)
            found = detect_special(cards, rules) if declare else None
            codes[d, o] = codes_of(arr, rules)
            if found is not None:
                special[d, o] = found.points
            row_h.append(list(cards))
            row_a.append(arr)
            row_s.append(found)
        hands.append(row_h)
        arrs.append(row_a)
        specials.append(row_s)
    # Does opponent o strictly beat the two other opponents in every lane?
    others = np.ones((n, 3), dtype=bool)
    for o in range(3):
        for q in range(3):
            if q != o:
                beat = (codes[:, o] > codes[:, q]).all(axis=1) & (special[:, q] == 0)
                others[:, o] &= beat
    others &= special == 0
    return {"codes": codes, "special": special, "others": others, "arrs": arrs, "sp": specials}


def settle_candidates(mine: np.ndarray, pool: dict[str, Any]) -> np.ndarray:
    """(candidates, deals) totals of the hand with each candidate split
    (classic: scoop doubling on, no 辗过, home run at 4 players)."""
    codes, special, others = pool["codes"], pool["special"], pool["others"]
    my_pts = PTS[np.arange(3)[None, :], mine >> CAT_SHIFT]  # (F, 3)
    opp_pts = PTS[np.arange(3)[None, None, :], codes >> CAT_SHIFT]  # (D, 3, 3)
    pair = np.zeros((3, len(mine), len(codes)))
    sweeps = np.zeros((3, len(mine), len(codes)), dtype=bool)
    for o in range(3):
        base = np.zeros((len(mine), len(codes)))
        wins = np.zeros(base.shape, dtype=np.int8)
        losses = np.zeros(base.shape, dtype=np.int8)
        for lane in range(3):
            c, x = mine[:, None, lane], codes[None, :, o, lane]
            base += np.where(c > x, my_pts[:, None, lane], 0.0)
            base -= np.where(c < x, opp_pts[None, :, o, lane], 0.0)
            wins += c > x
            losses += c < x
        is_special = special[None, :, o] > 0
        sweep, swept = (wins == 3) & ~is_special, (losses == 3) & ~is_special
        base = np.where(sweep | swept, base * 2, base)
        base = np.where(swept & others[None, :, o], base * 2, base)  # their home run
        pair[o] = np.where(is_special, -special[None, :, o], base)
        sweeps[o] = sweep
    home_run = sweeps.all(axis=0)
    return np.asarray(np.where(home_run, 2 * pair.sum(axis=0), pair.sum(axis=0)))


def settle_special(hero: list[Card], pool: dict[str, Any]) -> np.ndarray:
    """Totals of the hand declaring its special, one per deal (via settle)."""
    rules = RULES
    mine = detect_special(hero, rules)
    assert mine is not None
    out = []
    for arrs, sps in zip(pool["arrs"], pool["sp"], strict=True):
        hands = [PlayerHand("me", mine.arrangement or arrs[0], mine)]
        hands += [PlayerHand(f"o{i}", a, s) for i, (a, s) in enumerate(zip(arrs, sps, strict=True))]
        out.append(settle(hands, rules).totals["me"])
    return np.array(out, dtype=float)


def check_with_settle(
    hero_arrs: list[Arrangement], mine: np.ndarray, pool: dict[str, Any], rng: random.Random
) -> None:
    """The vectorized totals equal bot.rules.settle on sampled (split, deal) pairs."""
    totals = settle_candidates(mine, pool)
    for _ in range(6):
        f, d = rng.randrange(len(mine)), rng.randrange(len(pool["arrs"]))
        hands = [PlayerHand("me", hero_arrs[f])]
        hands += [
            PlayerHand(f"o{i}", a, s)
            for i, (a, s) in enumerate(zip(pool["arrs"][d], pool["sp"][d], strict=True))
        ]
        want = settle(hands, RULES).totals["me"]
        assert totals[f, d] == want, (totals[f, d], want, hero_arrs[f], pool["arrs"][d])


RULES = make_rules("classic", 4)


def _ints(totals: np.ndarray) -> np.ndarray:
    """Totals as int32 for the dump (classic points are whole numbers)."""
    assert np.array_equal(totals, np.round(totals))
    return totals.astype(np.int32)


def noise_seed(seed: int, index: int, table: str) -> int:
    """The bootstrap seed of a hand's noise measures (the same when rescored)."""
    return seed * 100_000 + index * len(TABLES) + TABLES.index(table)


def run_hand(
    job: tuple[int, int, int, tuple[str, ...], tuple[str, ...], str | None],
) -> dict[str, Any]:
    index, seed, deals, tables, picks, dump = job
    rules = RULES
    prepare(rules)  # the pools, the deep seat pool included, as a table's warm-up builds them
    rng = random.Random(f"{seed}-{index}")
    deck = list(rules.deck.cards())
    hero = rng.sample(deck, 13)
    play = policies(rules)
    he = evaluate_hand(hero, rules)
    zeros5, zeros3 = np.zeros(len(he.c5)), np.zeros(len(he.c3))
    front = frontier(he, legal_rows(he, zeros5, zeros5, zeros3))
    arrs = [
        arrangement(he, int(t), int(m), int(h))
        for t, m, h in zip(front.tail, front.middle, front.head, strict=True)
    ]
    mine = np.stack([he.c3[front.head], he.c5[front.middle], he.c5[front.tail]], axis=1)
    keys: list[object] = [tuple(int(x) for x in row) for row in mine]
    special = detect_special(hero, rules)
    out: dict[str, Any] = {"index": index, "frontier": len(front)}
    for table in tables:
        chosen: dict[str, object] = {}
        for name in picks:
            if name == "strong":
                arr, declare = first_suggestion(hero, rules, LEVEL[table])
            elif name == "strong-people":
                arr, declare = first_suggestion(hero, rules, None)
            else:
                arr, declare = play[name](hero)
            chosen[name] = "special" if declare and special is not None else codes_of(arr, rules)
        extra = [c for c in dict.fromkeys(chosen.values()) if c != "special" and c not in keys]
        all_mine = np.concatenate([mine, np.array(extra, dtype=np.int64).reshape(-1, 3)])
        all_keys = keys + extra
        deal_rng = random.Random(f"{seed}-{index}-{table}")
        pools = [deal_pool(hero, deck, deals, deal_rng, play[table]) for _ in range(2)]
        if index % 10 == 0:
            check_with_settle(arrs, mine, pools[0], rng)
        totals = []
        for pool in pools:
            t = settle_candidates(all_mine, pool)
            if special is not None:
                t = np.concatenate([t, settle_special(hero, pool)[None, :]])
            totals.append(t)
        values = [t.mean(axis=1) for t in totals]
        cand = all_keys + (["special"] if special is not None else [])
        in_front = [i for i, k in enumerate(cand) if k in keys or k == "special"]
        best = max(in_front, key=lambda i: values[0][i])
        picked = {name: cand.index(key) for name, key in chosen.items()}
        tseed = noise_seed(seed, index, table)
        out[f"{table}/noise"] = noise(totals[0], totals[1], in_front, picked, tseed)
        if dump:
            np.savez_compressed(
                Path(dump) / f"hand-{index}-{table}.npz",
                sel=_ints(totals[0]),
                ev=_ints(totals[1]),
                front=np.array(in_front),
                keys=np.array([k if k != "special" else (-1, -1, -1) for k in cand]),
                picks=np.array([picked[p] for p in picks]),
                pick_names=np.array(picks),
            )
        for name, key in chosen.items():
            i = cand.index(key)
            out[f"{table}/{name}"] = (
                float(values[1][best] - values[1][i]),
                key == cand[best],
                bool(values[0][i] == values[0][best] and values[1][i] == values[1][best]),
            )
    return out


def rescore_table(folder: str, table: str, picks: Sequence[str], seed: int) -> list[dict[str, Any]]:
    """The current picks of the dumped hands, scored on their dumped deals."""
    rules = RULES
    prepare(rules)
    play = policies(rules)
    special_of = {}

    def pick_of(name: str) -> Callable[[int], object]:
        def pick(index: int) -> object:
            hero = hero_of(index, seed, rules.deck.cards())
            if name == "strong":
                arr, declare = first_suggestion(hero, rules, LEVEL[table])
            elif name == "strong-people":
                arr, declare = first_suggestion(hero, rules, None)
            else:
                arr, declare = play[name](hero)
            special = special_of.setdefault(index, detect_special(hero, rules))
            return "special" if declare and special is not None else codes_of(arr, rules)

        return pick

    picked = {name: pick_of(name) for name in picks}
    return rescore(folder, table, picked, lambda index: noise_seed(seed, index, table))


def _ignore_card_removal() -> None:
    """Worker set-up for --no-removal: uniform weights instead of removal weights."""
    from bot.solver import pool

    def uniform(p: pool.Pool, cards: Sequence[Card], rules: Rules) -> np.ndarray:
        return np.full(len(p), 1.0 / len(p))

    pool.removal_weights = uniform  # type: ignore[assignment]


def summarize(results: list[dict[str, Any]], tables: Sequence[str], picks: Sequence[str]) -> None:
    fr = np.array([r["frontier"] for r in results])
    print(
        f"hands {len(results)}; frontier size median {np.median(fr):.0f}, p90 {np.percentile(fr, 90):.0f}"
    )
    for table in tables:
        print(f"\nopponents arranged by: {table}")
        print(
            "pick         regret/hand  95% interval       per opponent  best picked  (same value)"
        )
        for name in picks:
            got = [r[f"{table}/{name}"] for r in results if f"{table}/{name}" in r]
            if not got:
                continue
            reg = np.array([g[0] for g in got])
            hit = np.mean([g[1] for g in got])
            same = np.mean([g[1] or g[2] for g in got])
            n = len(reg)
            half = 1.96 * reg.std(ddof=1) / np.sqrt(n) if n > 1 else float("nan")
            print(
                f"{name:<12} {reg.mean():+8.3f}   [{reg.mean() - half:+.3f}, {reg.mean() + half:+.3f}]"
                f"   {reg.mean() / 3:+.3f}        {hit:5.0%}       ({same:.0%})"
            )
        summarize_noise(results, table, picks)


def paired(rows: list[dict[str, Any]], table: str, now: str, was: str) -> None:
    """The current pick minus the dumped run's, hand by hand (same deals)."""
    both = [r for r in rows if f"{table}/{now}" in r and f"{table}/{was}" in r]
    if len(both) < 2:
        return
    d = np.array([r[f"{table}/{now}"][0] - r[f"{table}/{was}"][0] for r in both]) / 3
    hits = np.array([int(r[f"{table}/{now}"][1]) - int(r[f"{table}/{was}"][1]) for r in both])
    half = 1.96 * d.std(ddof=1) / np.sqrt(len(d))
    print(
        f"\n{table}: {now} - {was}, {len(d)} hands: regret per opponent {d.mean():+.4f} "
        f"[{d.mean() - half:+.4f}, {d.mean() + half:+.4f}], best picked {hits.mean():+.1%}"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=200)
    ap.add_argument("--deals", type=int, default=1000, help="deals per pool (two pools)")
    ap.add_argument("--seed", type=int, default=2027)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--tables", default=",".join(TABLES))
    ap.add_argument("--picks", default=",".join(PICKS))
    ap.add_argument("--start", type=int, default=0, help="index of the first hand")
    ap.add_argument(
        "--no-removal",
        action="store_true",
        help="the solver ignores card removal (every pool entry weighs the same)",
    )
    ap.add_argument("--save", help="write the per-hand results to this JSON file")
    ap.add_argument("--dump", help="folder for each hand's per-deal totals (.npz)")
    ap.add_argument("--load", nargs="*", help="only summarize these saved result files")
    ap.add_argument(
        "--rescore",
        help="score the current picks on the deals dumped in this folder (regret_rescore.py)",
    )
    args = ap.parse_args(argv)
    tables, picks = tuple(args.tables.split(",")), tuple(args.picks.split(","))
    if args.rescore:
        results = [
            r for table in tables for r in rescore_table(args.rescore, table, picks, args.seed)
        ]
        merged: dict[int, dict[str, Any]] = {}
        for r in results:
            merged.setdefault(r["index"], {}).update(r)
        off = sum(1 for r in results for k in r if k.endswith("/off"))
        print(f"rescored from {args.rescore}; picks off the dumped candidates: {off}")
        rows = sorted(merged.values(), key=lambda r: r["index"])
        was = sorted({k.split("/")[1] for r in rows for k in r if k.endswith("@run")})
        summarize(rows, tables, (*picks, *was))
        for table in tables:
            for name in picks:
                paired(rows, table, name, f"{name}@run")
        return 0
    if args.load:
        saved = [r for path in args.load for r in json.loads(Path(path).read_text())]
        by_index = {r["index"]: r for r in saved}
        if "--hands" in (argv or sys.argv):  # only the hands asked for
            keep = range(args.start, args.start + args.hands)
            by_index = {i: r for i, r in by_index.items() if i in keep}
        summarize(sorted(by_index.values(), key=lambda r: r["index"]), tables, picks)
        return 0
    load = os.getloadavg()[0]
    t0 = time.time()
    first = args.start
    jobs = [
        (i, args.seed, args.deals, tables, picks, args.dump)
        for i in range(first, first + args.hands)
    ]
    results: list[dict[str, Any]] = []
    init = _ignore_card_removal if args.no_removal else None
    with Pool(args.workers, initializer=init) as workers:
        for r in workers.imap_unordered(run_hand, jobs):
            results.append(r)
            if len(results) % 10 == 0:
                print(f"  {len(results)} hands, {time.time() - t0:.0f}s", file=sys.stderr)
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    print(
        f"== {stamp}, nproc={os.cpu_count()}, load average {load:.2f} before / "
        f"{os.getloadavg()[0]:.2f} after, {time.time() - t0:.0f}s wall"
    )
    print(
        f"hands {first}..{first + args.hands - 1}, deals {args.deals} + {args.deals} "
        f"per hand and table, seed {args.seed}"
    )
    if args.save:
        Path(args.save).write_text(json.dumps(results))
    summarize(sorted(results, key=lambda r: r["index"]), tables, picks)
    return 0


if __name__ == "__main__":
    sys.exit(main())
