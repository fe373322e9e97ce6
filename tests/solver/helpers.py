"""Shared table settings and hand drawing for the solver tests."""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.rules import Card, Rules, make_rules

# Every deck and option family the solver must handle.
CONFIGS: dict[str, tuple[str, int, dict]] = {
    "classic": ("classic", 4, {}),
    "joker1": ("classic", 4, {"jokers": 1}),
    "joker2": ("classic", 4, {"jokers": 2}),
    "wild6": ("classic", 4, {"wild_rank": "6"}),
    "deck65": ("classic", 5, {"added_suit": "h"}),
    "wheel_low": ("classic", 4, {"wheel": "low"}),
    "banker": ("classic", 4, {"banker": True}),
    "extended3": ("extended", 3, {}),
    "extended_jokers": ("extended", 4, {"jokers": 2}),
    "extra_three": ("classic", 3, {"extra_three": True}),
    "two_no_double": ("classic", 2, {"scoop_double": False}),
}


def rules_of(name: str) -> Rules:
    preset, players, options = CONFIGS[name]
    return make_rules(preset, players, options)


def deal(rules: Rules, rng: random.Random, wild_bias: bool = True) -> list[Card]:
    """A hand from the table's deck; with ``wild_bias`` wild cards come often."""
    deck = list(rules.deck.cards())
    n = rules.cards_per_player
    if wild_bias:
        wild = [c for c in deck if c.is_joker or c.rank == rules.wild_rank]
        if wild and rng.random() < 0.7:
            k = rng.randint(1, len(wild))
            picked = rng.sample(wild, k)
            rest = [c for c in deck if c not in picked]
            return picked + rng.sample(rest, n - k)
    return rng.sample(deck, n)


def same_cards(a: Sequence[Card], b: Sequence[Card]) -> bool:
    return sorted(a) == sorted(b)
