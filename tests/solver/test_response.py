"""Expected points against the pool agree with bot.rules.settle, and the two
implementations (dense, fast) agree with each other."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import pytest

from bot.rules import (
    Arrangement,
    Card,
    PlayerHand,
    Rules,
    detect_special,
    make_rules,
    parse_cards,
    settle,
)
from bot.solver import ai_arrange
from bot.solver.arrays import F64, I64
from bot.solver.best import candidates
from bot.solver.codes import lane_code
from bot.solver.model import ScoringContext, table_of
from bot.solver.opponents import opponent_pool
from bot.solver.pool import Pool, counts, hand_counts, pool_of, removal_weights
from bot.solver.response import dense, expected_points, fast
from bot.solver.search import evaluate_hand

from .helpers import deal, rules_of


def _codes(arr: Arrangement, rules: Rules) -> tuple[int, int, int]:
    return (lane_code(arr.head, rules), lane_code(arr.middle, rules), lane_code(arr.tail, rules))


def _candidates_and_weights(
    hand: Sequence[Card], rules: Rules, pool: Pool, table: ScoringContext
) -> tuple[I64, F64]:
    """A hand's candidate splits (lane codes) and the pool's card-removal
    weights for it, declared specials left out (what ``fast`` and ``dense``
    both settle)."""
    he = evaluate_hand(hand, rules)
    rows = candidates(he, rules, table)
    mine = np.stack([he.c3[rows.head], he.c5[rows.middle], he.c5[rows.tail]], axis=1)
    w = removal_weights(pool, hand, rules)
    return mine, np.where(pool.special == 0, w, 0.0)


@pytest.mark.parametrize("name", ["classic", "extended3", "two_no_double", "joker2", "deck65"])
def test_fast_equals_dense(name: str) -> None:
    rules = rules_of(name)
    pool, table = opponent_pool(rules), table_of(rules, None)
    rng = random.Random(f"fast-{name}")
    for _ in range(4):
        mine, w = _candidates_and_weights(deal(rules, rng), rules, pool, table)
        assert np.allclose(fast(mine, pool, w, table), dense(mine, pool, w, table), atol=1e-6)
        # The re-rank's path (scoop sets weighed bit by bit) on a few rows.
        few = fast(mine[:12], pool, w, table, few=True)
        assert np.allclose(few, dense(mine[:12], pool, w, table), atol=1e-6)


def test_one_pool_settles_every_kind_of_table() -> None:
    """A pool keeps what a sweep of the hero costs per kind of table
    (scoop doubling, home-run size): met by tables of other kinds in turn,
    each is still settled as the dense path settles it."""
    rules = rules_of("classic")
    pool, base = opponent_pool(rules), table_of(rules, None)
    kinds = [
        base,
        replace(base, scoop_double=False),
        replace(base, home_run_k=0, opponents=1),
        replace(base, home_run_k=2, opponents=2),
        replace(base, draw_scoop=True),
    ]
    mine, w = _candidates_and_weights(deal(rules, random.Random("kinds")), rules, pool, base)
    for table in kinds + kinds[::-1]:
        want = dense(mine, pool, w, table)
        assert np.allclose(fast(mine, pool, w, table), want, atol=1e-6)
        assert np.allclose(fast(mine[:8], pool, w, table, few=True), want[:8], atol=1e-6)
    assert len(pool.sweep_cost) >= 3  # one entry per kind met, not one for all


def _deal_opponents(rules: Rules, hand, rng: random.Random, n: int):
    """n opponents' hands from the cards left, arranged by our normal AI."""
    rest = [c for c in rules.deck.cards() if c not in hand]
    out = []
    for _ in range(n):
        cards = rng.sample(rest, 13)
        arr, declare = ai_arrange(cards, rules, "normal")
        out.append((cards, arr, detect_special(cards, rules) if declare else None))
    return out


@pytest.mark.parametrize("name", ["classic", "extended3", "two_no_double", "banker"])
def test_expected_points_equal_settlement_against_one_table(name: str) -> None:
    """Every opponent holds the same arrangement: the expectation is certain
    and must equal the settlement of that round (opponents that tie each
    other never make a home run)."""
    rules = rules_of(name)
    rng = random.Random(f"settle-{name}")
    for _ in range(12):
        hand = deal(rules, rng, wild_bias=False)
        ((cards, opp, special),) = _deal_opponents(rules, hand, rng, 1)
        if special is not None and table_of(rules, None).special_double:
            continue  # the model doubles a special as beating everyone; copies tie
        mine = ai_arrange(hand, rules, "strong")[0]
        pool = pool_of(
            np.array([_codes(opp, rules)]),
            np.array([special.points if special else 0.0]),
            *hand_counts([cards], rules),
            rules,
        )
        got = expected_points(
            np.array([_codes(mine, rules)]), pool, np.ones(1), table_of(rules, None)
        )
        hands = [PlayerHand("me", mine)]
        hands += [PlayerHand(f"o{i}", opp, special) for i in range(rules.players - 1)]
        banker = "o0" if rules.banker else None
        assert got[0] == pytest.approx(settle(hands, rules, banker=banker).totals["me"])


def test_expected_points_are_the_mean_settlement_over_sampled_opponents() -> None:
    """Two players: the expectation over a pool of sampled opponents is the
    mean of the settlements against each of them, scoops and specials included."""
    rules = make_rules("classic", 2)
    rng = random.Random("mean")
    for _ in range(3):
        hand = deal(rules, rng, wild_bias=False)
        opps = _deal_opponents(rules, hand, rng, 60)
        pool = pool_of(
            np.array([_codes(a, rules) for _, a, _ in opps]),
            np.array([s.points if s else 0.0 for _, _, s in opps]),
            *hand_counts([c for c, _, _ in opps], rules),
            rules,
        )
        mine = ai_arrange(hand, rules, "strong")[0]
        w = np.full(len(opps), 1.0 / len(opps))
        got = expected_points(np.array([_codes(mine, rules)]), pool, w, table_of(rules, None))
        few = expected_points(
            np.array([_codes(mine, rules)]), pool, w, table_of(rules, None), few=True
        )
        assert few[0] == pytest.approx(got[0])
        want = np.mean(
            [
                settle([PlayerHand("me", mine), PlayerHand("o", a, s)], rules).totals["me"]
                for _, a, s in opps
            ]
        )
        assert got[0] == pytest.approx(want)


def test_card_removal_weights() -> None:
    rules = rules_of("classic")
    pool = opponent_pool(rules)
    rng = random.Random("removal")
    for _ in range(5):
        hand = rng.sample(list(rules.deck.cards()), 13)
        w = removal_weights(pool, hand, rules)
        assert w.sum() == pytest.approx(1.0) and (w >= 0).all()
        aces = sum(c.rank == 14 for c in hand)
        # An entry holding more aces than are left is impossible.
        assert not w[pool.ranks[:, 12] > 4 - aces].any()
        # The expected aces of an opponent: 13 of the 39 cards left.
        mean = float(w @ pool.ranks[:, 12])
        assert mean == pytest.approx(13 * (4 - aces) / 39, abs=0.15)


@pytest.mark.parametrize("name", ["classic", "joker2", "deck65"])
def test_card_removal_weights_are_the_product_over_ranks_and_suits(name: str) -> None:
    """Each entry's weight is the product, over every rank class (jokers
    included) and every suit, of C(m - h, c) / C(m, c), normalised."""
    from math import comb, prod

    rules = rules_of(name)
    pool = opponent_pool(rules)
    rng = random.Random(f"removal-{name}")
    hand = deal(rules, rng)
    held_ranks, held_suits = counts(hand, rules)
    w = removal_weights(pool, hand, rules)
    raw = [
        prod(
            comb(int(m) - int(h), int(c)) / comb(int(m), int(c))
            for m, h, c in [
                *zip(pool.rank_copies, held_ranks, pool.ranks[i], strict=True),
                *zip(pool.suit_copies, held_suits, pool.suits[i], strict=True),
            ]
        )
        for i in range(len(pool))
    ]
    assert np.allclose(w, np.array(raw) / sum(raw), rtol=1e-9, atol=0)


def test_pools_are_kept_on_disk(tmp_path, monkeypatch) -> None:
    from bot.solver import config, opponents

    rules = rules_of("joker1")
    knobs = config.current()
    monkeypatch.setattr(config, "_current", replace(knobs, cache_dir=str(tmp_path), pool_hands=60))
    monkeypatch.setattr(opponents, "_POOLS", {})
    built = opponents.opponent_pool(rules)
    (saved,) = tmp_path.glob("pool-*.npz")
    monkeypatch.setattr(opponents, "_POOLS", {})
    monkeypatch.setattr(opponents, "_build", lambda rules, n: pytest.fail("rebuilt"))
    loaded = opponents.opponent_pool(rules)
    assert saved.exists() and loaded is not built
    assert len(set(built.policy.tolist())) == 3  # strong, percentile, tail-first entries
    for name in ("codes", "special", "sweeper", "ranks", "suits", "policy"):
        assert np.array_equal(getattr(loaded, name), getattr(built, name))
    # The seat pool (how strong seats play) is kept beside it and read back.
    (seats_file,) = tmp_path.glob("seats-*.npz")
    seats = opponents.seat_pool(rules)
    assert seats is not None and len(seats) == 30 and seats_file.exists()
    assert np.array_equal(np.load(seats_file)["codes"], seats.codes)
    # Another pool size is another file.
    monkeypatch.setattr(config, "_current", replace(knobs, cache_dir=str(tmp_path), pool_hands=61))
    assert opponents._cache_file(rules) != saved


def test_a_quick_pool_serves_first_and_refine_builds_the_full_one(tmp_path, monkeypatch) -> None:
    """A live table's first round of a new deck setting gets a quick pool;
    the full one replaces it afterwards and is the one kept on disk."""
    from bot.solver import config, opponents, prepare, refine, suggest

    rules = rules_of("joker1")
    knobs = config.current()
    monkeypatch.setattr(config, "_current", replace(knobs, cache_dir=str(tmp_path), pool_hands=90))
    monkeypatch.setattr(opponents, "_POOLS", {})
    monkeypatch.setattr(opponents, "_QUICK", set())
    monkeypatch.setattr(opponents, "QUICK_HANDS", 30)
    assert prepare(rules, quick=True) is True
    quick = opponents.opponent_pool(rules)
    assert not list(tmp_path.glob("pool-*.npz"))  # a quick pool is never kept
    hand = parse_cards("As Ah Kd Kc Qs Js Ts 9h 8h 7c 5d 4d BJ")
    assert suggest(hand, rules, top=1).items  # it serves suggestions meanwhile
    assert opponents.seat_pool(rules) is None  # strong seats: answered as people meanwhile
    assert suggest(hand, rules, top=1, opponents=("strong",) * 3).items
    assert opponents.deep_seat_pool(rules) is None  # a suggestion's second stage: not yet
    assert refine(rules) is True
    assert opponents.seat_pool(rules) is not None and list(tmp_path.glob("seats-*.npz"))
    # refine builds the deep seat pool too (the seat pool and 3x the pool size more)
    deep, seats = opponents.deep_seat_pool(rules), opponents.seat_pool(rules)
    assert deep is not None and list(tmp_path.glob("deep-*.npz"))
    assert len(deep) == len(seats) + opponents.DEEP_FACTOR * 90
    full = opponents.opponent_pool(rules)
    assert len(full.codes) > len(quick.codes) and not opponents.is_quick(rules)
    assert list(tmp_path.glob("pool-*.npz"))
    assert refine(rules) is False  # nothing left to do
    # Without ``quick`` (the CLIs, the benchmarks) the full pool is built at once.
    monkeypatch.setattr(opponents, "_POOLS", {})
    monkeypatch.setattr(opponents, "_build", lambda rules, n: pytest.fail("rebuilt"))
    assert prepare(rules) is False  # read from disk
