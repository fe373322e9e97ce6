"""Room options as the owner sets them (docs/rules.md §6), and the Rules of a round.

A room keeps its preset and the owner's overrides (``Room.preset``,
``RoomOptions``).
Every change is validated through ``bot.rules.make_rules``; the
``OptionError`` sentence is the reply when a combination is not allowed.
"""

from __future__ import annotations

import dataclasses

from bot.config import MAX_ARRANGE_SECONDS, MIN_ARRANGE_SECONDS
from bot.core.options import RULE_OPTIONS, rules_for
from bot.core.room import Room, RoomOptions
from bot.i18n import normalize_language
from bot.i18n.languages import LANGUAGES, is_language
from bot.rules.cards import parse_rank, rank_char
from bot.rules.options import DealStyle, OptionError, Preset
from bot.rules.room_options import ALIASES, OWNER_TABLE_NAMES, OptionKind, declared

__all__ = [
    "ALIASES",
    "RULE_OPTIONS",
    "TABLE_OPTIONS",
    "apply_option",
    "check_possible",
    "default_options",
    "rules_for",
]


# The table's own options the owner may set; an option's short names
# (action args are at most 32 characters) are declared with it.
TABLE_OPTIONS = OWNER_TABLE_NAMES

_TRUE = {"on", "true", "yes", "1", "y", "开", "開"}
_FALSE = {"off", "false", "no", "0", "n", "关", "關"}


def default_options(arrange_seconds: int) -> RoomOptions:
    """The table options of a new room (rule overrides start empty)."""
    return RoomOptions(arrange_seconds=arrange_seconds)


def _bool(name: str, text: str) -> bool:
    t = text.strip().lower()
    if t in _TRUE:
        return True
    if t in _FALSE:
        return False
    raise OptionError(
        f"option {name} must be on or off, not {text!r}", "on_off", name=name, value=text
    )


def _rule_value(name: str, value: str) -> object:
    """What the owner typed for a rule option, as its overrides keep it
    (``make_rules`` judges it)."""
    kind = declared(name).kind
    if kind is OptionKind.SWITCH:
        return _bool(name, value)
    if kind in (OptionKind.COUNT, OptionKind.STAKE):
        if not value.isdigit():
            raise OptionError(
                f"option {name} must be a whole number, not {value!r}",
                "whole_number",
                name=name,
                value=value,
            )
        return int(value)
    if kind is OptionKind.SUIT:
        return None if value.lower() in ("none", "off", "") else value
    return value.lower()


def parse_assignment(arg: str | None) -> tuple[str, str]:
    if not arg or "=" not in arg:
        raise OptionError("write an option as name=value, e.g. jokers=2", "assignment")
    name, _, value = arg.partition("=")
    name = name.strip().lower()
    name = ALIASES.get(name, name)
    if name not in RULE_OPTIONS + TABLE_OPTIONS:
        raise OptionError(f"unknown option {name!r}", "unknown_option", name=name)
    return name, value.strip()


def check_possible(room: Room, seated: int) -> None:
    """Accept options that the players seated now, or more, can play (so the
    owner can set up a 5-player or banker table before everyone has joined,
    but never one that seated players would have to leave for). Otherwise
    raise the reason at the count the options themselves ask for (banker: 4,
    added suit: 5, 多三张: 3) when that is still reachable, else at the count
    seated, which names the real conflict."""
    overrides = room.options.rules
    low = min(5, max(2, seated))
    errors: dict[int, OptionError] = {}
    for n in range(low, 6):
        trial = room
        if n == 5 and not overrides.get("added_suit"):
            # The suit is still to be chosen; the deal asks for it.
            options = dataclasses.replace(room.options, rules=overrides.set("added_suit", "s"))
            trial = dataclasses.replace(room, options=options)
        try:
            rules_for(trial, n)
            return
        except OptionError as e:
            errors[n] = e
    if overrides.get("banker"):
        wanted = 4
    elif overrides.get("added_suit"):
        wanted = 5
    elif overrides.get("extra_three"):
        wanted = 3
    else:
        wanted = low
    raise errors.get(wanted, errors[low])


def apply_option(room: Room, arg: str | None, current_players: int) -> tuple[str, str]:
    """Set one option on ``room`` (a copy the caller may throw away).
    Returns (name, shown value). Raises OptionError with the reason."""
    name, value = parse_assignment(arg)
    opts = room.options
    if name == "preset":
        try:
            room.preset = Preset(value.lower()).value
        except ValueError:
            raise OptionError(
                f"unknown preset {value!r}: use classic or extended", "unknown_preset", value=value
            ) from None
    elif name == "language":
        if not is_language(value):
            raise OptionError(
                f"unknown language {value!r}: use {', '.join(LANGUAGES)}", "language", value=value
            )
        room.language = normalize_language(value)
        return name, room.language
    elif name == "arrange_seconds":
        if not value.isdigit() or not MIN_ARRANGE_SECONDS <= int(value) <= MAX_ARRANGE_SECONDS:
            raise OptionError(
                f"arrange_seconds must be a whole number from {MIN_ARRANGE_SECONDS} to {MAX_ARRANGE_SECONDS}",
                "arrange_seconds",
                low=MIN_ARRANGE_SECONDS,
                high=MAX_ARRANGE_SECONDS,
            )
        opts.arrange_seconds = int(value)
        return name, value
    elif name == "pictures":
        # Card pictures with the hand, showdown and settlement; off: text only.
        opts.pictures = _bool(name, value)
        return name, "on" if opts.pictures else "off"
    elif name == "rounds":
        from .match import parse_rounds, sync_option

        opts.rounds = parse_rounds(value)
        sync_option(room)
        return name, str(opts.rounds or "off")
    elif name == "deal_style":
        if value.lower() not in (*DealStyle, "1", "3"):
            raise OptionError("deal_style must be one or three", "deal_style")
        opts.deal_style = (
            DealStyle.THREE if value.lower() in (DealStyle.THREE, "3") else DealStyle.ONE
        )
        return name, opts.deal_style
    elif name == "wild_rank":
        low = value.lower()
        if low in ("random", "rand", "百变", "百變"):
            opts.random_wild_rank = True
            opts.rules = opts.rules.unset(name)
        elif low in ("none", "off", "null", ""):
            opts.random_wild_rank = False
            opts.rules = opts.rules.unset(name)
        else:
            try:
                rank = parse_rank(value)
            except ValueError:
                raise OptionError(
                    f"option wild_rank must be a rank, random or none, not {value!r}",
                    "wild_rank_table",
                    value=value,
                ) from None
            opts.random_wild_rank = False
            opts.rules = opts.rules.set(name, rank_char(rank))
    else:
        opts.rules = opts.rules.set(name, _rule_value(name, value))
    check_possible(room, current_players)
    return name, value
