"""A room's options as the table plays them: the validated Rules of a round
and the options as shown to people. Read-only; the table changes options
(``bot.table.options``)."""

from __future__ import annotations

from typing import Any

from bot.rules.options import SETTLEMENT_OPTIONS, Rules, make_rules, preset_defaults

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


def summary(room: Room) -> dict[str, Any]:
    """The options as shown to people: every value the table plays with."""
    opts = room.options
    r = opts.rules
    base = preset_defaults(room.preset)
    merged = {k: r.get(k, base.get(k)) for k in RULE_OPTIONS}
    merged["wheel"] = str(merged["wheel"])
    if opts.random_wild_rank:
        merged["wild_rank"] = "random"
    merged["preset"] = room.preset
    merged["arrange_seconds"] = opts.arrange_seconds
    merged["deal_style"] = opts.deal_style
    merged["pictures"] = room.pictures_on
    merged["rounds"] = int(opts.rounds or 0)
    merged["language"] = room.language
    return merged
