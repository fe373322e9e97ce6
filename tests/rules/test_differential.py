"""Differential tests: the engine (bot.rules) against the independent reference
in this folder, on random tables, lanes, hands and rounds.

Compared: the ORDER of lane keys (pairs of lanes, head vs middle included) and
lane categories, foul verdicts, special detection (name, points, naturalness)
and complete settlements, both through ``bot.rules.settle`` and through
``python -m bot judge``. Default sizes keep the run short; set e.g.
``DIFF_ROUNDS=20000`` for a long run (every loop scales with it).
"""

from __future__ import annotations

import os
import random
from itertools import combinations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.rules import Arrangement, check_foul, detect_special, evaluate_lane, make_rules, settle

from .breakdown import breakdown_problems, without_breakdown
from .deals import (
    deal_hands,
    deck,
    fouled_arrangement,
    legal_arrangement,
    random_table,
    shaped_lane,
    twin_lane,
)
from .reference import cmp, is_fouled, lane_key
from .reference_settle import settle_ref
from .reference_specials import detect
from .rounds import json_diff, rounds, run_judge, tokens

_ROUNDS = int(os.environ.get("DIFF_ROUNDS", "0") or 0)
_DEFAULT_ROUNDS = 400


def scaled(default: int) -> int:
    """Loop sizes: the default, or proportionally more under DIFF_ROUNDS."""
    return max(1, default * _ROUNDS // _DEFAULT_ROUNDS) if _ROUNDS else default


def _fail(problems: list[str], what: str, total: int) -> None:
    assert not problems, f"{len(problems)} of {total} {what} disagree; first ones:\n" + "\n".join(
        problems[:8]
    )


def _engine_cmp(a, b) -> int:
    return (a > b) - (a < b)


def _lane_case(rng: random.Random) -> str | None:
    """One random pair of lanes; a description when engine and reference disagree."""
    table = random_table(rng)
    rules = table.rules
    sa, sb = rng.choice([(3, 3), (5, 5), (5, 5), (3, 5)])
    a = shaped_lane(rng, rules, sa)
    b = twin_lane(rng, rules, a) if sa == sb and rng.random() < 0.4 else shaped_lane(rng, rules, sb)
    ka, kb = lane_key(a, rules), lane_key(b, rules)
    ea, eb = evaluate_lane(a, rules), evaluate_lane(b, rules)
    want, got = cmp(ka, kb), _engine_cmp(ea, eb)
    cats = (ka[0], kb[0]), (int(ea.category), int(eb.category))
    if want != got or cats[0] != cats[1]:
        return (
            f"options={table.options} a={tokens(a)} b={tokens(b)}: want cmp {want} "
            f"categories {cats[0]}, got cmp {got} categories {cats[1]} (ref {ka} vs {kb})"
        )
    return None


def test_lane_order_seeded() -> None:
    total = scaled(3000)
    problems = [p for i in range(total) if (p := _lane_case(random.Random(1000 + i)))]
    _fail(problems, "lane pairs", total)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False))
def test_lane_order_hypothesis(rng: random.Random) -> None:
    assert _lane_case(rng) is None, _lane_case(rng)


def _foul_case(rng: random.Random) -> tuple[str | None, bool]:
    table = random_table(rng)
    rules = table.rules
    cards = deal_hands(rng, rules, special_rate=0.1)[0]
    pick = rng.random()
    lanes = (legal_arrangement if pick < 0.5 else fouled_arrangement)(cards, rng, rules)
    if lanes is None:
        return None, False
    want = is_fouled(*lanes, rules)
    got = check_foul(Arrangement.of(*lanes), rules) is not None
    if want != got:
        return (
            f"options={table.options} head={tokens(lanes[0])} middle={tokens(lanes[1])} "
            f"tail={tokens(lanes[2])}: want fouled={want}, got fouled={got}"
        ), want
    return None, want


def test_foul_verdicts_seeded() -> None:
    total = scaled(1500)
    problems, fouled = [], 0
    for i in range(total):
        p, f = _foul_case(random.Random(2000 + i))
        fouled += f
        if p:
            problems.append(p)
    _fail(problems, "arrangements", total)
    assert total // 4 < fouled < total, "both legal and fouled arrangements are exercised"


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False))
def test_foul_verdicts_hypothesis(rng: random.Random) -> None:
    problem, _ = _foul_case(rng)
    assert problem is None, problem


def _special_case(rng: random.Random) -> tuple[str | None, bool]:
    table = random_table(rng)
    rules = table.rules
    cards = deal_hands(rng, rules, special_rate=0.8)[0]
    ref = detect(cards, rules)
    eng = detect_special(cards, rules)
    want = None if ref is None else ref
    got = None if eng is None else (eng.hand.value, eng.points, eng.natural)
    if want != got:
        return (
            f"options={table.options} preset={table.preset} cards={tokens(cards)}: want {want}, got {got}",
            (ref is not None),
        )
    return None, ref is not None


def test_specials_seeded() -> None:
    total = scaled(1500)
    problems, found = [], 0
    for i in range(total):
        p, f = _special_case(random.Random(3000 + i))
        found += f
        if p:
            problems.append(p)
    _fail(problems, "hands", total)
    assert found > total // 10, "special hands are exercised"


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False))
def test_specials_hypothesis(rng: random.Random) -> None:
    problem, _ = _special_case(rng)
    assert problem is None, problem


def _settle_problems(rs) -> list[str]:
    problems = []
    for r in rs:
        want = settle_ref(r.seats, r.table.rules, r.banker, r.escaped)
        got = settle(r.hands, r.table.rules, banker=r.banker, escaped=r.escaped).to_json()
        diff = json_diff(want, without_breakdown(got)) + breakdown_problems(got)
        if diff:
            problems.append(f"{r.describe()}\n    " + "; ".join(diff[:6]))
    return problems


def test_settlement_seeded() -> None:
    rs = rounds(4000, scaled(_DEFAULT_ROUNDS))
    _fail(_settle_problems(rs), "rounds", len(rs))
    # The generator does reach the interesting rules.
    assert any(r.banker for r in rs)
    assert any(r.escaped for r in rs)
    assert any(s.special for r in rs for s in r.seats)


def test_settlement_of_special_duels() -> None:
    """Rounds where most seats hold a special (special vs special, banker specials,
    extended doubling, natural vs joker specials)."""
    rs = rounds(4500, scaled(150), special_rate=1.0)
    _fail(_settle_problems(rs), "rounds", len(rs))
    assert sum(1 for r in rs if sum(1 for s in r.seats if s.special) >= 2) > len(rs) // 5


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**31))
def test_settlement_hypothesis(seed: int) -> None:
    problems = _settle_problems(rounds(seed, 1))
    assert not problems, problems[0]


def test_judge_settlements() -> None:
    rs = rounds(5000, scaled(300))
    rc, outs = run_judge([r.line for r in rs])
    problems = []
    for r, got in zip(rs, outs, strict=True):
        want = {"ok": True, **settle_ref(r.seats, r.table.rules, r.banker, r.escaped)}
        diff = json_diff(want, without_breakdown(got)) + breakdown_problems(got)
        if diff:
            problems.append(f"{r.describe()}\n    " + "; ".join(diff[:6]))
    _fail(problems, "judge lines", len(rs))
    assert rc == 0


def test_judge_refuses_fouled_lines() -> None:
    rs = rounds(6000, scaled(60), fouled=True)
    rc, outs = run_judge([r.line for r in rs])
    problems = [
        f"{r.describe()}: want ok false naming {r.fouled_id}, got {got}"
        for r, got in zip(rs, outs, strict=True)
        if got.get("ok") is not False or r.fouled_id not in str(got.get("error"))
    ]
    _fail(problems, "fouled judge lines", len(rs))
    assert rc == 2


ORDER_TABLES = [
    ("classic", 4, {}),
    ("classic", 4, {"wheel": "low"}),
    ("classic", 3, {"jokers": 2}),
    ("extended", 4, {"jokers": 1}),
    ("extended", 2, {"wild_rank": "9"}),
    ("classic", 5, {"added_suit": "d"}),
]


def _order_problems(lanes, rules) -> list[str]:
    """Sort by the reference key; neighbours must compare the same way in the engine.
    (Two total orders that agree on every neighbour pair agree on every pair.)"""
    keyed = sorted(((lane_key(lane, rules), lane) for lane in lanes), key=lambda kl: kl[0])
    values = [evaluate_lane(lane, rules) for _, lane in keyed]
    problems = []
    for (k1, l1), (k2, l2), v1, v2 in zip(keyed, keyed[1:], values, values[1:], strict=False):
        if cmp(k1, k2) != _engine_cmp(v1, v2) or k1[0] != int(v1.category):
            problems.append(
                f"{tokens(l1)} vs {tokens(l2)}: want {cmp(k1, k2)}, got {_engine_cmp(v1, v2)}"
            )
    return problems


def test_lane_total_order() -> None:
    """Thousands of lanes per table (heads and 5-card lanes together) sorted into one order."""
    problems = []
    for i, (preset, n, opts) in enumerate(ORDER_TABLES):
        rules = make_rules(preset, n, opts)
        rng = random.Random(7000 + i)
        lanes = [shaped_lane(rng, rules, rng.choice([3, 5, 5])) for _ in range(scaled(1500))]
        problems += [f"{preset} {opts}: {p}" for p in _order_problems(lanes, rules)]
    _fail(problems, "neighbouring lanes", scaled(1500) * len(ORDER_TABLES))


def test_every_head_in_one_order() -> None:
    """All 3-card heads of the 54-card deck (two jokers), exhaustively."""
    rules = make_rules("classic", 4, {"jokers": 2})
    heads = list(combinations(deck(rules), 3))
    _fail(_order_problems(heads, rules), "neighbouring heads", len(heads))


def test_special_points_tables() -> None:
    """Every special's points (or absence) in every preset, with and without the added suit
    and with overrides of the house defaults."""
    from bot.rules import SpecialHand, special_points

    from .reference_specials import ORDER, points_table

    problems = []
    for preset, n, opts in [
        ("classic", 4, {}),
        ("classic", 5, {"added_suit": "h"}),
        ("extended", 3, {}),
        ("extended", 4, {"special_points": {"all_high": 12, "six_pairs": 4}}),
        ("classic", 2, {"special_points": {"one_color": 6}}),
    ]:
        rules = make_rules(preset, n, opts)
        table = points_table(rules)
        for name in ORDER:
            got = special_points(SpecialHand(name), rules)
            if got != table.get(name):
                problems.append(f"{preset} {n} {opts} {name}: want {table.get(name)}, got {got}")
    _fail(problems, "special points", len(ORDER) * 5)


def test_wild_heavy_lanes_in_one_order() -> None:
    """Lanes holding two to four wild-rank cards (百变), which random lanes seldom reach."""
    problems = []
    for i, wild in enumerate(["6", "A", "2"]):
        rules = make_rules(
            "classic" if i % 2 else "extended",
            4,
            {"wild_rank": wild, "wheel": "low" if i == 2 else "second"},
        )
        rng = random.Random(8000 + i)
        pool = deck(rules)
        wilds = [c for c in pool if c.rank == rules.wild_rank]
        others = [c for c in pool if c.rank != rules.wild_rank]
        lanes = []
        for _ in range(scaled(40)):
            size = rng.choice([3, 5])
            k = rng.choice([2, 3, 4]) if size == 5 else rng.choice([2, 3])
            lanes.append(tuple(rng.sample(wilds, k) + rng.sample(others, size - k)))
        lanes += [shaped_lane(rng, rules, 5) for _ in range(scaled(40))]
        problems += [f"wild {wild}: {p}" for p in _order_problems(lanes, rules)]
    _fail(problems, "neighbouring lanes", scaled(80) * 3)
