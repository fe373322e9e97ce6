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

__all__ = [
    "RULE_OPTIONS",
    "apply_option",
    "check_possible",
    "default_options",
    "rules_for",
    "rules_for",
]


# Rule options the owner may set, with their short aliases (action args are
# at most 32 characters).
TABLE_OPTIONS = ("preset", "arrange_seconds", "deal_style", "language", "pictures", "rounds")
ALIASES = {
    "draw_scoop": "draw_counts_as_scoop",
    "scoop": "scoop_double",
    "escape": "escape_penalty",
    "suit": "added_suit",
    "wild": "wild_rank",
    "time": "arrange_seconds",
    "deal": "deal_style",
    "lang": "language",
    "extra3": "extra_three",
    "pics": "pictures",
    "match": "rounds",
}
BOOL_OPTIONS = ("scoop_double", "draw_counts_as_scoop", "banker", "escape_penalty", "extra_three")

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
    r = room.options.rules
    low = min(5, max(2, seated))
    errors: dict[int, OptionError] = {}
    for n in range(low, 6):
        trial = room
        if n == 5 and not r.get("added_suit"):
            # The suit is still to be chosen; the deal asks for it.
            options = dataclasses.replace(room.options, rules={**r, "added_suit": "s"})
            trial = dataclasses.replace(room, options=options)
        try:
            rules_for(trial, n)
            return
        except OptionError as e:
            errors[n] = e
    if r.get("banker"):
        wanted = 4
    elif r.get("added_suit"):
        wanted = 5
    elif r.get("extra_three"):
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
            opts.rules.pop("wild_rank", None)
        elif low in ("none", "off", "null", ""):
            opts.random_wild_rank = False
            opts.rules.pop("wild_rank", None)
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
            opts.rules["wild_rank"] = rank_char(rank)
    elif name in BOOL_OPTIONS:
        opts.rules[name] = _bool(name, value)
    elif name in ("jokers", "base"):
        if not value.isdigit():
            raise OptionError(
                f"option {name} must be a whole number, not {value!r}",
                "whole_number",
                name=name,
                value=value,
            )
        opts.rules[name] = int(value)
    elif name == "added_suit":
        opts.rules[name] = None if value.lower() in ("none", "off", "") else value
    elif name == "wheel":
        opts.rules[name] = value.lower()
    check_possible(room, current_players)
    return name, value
