"""Special hands (报道 / 特殊牌型), docs/rules.md §5.

``detect_special`` finds the highest special a 13-card hand may declare
under a table's rules. Wild cards (jokers; the wild rank's cards when they
stand for another card) may complete a special in ``extended``, which then
loses to the same special made naturally; in ``classic`` a hand holding a
joker cannot declare, except six of a kind (六同), and other specials must be
made without a wild card standing for another card.

**Decisions** (the sources are silent; docs/rules.md §5 lists them all):
- A straight flush lane counts as a straight for three straights and as a
  flush for three flushes (the property is of the cards, not the category).
- For six of a kind a wild card may stand for the sixth card in ``classic``
  as well, since that special exists only through jokers or a wild rank.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from functools import lru_cache
from itertools import product
from typing import Any

from .cards import ACE, SUITS, Card, sort_by_count
from .options import Preset, Rules
from .settlement_types import SpecialResult
from .types import Arrangement, SpecialHand

S = SpecialHand

POINTS: dict[Preset, dict[SpecialHand, int]] = {
    Preset.CLASSIC: {
        S.SUPREME_DRAGON: 72,
        S.DRAGON: 36,
        S.ALL_ADDED_SUIT: 30,
        S.SIX_OF_A_KIND: 5,
        S.ONE_COLOR: 5,
        S.FOUR_TRIPS: 5,
        S.SIX_PAIRS: 5,
        S.THREE_STRAIGHTS: 5,
        S.THREE_FLUSHES: 5,
    },
    Preset.EXTENDED: {
        S.SUPREME_DRAGON: 52,
        S.DRAGON: 26,
        S.TWELVE_ROYALS: 24,
        S.THREE_STRAIGHT_FLUSHES: 18,
        S.THREE_QUADS: 16,
        S.ALL_HIGH: 10,  # house default
        S.ALL_LOW: 10,  # house default
        S.ONE_COLOR: 10,  # house default
        S.DOUBLE_FULL_HOUSE: 8,  # house default
        S.FOUR_TRIPS: 6,  # house default
        S.FIVE_PAIRS_TRIPS: 5,  # house default
        S.SIX_PAIRS: 3,
        S.THREE_STRAIGHTS: 3,
        S.THREE_FLUSHES: 3,
    },
}

# Group shapes (sizes of same-rank groups) of the counting specials; the
# remaining cards are singles. A rank may hold several groups (quads = two pairs).
_GROUPS: dict[SpecialHand, tuple[int, ...]] = {
    S.THREE_QUADS: (4, 4, 4),
    S.SIX_OF_A_KIND: (6,),
    S.DOUBLE_FULL_HOUSE: (3, 3, 2, 2, 2),
    S.FOUR_TRIPS: (3, 3, 3, 3),
    S.FIVE_PAIRS_TRIPS: (3, 2, 2, 2, 2, 2),
    S.SIX_PAIRS: (2, 2, 2, 2, 2, 2),
}

# 3-card straights: A-2-3 up to Q-K-A; 5-card straights: A-2-3-4-5 up to 10-J-Q-K-A.
_HEAD_WINDOWS: tuple[frozenset[int], ...] = tuple(
    frozenset({ACE, 2, 3}) if lo == 1 else frozenset(range(lo, lo + 3)) for lo in range(1, 13)
)
_FIVE_WINDOWS: tuple[frozenset[int], ...] = tuple(
    frozenset({ACE, 2, 3, 4, 5}) if lo == 1 else frozenset(range(lo, lo + 5)) for lo in range(1, 11)
)


def special_points(hand: SpecialHand, rules: Rules) -> int | None:
    """The points of a special in this table's preset, or None if the preset
    does not have it (the hand is then arranged normally)."""
    table = POINTS[rules.preset]
    if hand not in table or (hand is S.ALL_ADDED_SUIT and rules.added_suit is None):
        return None
    return rules.special_points.get(hand.value, table[hand])


# -- counting specials --------------------------------------------------------


@lru_cache(maxsize=4096)
def _max_grouped(counts: tuple[int, ...], groups: tuple[int, ...]) -> int:
    """The most natural cards that fit into ``groups`` (each group one rank)."""
    if not counts or not groups:
        return 0
    c, rest = counts[0], counts[1:]
    best = _max_grouped(rest, groups)
    n = len(groups)
    seen = set()
    for mask in range(1, 1 << n):
        chosen = tuple(g for i, g in enumerate(groups) if mask >> i & 1)
        left = tuple(g for i, g in enumerate(groups) if not mask >> i & 1)
        key = (chosen, left)
        if key in seen:
            continue
        seen.add(key)
        best = max(best, min(c, sum(chosen)) + _max_grouped(rest, left))
    return best


def _groups_fit(naturals: Sequence[Card], wilds: int, groups: tuple[int, ...]) -> bool:
    counts = tuple(sorted(Counter(c.rank for c in naturals).values(), reverse=True))
    singles = len(naturals) + wilds - sum(groups)
    return _max_grouped(counts, tuple(sorted(groups))) >= len(naturals) - singles


# -- split specials -------------------------------------------------------------


def _place(
    naturals: Sequence[Card],
    wild_cards: Sequence[Card],
    lane_keys: Sequence[Sequence[Hashable]],
    key: Callable[[Card], Hashable],
) -> Arrangement:
    lanes: list[list[Card]] = [[], [], []]
    free = [list(k) for k in lane_keys]
    for card in naturals:
        k = key(card)
        for i in range(3):
            if k in free[i]:
                free[i].remove(k)
                lanes[i].append(card)
                break
        else:  # pragma: no cover - excluded by the count check
            raise AssertionError("special placement failed")
    wilds = list(wild_cards)
    for i, size in enumerate((3, 5, 5)):
        while len(lanes[i]) < size:
            lanes[i].append(wilds.pop())
    return Arrangement.of(lanes[0], lanes[1], lanes[2])


def _window_key(windows: tuple[frozenset[int], ...]) -> tuple[int, ...]:
    return tuple(sorted(r for w in windows for r in w))


# Every exact rank multiset of a three-straights split, for the natural case.
_SPLITS_BY_RANKS: dict[tuple[int, ...], list[tuple[frozenset[int], ...]]] = {}
for _h in _HEAD_WINDOWS:
    for _m in _FIVE_WINDOWS:
        for _t in _FIVE_WINDOWS:
            _SPLITS_BY_RANKS.setdefault(_window_key((_h, _m, _t)), []).append((_h, _m, _t))


def _three_straights(
    naturals: Sequence[Card], wild_cards: Sequence[Card], suited: bool
) -> Arrangement | None:
    """A split into a 3-card straight and two 5-card straights (all three
    straight flushes when ``suited``)."""
    suit_choices: list[tuple[str | None, ...]]
    key: Callable[[Card], Hashable]
    if suited:
        natural_suits = {c.suit for c in naturals}
        suit_choices = [
            s
            for s in product(SUITS, repeat=3)
            if natural_suits <= set(s) and _suits_fit(naturals, len(wild_cards), s)
        ]
        key = _rank_suit
    else:
        suit_choices = [(None, None, None)]
        key = _rank_only
    need: Counter[Any] = Counter(key(c) for c in naturals)
    if not wild_cards:
        # Without wild cards the windows hold exactly the hand's ranks.
        splits = _SPLITS_BY_RANKS.get(tuple(sorted(c.rank for c in naturals)), [])
        for windows in splits:
            for suits in suit_choices:
                keys = [
                    [(r, s) if suited else r for r in w]
                    for w, s in zip(windows, suits, strict=True)
                ]
                if Counter(k for lane in keys for k in lane) == need:
                    return _place(naturals, wild_cards, keys, key)
        return None
    if not suited:
        return _three_straights_wild(naturals, wild_cards)
    if _three_straights_wild(naturals, wild_cards) is None:
        return None  # every straight flush is a straight
    for suits in suit_choices:
        for head in _HEAD_WINDOWS:
            for mid in _FIVE_WINDOWS:
                lanes_keys: list[list[Any]] = [
                    [(r, suits[0]) if suited else r for r in head],
                    [(r, suits[1]) if suited else r for r in mid],
                ]
                cover = Counter(lanes_keys[0]) + Counter(lanes_keys[1])
                rest = {k: n - cover[k] for k, n in need.items() if n > cover[k]}
                if any(n > 1 for n in rest.values()):
                    continue
                if suited and any(k[1] != suits[2] for k in rest):
                    continue
                rest_ranks = {k[0] if suited else k for k in rest}
                for tail in _FIVE_WINDOWS:
                    if rest_ranks <= tail:
                        keys = [*lanes_keys, [(r, suits[2]) if suited else r for r in tail]]
                        return _place(naturals, wild_cards, keys, key)
    return None


_PAIR_COVERS: list[tuple[frozenset[int], frozenset[int], tuple[int, ...]]] = [
    (h, m, tuple((r in h) + (r in m) for r in range(15)))
    for h in _HEAD_WINDOWS
    for m in _FIVE_WINDOWS
]


def _three_straights_wild(
    naturals: Sequence[Card], wild_cards: Sequence[Card]
) -> Arrangement | None:
    """Three straights with wild cards filling any missing ranks."""
    need = [0] * 15
    for c in naturals:
        need[c.rank] += 1
    ranks = [r for r in range(15) if need[r]]
    for head, mid, cover in _PAIR_COVERS:
        rest = []
        for r in ranks:
            d = need[r] - cover[r]
            if d > 1:
                break
            if d == 1:
                rest.append(r)
        else:
            for tail in _FIVE_WINDOWS:
                if tail.issuperset(rest):
                    keys = [list(head), list(mid), list(tail)]
                    return _place(naturals, wild_cards, keys, _rank_only)
    return None


def _rank_suit(c: Card) -> tuple[int, str]:
    return (c.rank, c.suit)


def _rank_only(c: Card) -> int:
    return c.rank


def _suits_fit(naturals: Sequence[Card], wilds: int, suits: tuple[str | None, ...]) -> bool:
    cnt = Counter(c.suit for c in naturals)
    room: Counter[str | None] = Counter()
    for s, size in zip(suits, (3, 5, 5), strict=True):
        room[s] += size
    return all(room[s] >= n for s, n in cnt.items())


def _three_flushes(naturals: Sequence[Card], wild_cards: Sequence[Card]) -> Arrangement | None:
    natural_suits = {c.suit for c in naturals}
    for suits in product(SUITS, repeat=3):
        if natural_suits <= set(suits) and _suits_fit(naturals, len(wild_cards), suits):
            keys = [[s] * size for s, size in zip(suits, (3, 5, 5), strict=True)]
            return _place(naturals, wild_cards, keys, lambda c: c.suit)
    return None


# -- detection ---------------------------------------------------------------------


def _display(cards: Sequence[Card]) -> Arrangement:
    """A plain split for showing a special that needs no particular split."""
    ordered = sort_by_count(cards)
    return Arrangement.of(ordered[10:13], ordered[5:10], ordered[0:5])


def _makes(
    hand: SpecialHand, naturals: Sequence[Card], wild_cards: Sequence[Card], rules: Rules
) -> Arrangement | None:
    """The arrangement showing ``hand`` if the cards make it, else None."""
    cards = list(naturals) + list(wild_cards)
    w = len(wild_cards)
    ranks = [c.rank for c in naturals]
    suits = {c.suit for c in naturals}
    ok: bool
    if hand is S.SUPREME_DRAGON:
        ok = len(set(ranks)) == len(ranks) and len(suits) <= 1
    elif hand is S.DRAGON:
        ok = len(set(ranks)) == len(ranks)
    elif hand is S.ALL_ADDED_SUIT:
        ok = rules.added_suit is not None and suits <= {rules.added_suit}
    elif hand is S.TWELVE_ROYALS:
        ok = all(r >= 11 for r in ranks)
    elif hand is S.THREE_STRAIGHT_FLUSHES:
        if _three_flushes(naturals, wild_cards) is None:
            return None
        return _three_straights(naturals, wild_cards, suited=True)
    elif hand is S.THREE_STRAIGHTS:
        return _three_straights(naturals, wild_cards, suited=False)
    elif hand is S.THREE_FLUSHES:
        return _three_flushes(naturals, wild_cards)
    elif hand is S.ALL_HIGH:
        ok = all(r >= 8 for r in ranks)
    elif hand is S.ALL_LOW:
        ok = all(r <= 8 for r in ranks)
    elif hand is S.ONE_COLOR:
        ok = suits <= {"h", "d"} or suits <= {"s", "c"}
    else:
        ok = _groups_fit(naturals, w, _GROUPS[hand])
    if not ok:
        return None
    if hand in (S.SUPREME_DRAGON, S.DRAGON):
        ordered = sorted(naturals, key=lambda c: c.rank) + list(wild_cards)
        return Arrangement.of(ordered[0:3], ordered[3:8], ordered[8:13])
    return _display(cards)


def detect_special(cards: Sequence[Card], rules: Rules) -> SpecialResult | None:
    """The highest special these 13 cards may declare under ``rules``, or None."""
    if len(cards) != 13:
        return None
    jokers = [c for c in cards if c.is_joker]
    is_wild_rank = [rules.wild_rank is not None and c.rank == rules.wild_rank for c in cards]
    fixed = [c for c, wr in zip(cards, is_wild_rank, strict=True) if not wr and not c.is_joker]
    optional = [c for c, wr in zip(cards, is_wild_rank, strict=True) if wr]
    all_natural = [c for c in cards if not c.is_joker]
    for hand in SpecialHand:
        points = special_points(hand, rules)
        if points is None:
            continue
        natural = None if jokers else _makes(hand, all_natural, [], rules)
        if natural is not None:
            return SpecialResult(hand, points, True, natural)
        wilds_allowed = rules.preset is Preset.EXTENDED or hand is S.SIX_OF_A_KIND
        if not wilds_allowed or not (jokers or optional):
            continue
        # A wild card may also stand for itself, so all of them as wild
        # covers every way of using them.
        made = _makes(hand, fixed, jokers + optional, rules)
        if made is not None:
            return SpecialResult(hand, points, False, made)
    return None


def special_beats(a: SpecialResult, b: SpecialResult) -> int:
    """+1 if special ``a`` beats ``b``, -1 if it loses, 0 for a tie:
    more points, then higher in the order, then natural over wild."""
    if a.points != b.points:
        return 1 if a.points > b.points else -1
    if a.hand != b.hand:
        return 1 if a.hand.order < b.hand.order else -1
    if a.natural != b.natural:
        return 1 if a.natural else -1
    return 0
