"""Lane codes order lanes exactly as bot.rules.evaluate_lane does."""

from __future__ import annotations

import random

import numpy as np
import pytest

from bot.rules import Category, evaluate_lane, make_rules, parse_cards
from bot.solver.codes import CAT_SHIFT, card_arrays, lane_code, subset_codes

from .helpers import CONFIGS, rules_of

DECKS = ["classic", "joker1", "joker2", "wild6", "deck65", "wheel_low"]


def _lanes(rules, rng: random.Random, n: int) -> list[list]:
    """Random 3- and 5-card lanes, biased to wild cards, one suit and few ranks
    so that ties and near-ties are common."""
    deck = list(rules.deck.cards())
    wild = [c for c in deck if c.is_joker or c.rank == rules.wild_rank]
    plain = [c for c in deck if c not in wild]
    out = []
    for _ in range(n):
        size = rng.choice((3, 5))
        k = rng.randint(0, min(len(wild), size))
        pool = plain
        mode = rng.random()
        if mode < 0.25:  # one suit
            suit = rng.choice("shdc")
            pool = [c for c in plain if c.suit == suit]
        elif mode < 0.5:  # few ranks
            ranks = set(rng.sample(range(2, 15), 4))
            pool = [c for c in plain if c.rank in ranks]
        out.append(rng.sample(wild, k) + rng.sample(pool, size - k))
    return out


@pytest.mark.parametrize("name", DECKS)
def test_codes_sort_like_lane_values(name: str) -> None:
    rules = rules_of(name)
    rng = random.Random(f"codes-{name}")
    lanes = _lanes(rules, rng, 2500)
    pairs = sorted(
        ((lane_code(lane, rules), evaluate_lane(lane, rules)) for lane in lanes), key=lambda p: p[0]
    )
    for (c1, v1), (c2, v2) in zip(pairs, pairs[1:], strict=False):
        assert v1 <= v2, (v1, v2)
        assert (c1 == c2) == (v1 == v2), (v1, v2)
    # And the category is the code's top field.
    for c, v in pairs:
        assert Category(c >> CAT_SHIFT) is v.category


@pytest.mark.parametrize("name", DECKS)
def test_vectorized_subsets_match_single_lanes(name: str) -> None:
    rules = rules_of(name)
    rng = random.Random(f"subsets-{name}")
    deck = list(rules.deck.cards())
    hand = rng.sample(deck, 13)
    arrays = card_arrays(hand, rules)
    idx = np.array([rng.sample(range(13), 5) for _ in range(200)])
    codes = subset_codes(arrays, idx, rules)
    for row, code in zip(idx, codes, strict=True):
        assert code == lane_code([hand[i] for i in row], rules)


@pytest.mark.parametrize(
    "lower, higher",
    [
        ("9s 9h Ad", "9c 9d Ah Kd Qd"),  # head pair vs middle: the longer list wins
        ("As Ah Ad", "Kc Kh Kd 2s 2d"),  # head trips below a full house
        ("Ks Qh 2d", "Kc Qd 3h 4s 5c"),  # high-card head vs middle: prefix rule
        ("Ah Ad BJ", "Ac Ah Ad"),  # natural beats wild
        ("Ac Ah Ad Ks BJ", "Ac Ah Ad As Ks"),  # A A A A > A A A 🃏
        ("3h 3d 3s BJ SJ", "3c 3h 3d 3s BJ"),  # source C chain
        ("Ac Ah Ad BJ 2c", "3c 3h 3d 3s BJ"),  # five of a kind beats four
        ("Th Jh Qh Kh BJ", "Td Jd Qd Kd Ad"),  # natural royal flush beats a joker one
    ],
)
def test_known_orderings(lower: str, higher: str) -> None:
    rules = make_rules("classic", 4, {"jokers": 2})
    a, b = parse_cards(lower), parse_cards(higher)
    assert evaluate_lane(a, rules) < evaluate_lane(b, rules)
    assert lane_code(a, rules) < lane_code(b, rules)


def test_added_suit_flush_loses_to_equal_flush() -> None:
    rules = make_rules("classic", 5, {"added_suit": "s"})
    spade, heart = parse_cards("2s 3s 4s 5s 6s"), parse_cards("2h 3h 4h 5h 6h")
    assert lane_code(spade, rules) < lane_code(heart, rules)
    paired = parse_cards("As As Ks Ks 2s")  # two pairs in a flush: 65-card deck only
    assert Category(lane_code(paired, rules) >> CAT_SHIFT) is Category.FLUSH
    assert lane_code(paired, rules) > lane_code(parse_cards("Ah Kh Qh Jh 9h"), rules)


def test_every_config_is_known() -> None:
    for name in CONFIGS:
        rules_of(name)  # the option combinations themselves are valid
