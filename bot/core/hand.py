"""One player's hand in a round, typed: the dealt cards (never reordered: a
button's card index points into them), the display order, the lanes placed
so far as indexes, and what the table marked on it.

Head, middle and tail (头道、中道、尾道): a tapped card goes to the lane the
player aims at (``aim``: the head at the deal; it moves on by itself when its
lane is full); with 13 cards the last lane takes the rest once two are full,
with 多三张 (16 cards) every lane is tapped and the 3 cards left over are
discarded.
The table changes a hand (``bot.table.hand``); views and pictures read it.

``Hand.from_json`` / ``to_json`` read and write exactly a hand as stored.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from bot.rules.cards import Card
from bot.rules.placing import placed_lanes
from bot.rules.types import Arrangement

from .lanes import card_of
from .state import LANE_NAMES

LaneIndexes = tuple[list[int], list[int], list[int]]

# The keys a stored hand always has; any other key is kept as read.
_KEYS: Final = frozenset(
    (
        "cards",
        "sort",
        *LANE_NAMES,
        "undo",
        "done",
        "declared",
        "auto",
        "special",
        "suggestions",
        "refused",
        "order",
        "aim",
    )
)


@dataclass(frozen=True, slots=True)
class Special:
    """The special hand (特殊牌型) a hand qualifies for, and its points."""

    hand: str  # a SpecialHand value
    points: int

    def to_json(self) -> dict[str, object]:
        return {"hand": self.hand, "points": self.points}


@dataclass(frozen=True, slots=True)
class Suggestion:
    """One of the solver's arrangements offered to the player: each lane's
    card tokens, the expected points, each lane's category slug, and whether
    declaring the hand's special is worth more than any arrangement."""

    head: tuple[str, ...]
    middle: tuple[str, ...]
    tail: tuple[str, ...]
    score: float
    cats: tuple[str, ...]
    declare_better: bool

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Suggestion:
        return cls(
            tuple(d["head"]),
            tuple(d["middle"]),
            tuple(d["tail"]),
            d["score"],
            tuple(d["cats"]),
            d["declare_better"],
        )

    def to_json(self) -> dict[str, object]:
        return {
            "head": list(self.head),
            "middle": list(self.middle),
            "tail": list(self.tail),
            "score": self.score,
            "cats": list(self.cats),
            "declare_better": self.declare_better,
        }

    def lane(self, name: str) -> tuple[str, ...]:
        return {"head": self.head, "middle": self.middle, "tail": self.tail}[name]


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why the hand's last arrangement was refused (a catalog key and its
    parameters), shown in the hand until the next change."""

    key: str
    params: Mapping[str, Any]

    def to_json(self) -> list[object]:
        return [self.key, dict(self.params)]


@dataclass(slots=True)
class Hand:
    cards: tuple[str, ...]  # the dealt card tokens, in deal order
    order: list[int]  # the display order (indexes into cards)
    sort: str = "rank"  # "rank", "suit" or "count"
    head: list[int] = field(default_factory=list)
    middle: list[int] = field(default_factory=list)
    tail: list[int] = field(default_factory=list)
    undo: list[LaneIndexes] = field(default_factory=list)
    done: bool = False  # confirmed (or declared, or auto-arranged)
    declared: str | None = None  # the special declared (报道)
    auto: bool = False  # arranged by the table at the deadline / on escape
    special: Special | None = None  # the special the hand qualifies for
    suggestions: list[Suggestion] | None = None
    refused: Refusal | None = None
    aim: str = "head"  # the lane a tapped card goes to (a LANE_NAMES name)
    extra: dict[str, Any] = field(default_factory=dict)  # keys of a newer format

    # ------------------------------------------------------------ JSON

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Hand:
        special = d["special"]
        suggestions = d["suggestions"]
        refused = d["refused"]
        return cls(
            cards=tuple(d["cards"]),
            order=list(d["order"]),
            sort=d["sort"],
            head=list(d["head"]),
            middle=list(d["middle"]),
            tail=list(d["tail"]),
            undo=[(list(h), list(m), list(t)) for h, m, t in d["undo"]],
            done=d["done"],
            declared=d["declared"],
            auto=d["auto"],
            special=None if special is None else Special(special["hand"], special["points"]),
            suggestions=None
            if suggestions is None
            else [Suggestion.from_json(s) for s in suggestions],
            refused=None if refused is None else Refusal(refused[0], dict(refused[1])),
            # Hands stored before the lane could be chosen aim at the head.
            aim=d.get("aim", "head"),
            extra={k: v for k, v in d.items() if k not in _KEYS},
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "cards": list(self.cards),
            "sort": self.sort,
            "head": list(self.head),
            "middle": list(self.middle),
            "tail": list(self.tail),
            "undo": [[list(h), list(m), list(t)] for h, m, t in self.undo],
            "done": self.done,
            "declared": self.declared,
            "auto": self.auto,
            "special": None if self.special is None else self.special.to_json(),
            "suggestions": None
            if self.suggestions is None
            else [s.to_json() for s in self.suggestions],
            "refused": None if self.refused is None else self.refused.to_json(),
            "order": list(self.order),
            # Written once the player aims elsewhere: a hand stored before
            # lanes could be chosen reads back unchanged.
            **({"aim": self.aim} if self.aim != "head" else {}),
            **self.extra,
        }

    # ------------------------------------------------------------ reading the lanes

    def card_list(self) -> list[Card]:
        return [card_of(t) for t in self.cards]

    def extra_cards(self) -> int:
        """Cards beyond 13 (3 with 多三张): they are discarded."""
        return len(self.cards) - 13

    def lanes(self) -> LaneIndexes:
        """Head, middle and tail indexes; with 13 cards a lane left empty is
        the rest once the other two are full."""
        return placed_lanes(self.order, self.head, self.middle, self.tail, len(self.cards))

    def placed(self) -> set[int]:
        h, m, t = self.lanes()
        return set(h) | set(m) | set(t)

    def open_lanes(self) -> list[str]:
        """The lanes a tapped card can still go to, head to tail."""
        return [
            name
            for name, lane, size in zip(LANE_NAMES, self.lanes(), (3, 5, 5), strict=True)
            if len(lane) < size
        ]

    def complete(self) -> bool:
        h, m, t = self.lanes()
        return (len(h), len(m), len(t)) == (3, 5, 5)

    def arrangement(self) -> Arrangement:
        h, m, t = self.lanes()
        cards = self.card_list()
        return Arrangement.of([cards[i] for i in h], [cards[i] for i in m], [cards[i] for i in t])

    def arrangement_tokens(self) -> dict[str, list[str]]:
        """Each lane's card tokens, by lane name."""
        c = self.cards
        return {
            name: [c[i] for i in lane] for name, lane in zip(LANE_NAMES, self.lanes(), strict=True)
        }

    def kept_cards(self) -> list[Card]:
        """The 13 cards in play: all of them, or the 13 placed with 多三张."""
        cards = self.card_list()
        if self.extra_cards() == 0:
            return cards
        return [cards[i] for i in sorted(self.placed())]

    def kept_tokens(self) -> list[str]:
        """Tokens of the 13 cards in play, in lane order."""
        a = self.arrangement_tokens()
        return a["head"] + a["middle"] + a["tail"]
