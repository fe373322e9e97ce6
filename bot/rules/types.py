"""Small immutable types shared by the rules modules."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum

from .cards import Card


class Lane(IntEnum):
    """The three lanes (道/墩)."""

    HEAD = 0  # 头道 / 前墩, 3 cards
    MIDDLE = 1  # 中道 / 中墩, 5 cards
    TAIL = 2  # 尾道 / 后墩, 5 cards

    @property
    def size(self) -> int:
        return 3 if self is Lane.HEAD else 5


class Category(IntEnum):
    """Hand categories; a higher value is stronger. Head lanes use only
    THREE_OF_A_KIND, ONE_PAIR and HIGH_CARD (docs/rules.md §2)."""

    HIGH_CARD = 1  # 乌龙 / 散牌
    ONE_PAIR = 2  # 一对
    TWO_PAIR = 3  # 两对
    THREE_OF_A_KIND = 4  # 三条
    STRAIGHT = 5  # 顺子
    FLUSH = 6  # 同花
    FULL_HOUSE = 7  # 葫芦
    FOUR_OF_A_KIND = 8  # 铁支 / 四条 / 炸弹
    STRAIGHT_FLUSH = 9  # 同花顺
    FIVE_OF_A_KIND = 10  # 五同

    @property
    def slug(self) -> str:
        """The docs/judge.md name: ``three_of_a_kind``."""
        return self.name.lower()


class SpecialHand(StrEnum):
    """The 13-card special hands (报道), docs/rules.md §5, in the order of the table."""

    SUPREME_DRAGON = "supreme_dragon"  # 至尊青龙
    DRAGON = "dragon"  # 一条龙
    ALL_ADDED_SUIT = "all_added_suit"  # 清一花
    TWELVE_ROYALS = "twelve_royals"  # 十二皇族
    THREE_STRAIGHT_FLUSHES = "three_straight_flushes"  # 三同花顺
    THREE_QUADS = "three_quads"  # 三分天下
    SIX_OF_A_KIND = "six_of_a_kind"  # 六同
    ALL_HIGH = "all_high"  # 全大
    ALL_LOW = "all_low"  # 全小
    ONE_COLOR = "one_color"  # 凑一色
    DOUBLE_FULL_HOUSE = "double_full_house"  # 双怪冲三
    FOUR_TRIPS = "four_trips"  # 四套三条
    FIVE_PAIRS_TRIPS = "five_pairs_trips"  # 五对三条
    SIX_PAIRS = "six_pairs"  # 六对半
    THREE_STRAIGHTS = "three_straights"  # 三顺子
    THREE_FLUSHES = "three_flushes"  # 三同花

    @property
    def order(self) -> int:
        """1 = strongest, as in docs/rules.md §5."""
        return list(SpecialHand).index(self) + 1


@dataclass(frozen=True, slots=True, order=True)
class LaneValue:
    """The comparison key of one lane (docs/rules.md §2, §3).

    Ordered exactly as the rules compare lanes: category, then the rank list
    (a longer list wins when one is a prefix of the other, which is how a
    3-card head is compared with a 5-card middle), then the added-suit rule
    (a flush or straight flush of the added suit loses to an otherwise equal
    one), then natural beats wild (fewer jokers / substituted wild cards).
    """

    category: Category
    ranks: tuple[int, ...]
    not_added_suit: int = 1  # 0 only for a flush / straight flush of the added suit
    naturalness: int = 0  # minus the number of wild cards standing for another card

    @property
    def wilds(self) -> int:
        return -self.naturalness

    def ties_on_ranks(self, other: LaneValue) -> bool:
        """Equal on category and ranks (the banker's tie rule ignores the rest)."""
        return self.category == other.category and self.ranks == other.ranks


@dataclass(frozen=True, slots=True)
class Arrangement:
    """A 3-5-5 split of a hand (摆牌)."""

    head: tuple[Card, ...]
    middle: tuple[Card, ...]
    tail: tuple[Card, ...]

    @classmethod
    def of(cls, head: Sequence[Card], middle: Sequence[Card], tail: Sequence[Card]) -> Arrangement:
        return cls(tuple(head), tuple(middle), tuple(tail))

    def lane(self, lane: Lane) -> tuple[Card, ...]:
        return (self.head, self.middle, self.tail)[lane]

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.head + self.middle + self.tail

    def to_tokens(self) -> dict[str, list[str]]:
        return {
            "head": [c.token for c in self.head],
            "middle": [c.token for c in self.middle],
            "tail": [c.token for c in self.tail],
        }


class MomentKind(StrEnum):
    """What a settlement can stamp on its showdown (bot.core.moments): a
    scoop (打枪), a home run (全垒打), a declared special (报道)."""

    HOME_RUN = "home_run"
    SCOOP = "scoop"
    SPECIAL = "special"
