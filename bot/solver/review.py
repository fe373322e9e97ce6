"""Expected points of a given arrangement, by the model suggestions use.

The review (复盘) compares a player's arrangement with the solver's best for
the same cards: both are priced with the same opponent pool, card removal,
table weights and settlement as ``suggest`` (``best.scored``; strong seats
by the deep seat pool, as the suggestion's second stage), so the best
arrangement's figure here equals ``suggest``'s score for it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bot.rules import Arrangement, Card, Lane, Rules, SpecialResult

from .best import special_value, table_value
from .codes import lane_code
from .model import table_of
from .opponents import deep_seat_pool, opponent_pool, seat_pool


def expected_of(
    cards: Sequence[Card],
    arrangement: Arrangement,
    rules: Rules,
    *,
    players: int | None = None,
    banker: bool = False,
    opponents: Sequence[str | None] | None = None,
) -> float:
    """Expected points this round of ``arrangement`` (made of ``cards``, all
    dealt cards: 16 with 多三张) against the table, as ``suggest`` prices its
    suggestions."""
    table = table_of(rules, players, banker)
    pool = opponent_pool(rules)
    codes = np.array([[lane_code(arrangement.lane(lane), rules) for lane in Lane]], dtype=np.int64)
    levels = list(opponents) if opponents else None
    # Strong seats as the suggestion's second stage prices them (the deep
    # seat pool), the seat pool while that is not built.
    deep = deep_seat_pool(rules)
    seats = deep if deep is not None else seat_pool(rules)
    return float(table_value(codes, list(cards), rules, table, pool, levels, seats)[0])


def special_expected(
    special: SpecialResult, rules: Rules, *, players: int | None = None, banker: bool = False
) -> float:
    """Expected points of declaring ``special`` (as ``suggest``'s special_score)."""
    return special_value(special, rules, table_of(rules, players, banker))
