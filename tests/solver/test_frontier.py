"""The Pareto frontier holds exactly the non-dominated legal splits, and a
best split against any opponents is always on it."""

from __future__ import annotations

import random

import numpy as np
import pytest

from bot.solver.frontier import frontier
from bot.solver.model import table_of
from bot.solver.pool import hand_counts, pool_of
from bot.solver.response import dense
from bot.solver.search import evaluate_hand, legal_rows

from .helpers import deal, rules_of

DECKS = ["classic", "joker2", "wild6", "deck65", "wheel_low"]


def _all_rows(he):
    zeros5, zeros3 = np.zeros(len(he.c5)), np.zeros(len(he.c3))
    rows = legal_rows(he, zeros5, zeros5, zeros3)
    return rows.take(np.flatnonzero(np.isfinite(rows.value)))


def _triples(he, rows) -> np.ndarray:
    return np.stack([he.c3[rows.head], he.c5[rows.middle], he.c5[rows.tail]], axis=1)


@pytest.mark.parametrize("name", DECKS)
def test_frontier_is_exactly_the_non_dominated_triples(name: str) -> None:
    rules = rules_of(name)
    rng = random.Random(f"frontier-{name}")
    for _ in range(2):
        he = evaluate_hand(deal(rules, rng), rules)
        legal = np.unique(_triples(he, _all_rows(he)), axis=0)
        front = _triples(he, frontier(he, _all_rows(he)))
        assert len(np.unique(front, axis=0)) == len(front)  # one row per triple
        # No legal triple is >= a frontier triple in every lane and different.
        for p in front:
            dominated = (legal >= p).all(axis=1) & (legal != p).any(axis=1)
            assert not dominated.any()
        # Every legal triple is matched or dominated by a frontier triple.
        for p in legal[rng.sample(range(len(legal)), min(300, len(legal)))]:
            assert (front >= p).all(axis=1).any()


@pytest.mark.parametrize("name", ["classic", "extended3", "two_no_double", "banker"])
def test_a_best_split_is_on_the_frontier(name: str) -> None:
    """Every legal split is settled against a small random table; the best
    of the frontier is the best of all."""
    rules = rules_of(name)
    rng = random.Random(f"best-{name}")
    deck = list(rules.deck.cards())
    table = table_of(rules, None)
    for _ in range(3):
        hand = deal(rules, rng, wild_bias=False)
        he = evaluate_hand(hand, rules)
        rest = [c for c in deck if c not in hand]
        opponents = []
        for _ in range(24):
            ohe = evaluate_hand(rng.sample(rest, 13), rules)
            rows = _all_rows(ohe)
            opponents.append(_triples(ohe, rows)[rng.randrange(len(rows))])
        ranks, suits = hand_counts([], rules)
        pool = pool_of(np.array(opponents), np.zeros(len(opponents)), ranks, suits, rules)
        weights = np.full(len(opponents), 1.0 / len(opponents))
        every = dense(_triples(he, _all_rows(he)), pool, weights, table)
        front = dense(_triples(he, frontier(he, _all_rows(he))), pool, weights, table)
        assert front.max() == pytest.approx(every.max())
