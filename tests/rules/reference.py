"""An independent reference of docs/rules.md §2-§3 (lane keys, foul check), for tests only.

Written from docs/rules.md alone, without reading bot/rules/lanes.py or foul.py, and
deliberately brute force: a lane holding jokers or wild-rank cards (百变) is
evaluated by trying every substitution of every wild card (jokers by any of
the 52 cards, wild-rank cards also by themselves) and keeping the maximum of
(category, ranks, not-added-suit, -wild cards standing for another card).

Keys are plain tuples compared with Python's tuple order, which already has
the "a longer rank list wins when one is a prefix of the other" rule that
compares a 3-card head with a 5-card middle (docs/rules.md §3). Only the ORDER of
keys is meant to match the engine, never their representation.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from itertools import combinations, combinations_with_replacement
from typing import NamedTuple

from bot.rules.cards import RANKS, SUITS, Card
from bot.rules.options import Rules, Wheel

# Categories, same numbering as bot.rules.types.Category (only for names).
HIGH, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH, FIVE = range(1, 11)
CATEGORY_SLUGS = {
    HIGH: "high_card",
    PAIR: "one_pair",
    TWO_PAIR: "two_pair",
    TRIPS: "three_of_a_kind",
    STRAIGHT: "straight",
    FLUSH: "flush",
    FULL_HOUSE: "full_house",
    QUADS: "four_of_a_kind",
    STRAIGHT_FLUSH: "straight_flush",
    FIVE: "five_of_a_kind",
}

Plain = tuple[int, str]  # (rank 2..14, suit) of a concrete card
Key = tuple  # (category, ranks, not_added_suit, -wilds)

ALL_52: tuple[Plain, ...] = tuple((r, s) for s in SUITS for r in RANKS)


class _Ctx(NamedTuple):
    """The parts of Rules a lane key depends on (hashable, for the cache)."""

    wild_rank: int | None
    added_suit: str | None
    wheel: Wheel


def is_joker(c: Card) -> bool:
    return c.rank > 14


def is_wild_rank(c: Card, rules: Rules | _Ctx) -> bool:
    return not is_joker(c) and rules.wild_rank is not None and c.rank == rules.wild_rank


def straight_value(ranks_desc: Sequence[int], wheel: Wheel) -> int | None:
    """Straight order of five different ranks, doubled so the wheel fits between:
    A-K-Q-J-10 = 28 > A-2-3-4-5 = 27 (second) > K-high = 26 > ... > 6-high = 12
    (> A-2-3-4-5 = 10 when the wheel is low). None when not a straight."""
    if len(set(ranks_desc)) != 5:
        return None
    if ranks_desc[0] - ranks_desc[4] == 4:
        return 2 * ranks_desc[0]
    if list(ranks_desc) == [14, 5, 4, 3, 2]:
        return 27 if wheel is Wheel.SECOND else 10
    return None


def _grouped(ranks: Sequence[int]) -> tuple[list[int], tuple[int, ...]]:
    """Group sizes (biggest first) and the ranks in that order (bigger group,
    then higher rank first): the rank list of every grouped category."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    grouped = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    return [n for _, n in grouped], tuple(r for r, _ in grouped)


def concrete5(cards: Sequence[Plain], rules: Rules | _Ctx) -> tuple[int, tuple[int, ...], int]:
    """(category, ranks, not_added_suit) of five concrete cards (duplicates allowed:
    a joker may copy a card held elsewhere, and the 65-card deck has doubles)."""
    ranks = sorted((r for r, _ in cards), reverse=True)
    shape, order = _grouped(ranks)
    suits = {s for _, s in cards}
    sixty_five = rules.added_suit is not None
    # Outside the 65-card deck a flush has five different ranks (docs/rules.md §2).
    flush = len(suits) == 1 and (len(shape) == 5 or sixty_five)
    added_flag = 0 if flush and rules.added_suit in suits else 1
    sv = straight_value(ranks, rules.wheel)
    if shape[0] == 5:
        return FIVE, order, 1
    if sv is not None and flush:
        return STRAIGHT_FLUSH, (sv,), added_flag
    if shape[0] == 4:
        return QUADS, order, 1
    if shape[:2] == [3, 2]:
        return FULL_HOUSE, order, 1
    if flush:
        if sixty_five:
            # 65-card deck: two pairs > one pair > no pair, pair ranks, then all ranks.
            pairs = tuple(r for r, n in zip(order, shape, strict=True) if n == 2)
            return FLUSH, (len(pairs), *pairs, *ranks), added_flag
        return FLUSH, tuple(ranks), added_flag
    if sv is not None:
        return STRAIGHT, (sv,), 1
    if shape[0] == 3:
        return TRIPS, order, 1
    if shape[:2] == [2, 2]:
        return TWO_PAIR, order, 1
    if shape[0] == 2:
        return PAIR, order, 1
    return HIGH, tuple(ranks), 1


def concrete3(cards: Sequence[Plain]) -> tuple[int, tuple[int, ...], int]:
    """A head: three of a kind > one pair > high card; never a straight or flush."""
    shape, order = _grouped([r for r, _ in cards])
    n = shape[0]
    return (TRIPS if n == 3 else PAIR if n == 2 else HIGH), order, 1


def _substitutions(fixed: Sequence[Plain], m: int) -> Iterator[tuple[Plain, ...]]:
    """Every multiset of m cards the wild cards may stand for, up to suits that
    cannot change the key: suits matter only through "all five of one suit"
    (and which suit that is), so when the fixed cards already hold two suits a
    single suit serves, and otherwise their suit plus one other suit does. A
    test checks this against all 52 cards on random lanes."""
    present = sorted({s for _, s in fixed})
    if len(present) >= 2:
        suits = present[:1]
    else:
        suits = present + [s for s in SUITS if s not in present][: 2 - len(present)]
    pool = [(r, s) for s in suits for r in RANKS]
    yield from combinations_with_replacement(pool, m)


def lane_key(cards: Sequence[Card], rules: Rules, *, full_52: bool = False) -> Key:
    """The comparison key of a 3- or 5-card lane (docs/rules.md §2): the best
    (category, ranks, not_added_suit, -wilds) over every substitution."""
    if len(cards) not in (3, 5):
        raise ValueError("a lane has 3 or 5 cards")
    ctx = _Ctx(rules.wild_rank, rules.added_suit, rules.wheel)
    return _lane_key(tuple(sorted(cards)), ctx, full_52)


@cache
def _lane_key(cards: tuple[Card, ...], rules: _Ctx, full_52: bool) -> Key:
    jokers = [c for c in cards if is_joker(c)]
    wilds = [c for c in cards if is_wild_rank(c, rules)]
    plain = [(c.rank, c.suit) for c in cards if not is_joker(c) and not is_wild_rank(c, rules)]
    best: Key | None = None
    for k in range(len(wilds) + 1):
        for selves in combinations(wilds, k):  # these stand for themselves (natural)
            fixed = plain + [(c.rank, c.suit) for c in selves]
            m = len(jokers) + len(wilds) - k
            subs_iter: Iterable[tuple[Plain, ...]]
            if full_52:
                subs_iter = combinations_with_replacement(ALL_52, m)
            else:
                subs_iter = _substitutions(fixed, m)
            for subs in subs_iter:
                hand = fixed + list(subs)
                cat, ranks, flag = concrete3(hand) if len(hand) == 3 else concrete5(hand, rules)
                key = (cat, ranks, flag, -m)
                if best is None or key > best:
                    best = key
    assert best is not None
    return best


def category_of(cards: Sequence[Card], rules: Rules) -> int:
    return lane_key(cards, rules)[0]


HEAD_POINTS = {TRIPS: 3}
MIDDLE_POINTS = {FIVE: 20, STRAIGHT_FLUSH: 10, QUADS: 8, FULL_HOUSE: 2}
TAIL_POINTS = {FIVE: 10, STRAIGHT_FLUSH: 5, QUADS: 4}


def lane_points(lane: int, category: int) -> int:
    """What a lane wins when it wins (docs/rules.md §4 table); lane 0/1/2 = head/middle/tail."""
    table = (HEAD_POINTS, MIDDLE_POINTS, TAIL_POINTS)[lane]
    return table.get(category, 1)


def is_fouled(
    head: Sequence[Card], middle: Sequence[Card], tail: Sequence[Card], rules: Rules
) -> bool:
    """head <= middle <= tail on the full key (joker tie-break included), docs/rules.md §3."""
    h, m, t = lane_key(head, rules), lane_key(middle, rules), lane_key(tail, rules)
    return h > m or m > t


def cmp(a: Key, b: Key) -> int:
    return (a > b) - (a < b)
