"""A room's match (局数): kept in ``bot.core.match``, below table and views."""

from bot.core.match import (
    MAX_ROUNDS,
    PRESETS,
    after_pay,
    before_deal,
    current,
    is_over,
    parse_rounds,
    played,
    position,
    round_span,
    sync_option,
)

__all__ = [
    "MAX_ROUNDS",
    "PRESETS",
    "after_pay",
    "before_deal",
    "current",
    "is_over",
    "parse_rounds",
    "played",
    "position",
    "round_span",
    "sync_option",
]
