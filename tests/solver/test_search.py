"""The split enumeration finds exactly the legal splits (checked with bot.rules)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from bot.rules import Arrangement, check_foul, evaluate_lane
from bot.solver.search import arrangement, evaluate_hand, legal_rows, top_rows
from bot.solver.splits import splits

from .helpers import deal, rules_of, same_cards

THIRTEEN = ["classic", "joker2", "wild6", "deck65", "wheel_low"]


def test_split_counts() -> None:
    sp = splits(13)
    assert len(sp.tail) == 72_072
    rows = np.stack([sp.tail, sp.middle], axis=1)
    assert len(np.unique(rows, axis=0)) == 72_072
    # Every row uses each of the 13 cards exactly once.
    for i in random.Random(0).sample(range(72_072), 300):
        cards = [*sp.five[sp.tail[i]], *sp.five[sp.middle[i]], *sp.three[sp.rest[i]]]
        assert sorted(cards) == list(range(13))


@pytest.mark.parametrize("name", THIRTEEN)
def test_legal_rows_are_exactly_the_unfouled_splits(name: str) -> None:
    rules = rules_of(name)
    rng = random.Random(f"legal-{name}")
    for _ in range(2):
        hand = deal(rules, rng)
        he = evaluate_hand(hand, rules)
        sp = he.sp
        v5 = [evaluate_lane([hand[i] for i in row], rules) for row in sp.five]
        v3 = [evaluate_lane([hand[i] for i in row], rules) for row in sp.three]
        want = np.array(
            [v3[h] <= v5[m] <= v5[t] for t, m, h in zip(sp.tail, sp.middle, sp.rest, strict=True)]
        )
        zeros5, zeros3 = np.zeros(len(sp.five)), np.zeros(len(sp.three))
        rows = legal_rows(he, zeros5, zeros5, zeros3)
        got = np.isfinite(rows.value)
        assert np.array_equal(got, want)
        # Spot-check with check_foul itself.
        for i in rng.sample(range(len(want)), 40):
            arr = arrangement(he, int(sp.tail[i]), int(sp.middle[i]), int(sp.rest[i]))
            assert (check_foul(arr, rules) is None) == bool(want[i])


def test_sixteen_cards_pick_best_legal_head() -> None:
    rules = rules_of("extra_three")
    rng = random.Random("sixteen")
    for _ in range(3):
        hand = deal(rules, rng)
        he = evaluate_hand(hand, rules)
        # Value heads by code so "best head" is "strongest legal head".
        v5 = np.zeros(len(he.sp.five))
        v3 = he.c3.astype(float)
        rows = top_rows(legal_rows(he, v5, v5, v3, limit=50), 50)
        assert len(rows) == 50
        for t, m, h in zip(rows.tail, rows.middle, rows.head, strict=True):
            arr = arrangement(he, int(t), int(m), int(h))
            assert check_foul(arr, rules) is None
            kept = arr.cards
            assert len(kept) == 13 and all(kept.count(c) <= hand.count(c) for c in kept)
            rest = [c for c in hand if c not in arr.middle + arr.tail]
            mid = evaluate_lane(arr.middle, rules)
            heads = [
                evaluate_lane(list(x), rules)
                for x in _triples(rest)
                if evaluate_lane(list(x), rules) <= mid
            ]
            assert evaluate_lane(arr.head, rules) == max(heads)


def _triples(cards):
    from itertools import combinations

    return combinations(cards, 3)


def test_arrangement_uses_the_hand() -> None:
    rules = rules_of("classic")
    hand = deal(rules, random.Random(5))
    he = evaluate_hand(hand, rules)
    arr = arrangement(he, 0, int(he.sp.middle[0]), int(he.sp.rest[0]))
    assert isinstance(arr, Arrangement)
    assert same_cards(arr.cards, hand)


def test_sixteen_cards_pruned_search_keeps_the_best_rows() -> None:
    from bot.solver.model import lane_values, opponent_model, table_of

    rules = rules_of("extra_three")
    model, table = opponent_model(rules), table_of(rules, None)
    rng = random.Random("pruned")
    for _ in range(4):
        he = evaluate_hand(deal(rules, rng), rules)
        values = lane_values(he, model, table)
        full = top_rows(legal_rows(he, *values), 64)
        pruned = top_rows(legal_rows(he, *values, limit=64), 64)
        assert np.allclose(full.value, pruned.value)
