"""Lane evaluation (牌型), docs/rules.md §2: the comparison key of a 3- or 5-card lane.

Wild cards are jokers (always wild) and, under 百变, the cards of the wild
rank, which may stand for themselves (then they are natural) or for any
card. A lane counts as the best hand it can form; among equal hands the one
with fewer wild cards standing for another card wins (真大于假).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations

from .cards import ACE, Card
from .options import Rules, Wheel
from .types import Category, Lane, LaneValue

_DEFAULT_RULES = Rules()

# Straight windows, each the set of its ranks and its high card (5 = the wheel).
_WINDOWS: tuple[tuple[frozenset[int], int], ...] = tuple(
    (frozenset({ACE, 2, 3, 4, 5}) if high == 5 else frozenset(range(high - 4, high + 1)), high)
    for high in range(5, 15)
)


def straight_value(high: int, wheel: Wheel) -> int:
    """Order of a straight by its high card (5 = A-2-3-4-5).

    Wheel ``second``: A-K-Q-J-10 > A-2-3-4-5 > K-high > … > 6-high.
    Wheel ``low``: the wheel is the lowest straight.
    """
    if wheel is Wheel.SECOND:
        if high == ACE:
            return 15
        if high == 5:
            return 14
    return high


def _best_straight(ranks: Iterable[int], wheel: Wheel) -> int | None:
    """The best straight value whose window holds all ``ranks`` (distinct), or None."""
    need = set(ranks)
    best = None
    for window, high in _WINDOWS:
        if need <= window:
            v = straight_value(high, wheel)
            if best is None or v > best:
                best = v
    return best


def _multiset_best(ranks: Sequence[int], wilds: int, size: int) -> tuple[Category, tuple[int, ...]]:
    """Best hand by rank multiplicity alone (no straight/flush).

    Putting every wild card on the most frequent rank (the higher on a tie; an
    ace when there is no natural card) is optimal for these categories.
    """
    cnt = Counter(ranks)
    if wilds:
        target = max(cnt, key=lambda r: (cnt[r], r)) if cnt else ACE
        cnt[target] += wilds
    groups = sorted(cnt.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = [c for _, c in groups]
    order = tuple(r for r, _ in groups)
    if size == 3:
        if shape[0] == 3:
            return Category.THREE_OF_A_KIND, order
        if shape[0] == 2:
            return Category.ONE_PAIR, order
        return Category.HIGH_CARD, order
    if shape[0] >= 5:
        return Category.FIVE_OF_A_KIND, order[:1]
    if shape[0] == 4:
        return Category.FOUR_OF_A_KIND, order
    if shape[:2] == [3, 2]:
        return Category.FULL_HOUSE, order
    if shape[0] == 3:
        return Category.THREE_OF_A_KIND, order
    if shape[:2] == [2, 2]:
        return Category.TWO_PAIR, order
    if shape[0] == 2:
        return Category.ONE_PAIR, order
    return Category.HIGH_CARD, order


def _flush_ranks(ranks: Sequence[int], wilds: int) -> tuple[int, ...]:
    """The flush key: (pairs, pair ranks high→low, all ranks high→low).

    Pairs occur only in the 65-card deck; wild cards take the best ranks
    missing from the flush (a flush has five different ranks otherwise).
    """
    filled = list(ranks)
    r = ACE
    while len(filled) < 5:
        if r not in filled:
            filled.append(r)
        r -= 1
    cnt = Counter(filled)
    pairs = sorted((r for r, c in cnt.items() if c >= 2), reverse=True)
    return (len(pairs), *pairs, *sorted(filled, reverse=True))


def _evaluate(
    naturals: Sequence[Card], wilds: int, rules: Rules
) -> tuple[Category, tuple[int, ...], int]:
    """(category, ranks, not-added-suit flag) of the best hand."""
    size = len(naturals) + wilds
    ranks = [c.rank for c in naturals]
    best_cat, best_ranks = _multiset_best(ranks, wilds, size)
    best: tuple[Category, tuple[int, ...], int] = (best_cat, best_ranks, 1)
    if size == 3:
        return best
    suits = {c.suit for c in naturals}
    distinct = len(set(ranks)) == len(ranks)
    one_suit = len(suits) <= 1
    # The added suit loses ties, so a flush of free wild cards picks another suit.
    flag = 0 if (suits and next(iter(suits)) == rules.added_suit) else 1
    if distinct:
        high = _best_straight(ranks, rules.wheel)
        if high is not None:
            cand = (
                (Category.STRAIGHT_FLUSH, (high,), flag)
                if one_suit
                else (Category.STRAIGHT, (high,), 1)
            )
            best = max(best, cand)
    if one_suit and (distinct or not wilds):
        best = max(best, (Category.FLUSH, _flush_ranks(ranks, wilds), flag))
    return best


def evaluate_lane(cards: Sequence[Card], rules: Rules | None = None) -> LaneValue:
    """The comparison key of a head (3 cards) or a middle/tail (5 cards)."""
    rules = rules or _DEFAULT_RULES
    if len(cards) not in (3, 5):
        raise ValueError(f"a lane has 3 or 5 cards, not {len(cards)}")
    jokers = sum(1 for c in cards if c.is_joker)
    optional = [c for c in cards if rules.wild_rank is not None and c.rank == rules.wild_rank]
    fixed = [
        c
        for c in cards
        if not c.is_joker and not (rules.wild_rank is not None and c.rank == rules.wild_rank)
    ]
    best: LaneValue | None = None
    # Each wild-rank card either stands for itself (natural) or is wild.
    for k in range(len(optional) + 1):
        for as_wild in combinations(range(len(optional)), k):
            naturals = fixed + [c for i, c in enumerate(optional) if i not in as_wild]
            wilds = jokers + k
            cat, ranks, flag = _evaluate(naturals, wilds, rules)
            value = LaneValue(cat, ranks, flag, -wilds)
            if best is None or value > best:
                best = value
    assert best is not None
    return best


_POINTS = {
    Lane.HEAD: {Category.THREE_OF_A_KIND: 3},
    Lane.MIDDLE: {
        Category.FIVE_OF_A_KIND: 20,
        Category.STRAIGHT_FLUSH: 10,
        Category.FOUR_OF_A_KIND: 8,
        Category.FULL_HOUSE: 2,
    },
    Lane.TAIL: {
        Category.FIVE_OF_A_KIND: 10,
        Category.STRAIGHT_FLUSH: 5,
        Category.FOUR_OF_A_KIND: 4,
    },
}


def lane_points(lane: Lane, value: LaneValue | Category) -> int:
    """What a lane wins when it wins (docs/rules.md §4 table; both presets)."""
    cat = value.category if isinstance(value, LaneValue) else value
    return _POINTS[Lane(lane)].get(cat, 1)
