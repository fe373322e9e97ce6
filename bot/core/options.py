"""A room's options as the table plays them: the validated Rules of a round
and the options as shown to people. Read-only; the table changes options
(``bot.table.options``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.rules.options import (
    SETTLEMENT_OPTIONS,
    DealStyle,
    Rules,
    make_rules,
    preset_defaults,
)

from .room import Room

# Rule options the owner may set (``bot.table.options`` adds the table's own).
RULE_OPTIONS = (*SETTLEMENT_OPTIONS, "extra_three")


def rules_for(room: Room, players: int, wild_rank: str | None = None) -> Rules:
    """The validated Rules of this room at a number of players. With the
    random wild rank (百变) on, ``wild_rank`` is the rank drawn for the round."""
    overrides = dict(room.options.rules)
    if room.options.random_wild_rank:
        overrides["wild_rank"] = wild_rank or "2"
    return make_rules(room.preset, players, overrides)


@dataclass(frozen=True, slots=True)
class OptionsSummary:
    """The options as shown to people: every value the table plays with (the
    preset's defaults where the owner set nothing)."""

    jokers: int
    scoop_double: bool
    draw_counts_as_scoop: bool
    banker: bool
    added_suit: str | None  # a suit letter, or None
    wheel: str  # a Wheel value
    wild_rank: str | None  # a rank, "random" (百变) or None
    escape_penalty: bool
    base: int
    extra_three: bool
    preset: str  # a Preset value
    arrange_seconds: int
    deal_style: DealStyle
    pictures: bool
    rounds: int  # 0: no match
    language: str


def summary(room: Room) -> OptionsSummary:
    """The options as shown to people: every value the table plays with."""
    opts = room.options
    r = opts.rules
    base = preset_defaults(room.preset)
    merged: dict[str, Any] = {k: r.get(k, base.get(k)) for k in RULE_OPTIONS}
    return OptionsSummary(
        jokers=merged["jokers"],
        scoop_double=merged["scoop_double"],
        draw_counts_as_scoop=merged["draw_counts_as_scoop"],
        banker=merged["banker"],
        added_suit=merged["added_suit"],
        wheel=str(merged["wheel"]),
        wild_rank="random" if opts.random_wild_rank else merged["wild_rank"],
        escape_penalty=merged["escape_penalty"],
        base=merged["base"],
        extra_three=merged["extra_three"],
        preset=room.preset,
        arrange_seconds=opts.arrange_seconds,
        deal_style=opts.deal_style,
        pictures=room.pictures_on,
        rounds=int(opts.rounds or 0),
        language=room.language,
    )
