"""Presets and room options (玩法与房间设置), docs/rules.md §6.

``Rules`` is the one immutable description of how a table plays. It is built
from a preset plus overrides and validated: a forbidden combination raises
``OptionError`` with a sentence a player can read.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from .cards import SUITS, DeckSpec, parse_rank, rank_char
from .room_options import RULE_NAMES, DealStyle, OptionKind, Preset, Wheel, declared

__all__ = [
    "SETTLEMENT_OPTIONS",
    "DealStyle",
    "OptionError",
    "Preset",
    "RuleOverrides",
    "Rules",
    "Wheel",
    "make_rules",
    "preset_defaults",
    "validate",
]


class OptionError(ValueError):
    """An option value or combination that docs/rules.md §6 does not allow.

    ``str(e)`` is the English sentence (the judge prints it); ``key`` and
    ``params`` let a chat show the reason from its message catalog
    (``opterr.<key>``) in the room's language."""

    def __init__(self, message: str, key: str = "invalid", **params: object) -> None:
        super().__init__(message)
        self.key = key
        self.params = params


# The options of Rules (the settlement reads them; the judge accepts exactly these).
SETTLEMENT_OPTIONS = RULE_NAMES


@dataclass(frozen=True, slots=True)
class Rules:
    """Everything that decides a round's outcome. Build with :func:`make_rules`."""

    preset: Preset = Preset.CLASSIC
    players: int = 4
    jokers: int = 0
    scoop_double: bool = True
    draw_counts_as_scoop: bool = False
    banker: bool = False
    added_suit: str | None = None
    wheel: Wheel = Wheel.SECOND
    wild_rank: int | None = None
    escape_penalty: bool = False
    base: int = 1
    extra_three: bool = False
    # Overrides of the special-hand points table (special name -> points).
    special_points: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def deck(self) -> DeckSpec:
        return DeckSpec(jokers=self.jokers, added_suit=self.added_suit)

    @property
    def cards_per_player(self) -> int:
        return 16 if self.extra_three else 13

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready options (what the judge reads back)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            kind = declared(f.name).kind if f.name in RULE_NAMES else None
            if kind is OptionKind.RANK:
                v = rank_char(v) if v is not None else None
            elif kind is OptionKind.POINTS:
                v = dict(v)
            elif isinstance(v, StrEnum):
                v = v.value
            out[f.name] = v
        return out


class RuleOverrides(Mapping[str, Any]):
    """The owner's overrides of a preset's rules, as stored (JSON values, a
    wild rank as its letter) and as :func:`make_rules` takes them: options of
    ``Rules`` only (a declared one, ``bot.rules.room_options``); an option not
    here is the preset's. Immutable: ``set`` and ``unset`` return a new one."""

    __slots__ = ("_values",)

    def __init__(self, values: Mapping[str, Any] | None = None) -> None:
        # Read as stored: a name no longer declared is kept (and refused by
        # make_rules with its reason), never dropped.
        self._values: dict[str, Any] = dict(values or {})

    def __getitem__(self, name: str) -> Any:
        return self._values[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return f"RuleOverrides({self._values!r})"

    def set(self, name: str, value: Any) -> RuleOverrides:
        """These overrides with option ``name`` (declared in Rules) set to ``value``."""
        if name not in RULE_NAMES:
            raise OptionError(f"unknown option {name!r}", "unknown_option", name=name)
        return RuleOverrides({**self._values, name: value})

    def unset(self, name: str) -> RuleOverrides:
        """These overrides with ``name`` back to the preset's."""
        return RuleOverrides({k: v for k, v in self._values.items() if k != name})

    def to_json(self) -> dict[str, Any]:
        return dict(self._values)


def preset_defaults(preset: Preset | str) -> dict[str, Any]:
    """The option values a preset starts from."""
    return {name: declared(name).default_in(preset) for name in RULE_NAMES}


def _as_bool(name: str, v: Any) -> bool:
    if isinstance(v, bool):
        return v
    raise OptionError(f"option {name} must be true or false, not {v!r}", "bool", name=name, value=v)


def _coerce(name: str, v: Any) -> Any:
    kind = declared(name).kind if name in RULE_NAMES else None
    if kind is OptionKind.SWITCH:
        return _as_bool(name, v)
    if kind is OptionKind.COUNT:
        allowed = declared(name).values
        if isinstance(v, bool) or v not in allowed:
            among = ", ".join(map(str, allowed[:-1])) + f" or {allowed[-1]}"
            raise OptionError(f"option {name} must be {among}, not {v!r}", name, value=v)
        return int(v)
    if kind is OptionKind.STAKE:
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise OptionError(
                f"option {name} must be a whole number of at least 1, not {v!r}", name, value=v
            )
        return v
    if kind is OptionKind.SUIT:
        if v is None:
            return None
        s = str(v).strip().lower()
        s = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}.get(s, s)
        if s not in SUITS:
            raise OptionError(f"option {name} must be one of s h d c, not {v!r}", name, value=v)
        return s
    if kind is OptionKind.CHOICE:
        for value in declared(name).values:
            if v == value:
                return value
        among = " or ".join(repr(str(x)) for x in declared(name).values)
        raise OptionError(f"option {name} must be {among}, not {v!r}", name, value=v)
    if kind is OptionKind.RANK:
        if v is None:
            return None
        try:
            return parse_rank(str(v))
        except ValueError:
            raise OptionError(
                f"option {name} must be a rank such as 6 or null, not {v!r}",
                name,
                value=v,
            ) from None
    if kind is OptionKind.POINTS:
        from .types import SpecialHand

        if not isinstance(v, Mapping):
            raise OptionError(
                "option special_points must map special names to points", "special_points"
            )
        out = {}
        for k, pts in v.items():
            try:
                SpecialHand(k)
            except ValueError:
                raise OptionError(
                    f"special_points names no special hand {k!r}", "special_points_name", name=k
                ) from None
            if isinstance(pts, bool) or not isinstance(pts, int) or pts < 0:
                raise OptionError(
                    f"special_points for {k} must be a whole number of at least 0",
                    "special_points_value",
                    name=k,
                )
            out[k] = pts
        return MappingProxyType(out)
    raise OptionError(f"unknown option {name!r}", "unknown_option", name=name)


def make_rules(
    preset: Preset | str = Preset.CLASSIC,
    players: int = 4,
    options: Mapping[str, Any] | None = None,
    *,
    allowed: tuple[str, ...] = RULE_NAMES,
) -> Rules:
    """Build and validate the rules of a table. Raises :class:`OptionError`."""
    try:
        p = Preset(preset)
    except ValueError:
        raise OptionError(
            f"unknown preset {preset!r}: use classic or extended", "unknown_preset", value=preset
        ) from None
    if isinstance(players, bool) or not isinstance(players, int):
        raise OptionError("the number of players must be a whole number", "players_int")
    values = preset_defaults(p)
    for name, v in (options or {}).items():
        if name not in allowed:
            raise OptionError(f"unknown option {name!r}", "unknown_option", name=name)
        values[name] = _coerce(name, v)
    for name in RULE_NAMES:
        if declared(name).kind is OptionKind.POINTS:  # a copy of its own, read-only
            values[name] = MappingProxyType(dict(values[name]))
    rules = Rules(preset=p, players=players, **values)
    validate(rules)
    return rules


def validate(r: Rules) -> None:
    """Refuse every combination docs/rules.md §6 forbids, with the reason."""
    if not 2 <= r.players <= 5:
        raise OptionError(
            f"a table has 2 to 5 players, not {r.players}", "players_range", players=r.players
        )
    # Modes that fix the number of players first: their reason is the one to give.
    if r.banker:
        if r.preset is not Preset.CLASSIC:
            raise OptionError("banker mode (坐庄) is a classic-preset mode", "banker_classic")
        if r.players != 4:
            raise OptionError("banker mode (坐庄) needs exactly 4 players", "banker_four")
    if r.extra_three and r.players > 3:
        raise OptionError("多三张 (16 cards each) is for 2 or 3 players", "extra_three_players")
    if r.players == 5 and r.preset is not Preset.CLASSIC:
        raise OptionError(
            "5 players (the 65-card deck) are played in the classic preset only", "five_classic"
        )
    if r.players == 5 and r.added_suit is None:
        raise OptionError(
            "5 players need an added suit (added_suit: s, h, d or c)", "five_needs_suit"
        )
    if r.players < 5 and r.added_suit is not None:
        raise OptionError("an added suit is only for 5 players", "suit_needs_five")
    if r.jokers and r.wild_rank is not None:
        raise OptionError(
            "jokers and a wild rank (百变) cannot be played together", "jokers_and_wild"
        )
    if r.players == 5 and r.jokers:
        raise OptionError("5 players (the 65-card deck) play without jokers", "five_no_jokers")
    if r.players == 5 and r.wild_rank is not None:
        raise OptionError("5 players (the 65-card deck) play without a wild rank", "five_no_wild")
    if r.banker:
        if r.jokers:
            raise OptionError("banker mode (坐庄) is played without jokers", "banker_no_jokers")
        if r.wild_rank is not None:
            raise OptionError("banker mode (坐庄) is played without a wild rank", "banker_no_wild")
