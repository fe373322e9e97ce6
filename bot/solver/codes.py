"""Lane strength codes: every lane comparison key of the rules as one int64.

A code orders lanes exactly as ``bot.rules.evaluate_lane``'s ``LaneValue``
does (category, rank list with the head-vs-middle prefix rule, added-suit
tiebreak, natural beats wild), so ``head <= middle <= tail`` on codes is the
foul check. Layout, high bits to low::

    category (4 bits) | 6 rank slots (4 bits each, 0 = empty) | not-added-suit (1) | natural (3)

Empty slots are 0 and ranks are >= 2, so a shorter rank list loses to a
longer one it is a prefix of (how a 3-card head meets a 5-card middle).
``natural`` is 5 minus the wild cards standing for another card.

Codes are read from lookup tables keyed by the multiset of natural ranks and
the number of wild cards: natural hands are evaluated once per rank multiset
(8,568 of them) in plain Python, and a hand with ``j`` wild cards is the best
over the first wild card's rank of the hand with ``j - 1`` (the recursion
covers every assignment of the wild cards). A table lookup is then a
``searchsorted`` over numpy arrays, so all 1,287 five-card subsets of a hand
cost a few array operations.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement

import numpy as np

from bot.rules import Card, Category, Rules, Wheel

RANKS = tuple(range(2, 15))
ACE = 14
NATURAL_BITS = 3
ADDED_BIT = 1 << NATURAL_BITS  # set when the lane is NOT a flush of the added suit
RANK_SHIFT = NATURAL_BITS + 1
CAT_SHIFT = RANK_SHIFT + 24
WILD_KEY = 8**13  # a wild card in a rank-multiset key (counts live in base-8 digits)
MAX_WILDS = 5


def rank_key(rank: int) -> int:
    return int(8 ** (rank - 2))


def encode(category: int, ranks: Sequence[int], not_added: int = 1, wilds: int = 0) -> int:
    field = 0
    for i in range(6):
        field = (field << 4) | (ranks[i] if i < len(ranks) else 0)
    return (((category << 24) | field) << 1 | not_added) << NATURAL_BITS | (MAX_WILDS - wilds)


def category_of(code: np.ndarray | int) -> np.ndarray | int:
    return code >> CAT_SHIFT


def straight_value(high: int, wheel: Wheel) -> int:
    """Broadway 15 > wheel 14 > K-high 13 … (wheel ``second``); wheel = 5 when ``low``."""
    if wheel is Wheel.SECOND and high in (ACE, 5):
        return 15 if high == ACE else 14
    return high


def _straight_high(ranks: Sequence[int]) -> int | None:
    s = sorted(ranks)
    if len(set(s)) != 5:
        return None
    if s == [2, 3, 4, 5, ACE]:
        return 5
    return s[-1] if s[-1] - s[0] == 4 else None


def natural5(ranks: Sequence[int], flush: bool, wheel: Wheel, pairs_in_flush: bool) -> int | None:
    """Code of 5 natural cards (``flush``: all one suit); None for an impossible flush."""
    cnt = Counter(ranks)
    groups = sorted(cnt.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = [c for _, c in groups]
    order = [r for r, _ in groups]
    high = _straight_high(ranks)
    if flush:
        if len(cnt) < 5 and not (pairs_in_flush and shape[0] <= 2):
            return None
        if high is not None:
            return encode(Category.STRAIGHT_FLUSH, [straight_value(high, wheel)])
        pairs = sorted((r for r, c in cnt.items() if c == 2), reverse=True)
        kickers = sorted((r for r, c in cnt.items() if c == 1), reverse=True)
        return encode(Category.FLUSH, [len(pairs), *pairs, *kickers])
    if shape[0] >= 5:
        return encode(Category.FIVE_OF_A_KIND, order[:1])
    if shape[0] == 4:
        return encode(Category.FOUR_OF_A_KIND, order)
    if shape[:2] == [3, 2]:
        return encode(Category.FULL_HOUSE, order)
    if high is not None:
        return encode(Category.STRAIGHT, [straight_value(high, wheel)])
    if shape[0] == 3:
        return encode(Category.THREE_OF_A_KIND, order)
    if shape[:2] == [2, 2]:
        return encode(Category.TWO_PAIR, order)
    if shape[0] == 2:
        return encode(Category.ONE_PAIR, order)
    return encode(Category.HIGH_CARD, order)


def natural3(ranks: Sequence[int]) -> int:
    cnt = Counter(ranks)
    groups = sorted(cnt.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    order = [r for r, _ in groups]
    cat = {3: Category.THREE_OF_A_KIND, 2: Category.ONE_PAIR}.get(groups[0][1], Category.HIGH_CARD)
    return encode(cat, order)


@dataclass(frozen=True)
class LaneTable:
    """Codes by (rank multiset + wild count) key, sorted for ``searchsorted``."""

    keys: np.ndarray  # int64, sorted
    plain: np.ndarray  # int64 code when the natural cards are not all one suit
    suited: np.ndarray  # int64 code when they are (flush options included)

    def lookup(self, key: np.ndarray, suit_mask: np.ndarray | None) -> np.ndarray:
        pos = np.searchsorted(self.keys, key)
        if suit_mask is None:
            return self.plain[pos]
        one_suit = (suit_mask & (suit_mask - 1)) == 0
        return np.where(one_suit, self.suited[pos], self.plain[pos])


def _ms_key(ranks: Sequence[int], wilds: int) -> int:
    return sum(rank_key(r) for r in ranks) + wilds * WILD_KEY


@lru_cache(maxsize=8)
def lane_table(size: int, wheel: Wheel, deck65: bool) -> LaneTable:
    """Build (once) the table of one lane size under one wheel/deck setting."""
    plain: dict[tuple[int, ...], int] = {}
    suited: dict[tuple[int, ...], int] = {}
    nat_bits = MAX_WILDS  # natural field is filled in per wild count below
    for ms in combinations_with_replacement(RANKS, size):
        if size == 3:
            plain[ms] = natural3(ms) - nat_bits
        else:
            code = natural5(ms, False, wheel, deck65)
            assert code is not None  # only a flush can be impossible
            plain[ms] = code - nat_bits
            f = natural5(ms, True, wheel, deck65)
            suited[ms] = -1 if f is None else f - nat_bits
    keys, out_plain, out_suited = [], [], []
    layer_p, layer_s = plain, suited
    for wilds in range(0, min(size, MAX_WILDS) + 1):
        if wilds:
            nxt_p: dict[tuple[int, ...], int] = {}
            nxt_s: dict[tuple[int, ...], int] = {}
            for ms in combinations_with_replacement(RANKS, size - wilds):
                nxt_p[ms] = max(layer_p[tuple(sorted((*ms, r)))] for r in RANKS)
                if size == 5:
                    nxt_s[ms] = max(layer_s[tuple(sorted((*ms, r)))] for r in RANKS)
            layer_p, layer_s = nxt_p, nxt_s
        for ms, code in layer_p.items():
            keys.append(_ms_key(ms, wilds))
            nat = MAX_WILDS - wilds
            out_plain.append(code + nat)
            best_suited = max(code, layer_s.get(ms, -1)) if size == 5 else code
            out_suited.append(best_suited + nat)
    k = np.array(keys, dtype=np.int64)
    order = np.argsort(k)
    return LaneTable(
        k[order], np.array(out_plain, np.int64)[order], np.array(out_suited, np.int64)[order]
    )


SUIT_BIT = {"s": 1, "h": 2, "d": 4, "c": 8}


@dataclass(frozen=True)
class CardArrays:
    """Per-card numbers the vectorized evaluator reads."""

    ranks: np.ndarray  # int8, 2..14 (0 for a joker)
    keys: np.ndarray  # int64 rank-multiset key (WILD_KEY for a joker)
    suits: np.ndarray  # int64 suit bit (0 for a joker)
    wild_rank_pos: tuple[int, ...]  # positions of cards of the wild rank (百变)


def card_arrays(cards: Sequence[Card], rules: Rules) -> CardArrays:
    ranks = np.array([0 if c.is_joker else c.rank for c in cards], dtype=np.int8)
    keys = np.array([WILD_KEY if c.is_joker else rank_key(c.rank) for c in cards], dtype=np.int64)
    suits = np.array([0 if c.is_joker else SUIT_BIT[c.suit] for c in cards], dtype=np.int64)
    wild = tuple(
        i for i, c in enumerate(cards) if rules.wild_rank is not None and c.rank == rules.wild_rank
    )
    return CardArrays(ranks, keys, suits, wild)


def subset_codes(arrays: CardArrays, idx: np.ndarray, rules: Rules) -> np.ndarray:
    """Codes of the lanes ``idx`` (rows of card positions, 3 or 5 columns)."""
    size = idx.shape[1]
    deck65 = rules.added_suit is not None
    table = lane_table(size, rules.wheel, deck65)
    added = SUIT_BIT[rules.added_suit] if rules.added_suit is not None else 0
    best: np.ndarray | None = None
    wild = arrays.wild_rank_pos
    # Each wild-rank card stands for itself or is wild: the lane takes the best.
    for mask in range(1 << len(wild)):
        keys, suits = arrays.keys, arrays.suits
        if mask:
            keys, suits = keys.copy(), suits.copy()
            for b, pos in enumerate(wild):
                if mask >> b & 1:
                    keys[pos] = WILD_KEY
                    suits[pos] = 0
        key = keys[idx].sum(axis=1)
        if size == 5:
            sm = np.bitwise_or.reduce(suits[idx], axis=1)
            codes = table.lookup(key, sm)
            if added:
                codes = codes - ADDED_BIT * (sm == added)
        else:
            codes = table.lookup(key, None)
        best = codes if best is None else np.maximum(best, codes)
    assert best is not None
    return best


def lane_code(cards: Sequence[Card], rules: Rules) -> int:
    """The code of one lane (3 or 5 cards)."""
    arrays = card_arrays(cards, rules)
    idx = np.arange(len(cards), dtype=np.intp)[None, :]
    return int(subset_codes(arrays, idx, rules)[0])
