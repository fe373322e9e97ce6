"""A room's options as the table plays them: the validated Rules of a round
and the options as shown to people. Read-only; the table changes options
(``bot.table.options``). Which options there are is declared once, in
``bot.rules.room_options``."""

from __future__ import annotations

from collections.abc import Mapping
from operator import attrgetter
from typing import Any, Final

from bot.rules.options import Preset, Rules, make_rules
from bot.rules.room_options import DECLARED, OWNER_RULE_NAMES, OptionKind

from .room import Room

# Rule options the owner may set (``bot.table.options`` adds the table's own).
RULE_OPTIONS: Final = OWNER_RULE_NAMES


# Each table option read where the room keeps it.
_KEPT: Final = {o.name: attrgetter(o.kept) for o in DECLARED if o.kept is not None}


def rules_for(room: Room, players: int, wild_rank: str | None = None) -> Rules:
    """The validated Rules of this room at a number of players. With the
    random wild rank (百变) on, ``wild_rank`` is the rank drawn for the round."""
    overrides = room.options.rules
    if room.options.random_wild_rank:
        overrides = overrides.set("wild_rank", wild_rank or "2")
    return make_rules(room.preset, players, overrides)


def summary(room: Room) -> Mapping[str, Any]:
    """The options as shown to people, by name: every value the table plays
    with (the preset's defaults where the owner set nothing). A wild rank
    drawn each round (百变) is ``"random"``."""
    opts = room.options
    preset = Preset(room.preset)
    out: dict[str, Any] = {}
    for option in DECLARED:
        if not option.owner_sets:
            continue
        if option.kept is not None:
            value = _KEPT[option.name](room)
            out[option.name] = option.default if value is None else value
        elif option.kind is OptionKind.RANK and opts.random_wild_rank:
            out[option.name] = "random"
        else:
            out[option.name] = opts.rules.get(option.name, option.default_in(preset))
    return out
