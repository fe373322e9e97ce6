"""The game itself: cards, lanes, foul check, special hands, settlement.

Pure functions over small immutable types; no I/O and nothing of chat.

Public API:
    parse_card / parse_cards / Card / DeckSpec        cards.py
    Rules / make_rules / Preset / OptionError         options.py
    evaluate_lane(cards, rules) -> LaneValue          lanes.py  (3 or 5 cards)
    lane_points(lane, value) -> int                   lanes.py
    check_foul(arrangement, rules) -> FoulReport|None foul.py
    detect_special(cards, rules) -> SpecialResult|None specials.py
    special_points(hand, rules) -> int|None           specials.py
    settle(hands, rules, banker=None, escaped=()) -> SettlementResult   settlement.py
"""

from .cards import Card, CardError, DeckSpec, format_cards, parse_card, parse_cards
from .foul import FoulReport, check_foul
from .lanes import evaluate_lane, lane_points
from .options import OptionError, Preset, Rules, Wheel, make_rules
from .settlement import settle
from .settlement_types import (
    LaneResult,
    PairResult,
    PlayerHand,
    PlayerResult,
    SettlementResult,
    SpecialResult,
)
from .specials import detect_special, special_points
from .types import Arrangement, Category, Lane, LaneValue, SpecialHand

__all__ = [
    "Arrangement",
    "Card",
    "CardError",
    "Category",
    "DeckSpec",
    "FoulReport",
    "Lane",
    "LaneResult",
    "LaneValue",
    "OptionError",
    "PairResult",
    "PlayerHand",
    "PlayerResult",
    "Preset",
    "Rules",
    "SettlementResult",
    "SpecialHand",
    "SpecialResult",
    "Wheel",
    "check_foul",
    "detect_special",
    "evaluate_lane",
    "format_cards",
    "lane_points",
    "make_rules",
    "parse_card",
    "parse_cards",
    "settle",
    "special_points",
]
