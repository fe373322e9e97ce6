"""Index arrays of every 3-5-5 split, built once per hand size.

For 13 cards: all ordered (tail, middle) pairs of disjoint 5-card subsets,
the head being the 3 cards left (C(13,5) * C(8,5) = 72,072 rows). For 16
cards (多三张) the same pairs leave 6 cards, of which the head takes 3 and 3
are discarded: 4,368 * 462 = 2,018,016 rows, each pointing at its 6-card
rest; the best legal head of a rest is chosen per row by the search.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

import numpy as np


def _combos(n: int, k: int) -> np.ndarray:
    return np.array(list(combinations(range(n), k)), dtype=np.intp)


def _masks(idx: np.ndarray) -> np.ndarray:
    return np.asarray((np.int64(1) << idx.astype(np.int64)).sum(axis=1))


@dataclass(frozen=True)
class Splits:
    n: int
    five: np.ndarray  # (C(n,5), 5) card positions of each 5-card subset
    three: np.ndarray  # (C(n,3), 3)
    tail: np.ndarray  # row -> index into five; rows come in blocks of one tail
    middle: np.ndarray  # row -> index into five
    rest: np.ndarray  # row -> index into three (n = 13) or into sixes (n = 16)
    sixes: np.ndarray | None = None  # (C(16,6), 20) indices into three, per 6-card rest


@lru_cache(maxsize=2)
def splits(n: int) -> Splits:
    if n not in (13, 16):
        raise ValueError(f"a hand has 13 or 16 cards, not {n}")
    five, three = _combos(n, 5), _combos(n, 3)
    m5, m3 = _masks(five), _masks(three)
    full = (1 << n) - 1
    id3 = np.full(1 << n, -1, dtype=np.int32)
    id3[m3] = np.arange(len(three), dtype=np.int32)
    id5 = np.full(1 << n, -1, dtype=np.int32)
    id5[m5] = np.arange(len(five), dtype=np.int32)
    # For each tail, the middles are the 5-subsets of the n - 5 cards left.
    left = np.array([[c for c in range(n) if not (m >> c) & 1] for m in m5], dtype=np.int64)
    local = _combos(n - 5, 5)
    mid_cards = left[:, local]  # (tails, C(n-5,5), 5)
    mid_mask = (np.int64(1) << mid_cards).sum(axis=2)
    tail = np.repeat(np.arange(len(five), dtype=np.int32), len(local))
    middle = id5[mid_mask.ravel()]
    rest_mask = full ^ (m5[tail] | mid_mask.ravel())
    tail, middle = tail.astype(np.intp), middle.astype(np.intp)
    if n == 13:
        return Splits(n, five, three, tail, middle, id3[rest_mask].astype(np.intp))
    six = _combos(n, 6)
    m6 = _masks(six)
    id6 = np.full(1 << n, -1, dtype=np.int32)
    id6[m6] = np.arange(len(six), dtype=np.int32)
    # The 20 heads of each 6-card rest, as indices into ``three``.
    local3 = _combos(6, 3)
    six_heads = id3[(np.int64(1) << six[:, local3].astype(np.int64)).sum(axis=2)]
    return Splits(
        n, five, three, tail, middle, id6[rest_mask].astype(np.intp), six_heads.astype(np.intp)
    )
