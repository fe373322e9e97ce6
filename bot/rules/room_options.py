"""Every room option, declared once (docs/rules.md §6).

A declaration says what an option is: its name, the kind of value it takes
(which decides how it is checked, parsed from what the owner types, cycled
on the settings panel and shown), its allowed values and its default in
each preset, the short names the owner may type, the catalog keys of its
label and values, and who reads it: the settlement (a field of ``Rules``,
accepted by the judge) or the table when it deals (a room's own setting).

Everything else is derived from ``DECLARED``: the rules' option names,
presets and checks (``bot.rules.options``), the table's parser and its
aliases (``bot.table.options``), the owner's settings panel and the
summaries (``bot.views``), the options as shown (``bot.core.options``).
A new on/off variant of the settlement is one ``RoomOption`` here, its
field of ``Rules``, the code of the settlement that reads it, its words in
the three catalogs and its line in docs/rules.md (tests/rules/test_declared.py
checks that nothing else names an option that is not declared here).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Final


class Preset(StrEnum):
    CLASSIC = "classic"  # source A
    EXTENDED = "extended"  # sources B + C


class Wheel(StrEnum):
    SECOND = "second"  # A-2-3-4-5 is the second highest straight (source A)
    LOW = "low"  # ordinary poker order: 5-4-3-2-A lowest


class DealStyle(StrEnum):
    ONE = "one"  # 一张一发
    THREE = "three"  # 三张一发


class OptionKind(StrEnum):
    """The kind of value an option takes."""

    SWITCH = "switch"  # on or off
    COUNT = "count"  # one of a few whole numbers (``values``)
    STAKE = "stake"  # a whole number of at least 1
    SUIT = "suit"  # a suit letter, or none
    CHOICE = "choice"  # one of ``values`` (an enum's values)
    RANK = "rank"  # a rank, random (drawn each round) or none
    POINTS = "points"  # special hand -> points
    SECONDS = "seconds"  # a number of seconds
    LANGUAGE = "language"  # a catalog's language code
    ROUNDS = "rounds"  # a match's number of rounds, or off


class ReadBy(StrEnum):
    """Who reads an option."""

    SETTLEMENT = "settlement"  # a field of Rules: the settlement (and the judge) reads it
    TABLE = "table"  # the room's own setting: the table reads it when it deals


_SAME: Final = object()


@dataclass(frozen=True, slots=True)
class RoomOption:
    """One room option. ``words`` maps a value as stored to the catalog key
    of its words (``{value}`` in a key is the value); values without a key
    are shown as they are."""

    name: str
    kind: OptionKind
    reader: ReadBy
    default: Any  # in the classic preset
    extended: Any = _SAME  # in the extended preset, when it differs
    values: tuple[Any, ...] = ()  # the allowed values (COUNT, CHOICE)
    aliases: tuple[str, ...] = ()  # what the owner may type instead of the name
    short: str | None = None  # what the panel's buttons write (else its first alias)
    words: str | None = None  # catalog key of a value's words, ``{value}`` in it
    shown_as: str | None = None  # its placeholder in the summary (table.options*)
    panel: tuple[Any, ...] | None = ()  # the panel's cycle of values; None: no button
    owner_sets: bool = True  # the owner may set it (special_points: the judge only)
    # A table option: where a room keeps it (an attribute path on the room;
    # None there is the default). A rule option is kept in the overrides.
    kept: str | None = None

    @property
    def label(self) -> str:
        """The catalog key of the option's name as players say it."""
        return f"optname.{self.name}"

    def default_in(self, preset: Preset | str) -> Any:
        if self.extended is not _SAME and preset == Preset.EXTENDED:
            return self.extended
        return self.default

    @property
    def typed(self) -> str:
        """The name the settings panel's buttons write (action args are at
        most 32 characters)."""
        return self.short or (self.aliases[0] if self.aliases else self.name)


_ON_OFF = ("on", "off")

# In the order of the owner's settings panel.
DECLARED: Final[tuple[RoomOption, ...]] = (
    RoomOption(
        "preset",
        OptionKind.CHOICE,
        ReadBy.TABLE,
        Preset.CLASSIC.value,
        values=tuple(Preset),
        words="preset.{value}",
        shown_as="preset",
        panel=tuple(Preset),
        kept="preset",
    ),
    RoomOption(
        "jokers",
        OptionKind.COUNT,
        ReadBy.SETTLEMENT,
        0,
        values=(0, 1, 2),
        shown_as="jokers",
        panel=(0, 1, 2),
    ),
    RoomOption(
        "scoop_double",
        OptionKind.SWITCH,
        ReadBy.SETTLEMENT,
        True,
        aliases=("scoop",),
        shown_as="scoop",
        panel=_ON_OFF,
    ),
    RoomOption(
        "draw_counts_as_scoop",
        OptionKind.SWITCH,
        ReadBy.SETTLEMENT,
        False,
        extended=True,
        aliases=("draw_scoop",),
        shown_as="draw",
        panel=_ON_OFF,
    ),
    RoomOption(
        "banker", OptionKind.SWITCH, ReadBy.SETTLEMENT, False, shown_as="banker", panel=_ON_OFF
    ),
    RoomOption(
        "wheel",
        OptionKind.CHOICE,
        ReadBy.SETTLEMENT,
        Wheel.SECOND,
        values=tuple(Wheel),
        words="opt.wheel_{value}",
        shown_as="wheel",
        panel=tuple(Wheel),
    ),
    RoomOption(
        "wild_rank",
        OptionKind.RANK,
        ReadBy.SETTLEMENT,
        None,
        aliases=("wild",),
        shown_as="wild",
        panel=("random", "none"),
    ),
    RoomOption(
        "escape_penalty",
        OptionKind.SWITCH,
        ReadBy.SETTLEMENT,
        False,
        extended=True,
        aliases=("escape",),
        shown_as="escape",
        panel=_ON_OFF,
    ),
    RoomOption(
        "extra_three",
        OptionKind.SWITCH,
        ReadBy.SETTLEMENT,
        False,
        aliases=("extra3",),
        shown_as="extra",
        panel=_ON_OFF,
    ),
    RoomOption(
        "pictures",
        OptionKind.SWITCH,
        ReadBy.TABLE,
        True,
        aliases=("pics",),
        shown_as="pictures",
        panel=_ON_OFF,
        kept="pictures_on",
    ),
    RoomOption(
        "deal_style",
        OptionKind.CHOICE,
        ReadBy.TABLE,
        DealStyle.ONE,
        values=tuple(DealStyle),
        aliases=("deal",),
        words="opt.deal_{value}",
        shown_as="deal",
        panel=tuple(DealStyle),
        kept="options.deal_style",
    ),
    RoomOption(
        "arrange_seconds",
        OptionKind.SECONDS,
        ReadBy.TABLE,
        120,
        aliases=("time",),
        shown_as="seconds",
        panel=(60, 120, 180, 300),
        kept="options.arrange_seconds",
    ),
    RoomOption(
        "added_suit",
        OptionKind.SUIT,
        ReadBy.SETTLEMENT,
        None,
        aliases=("suit",),
        shown_as="suit",
        panel=("none", "s", "h", "d", "c"),
    ),
    RoomOption(
        "base", OptionKind.STAKE, ReadBy.SETTLEMENT, 1, shown_as="base", panel=(1, 2, 5, 10)
    ),
    RoomOption(
        "rounds",
        OptionKind.ROUNDS,
        ReadBy.TABLE,
        0,  # no match
        aliases=("match",),
        short="rounds",
        kept="options.rounds",
    ),
    # Chosen side by side on the panel, not cycled; the chat's language until set.
    RoomOption(
        "language",
        OptionKind.LANGUAGE,
        ReadBy.TABLE,
        None,
        aliases=("lang",),
        panel=None,
        kept="language",
    ),
    RoomOption(
        "special_points",
        OptionKind.POINTS,
        ReadBy.SETTLEMENT,
        MappingProxyType({}),
        panel=None,
        owner_sets=False,
    ),
)

OPTIONS: Final[Mapping[str, RoomOption]] = MappingProxyType({o.name: o for o in DECLARED})
# The options of Rules, which the settlement reads and the judge accepts.
RULE_NAMES: Final = tuple(o.name for o in DECLARED if o.reader is ReadBy.SETTLEMENT)
# The options the owner may set: the rules' and the table's own.
OWNER_RULE_NAMES: Final = tuple(
    o.name for o in DECLARED if o.reader is ReadBy.SETTLEMENT and o.owner_sets
)
OWNER_TABLE_NAMES: Final = tuple(
    o.name for o in DECLARED if o.reader is ReadBy.TABLE and o.owner_sets
)
# What the owner may type for an option's name -> its name.
ALIASES: Final[Mapping[str, str]] = MappingProxyType(
    {alias: o.name for o in DECLARED for alias in o.aliases}
)


def declared(name: str) -> RoomOption:
    """The declaration of option ``name`` (KeyError when none)."""
    return OPTIONS[name]
