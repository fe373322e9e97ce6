"""The Pareto frontier of a hand's legal splits (帕累托前沿).

If split A is at least as strong as split B in every lane, A scores at least
as well as B against every opponent arrangement: each lane A wins is one B
wins (or ties) too, and a lane's points only grow with its strength, so
lane points, scoops, 辗过 and home runs all favour A. A best response
therefore always lies among the splits that no other legal split dominates
(lane by lane, on the lane codes): typically 10-500 distinct (head, middle,
tail) code triples instead of 72,072 rows.

Dominance is found on a grid: middle and head codes are replaced by their
dense ranks, ``best[m, h]`` holds the strongest tail of a row with exactly
that middle and head, and a suffix maximum over both axes tells, for each
row, the strongest tail among rows at least as strong in the middle and the
head. A row is on the frontier when that tail is its own and no row with
the same tail is stronger in the middle or the head.
"""

from __future__ import annotations

import numpy as np

from .arrays import I64
from .search import HandEval, Rows


def _dense(codes: I64) -> tuple[I64, int]:
    """Dense ranks (0 = weakest) of ``codes`` and how many distinct codes."""
    uniq, inv = np.unique(codes, return_inverse=True)
    return inv.astype(np.int64), len(uniq)


def frontier(he: HandEval, rows: Rows) -> Rows:
    """The non-dominated rows among the legal ones of ``rows`` (an illegal
    row has value -inf), one row per distinct (head, middle, tail) code
    triple, strongest tail first."""
    finite = np.isfinite(rows.value)
    if not finite.all():
        rows = rows.take(np.flatnonzero(finite))
    # Ranks of the hand's subsets, then looked up per row (sorting 1,287
    # codes instead of tens of thousands of rows).
    rank5, n5 = _dense(he.c5)
    rank3, n3 = _dense(he.c3)
    tail_rank, mid_rank, head_rank = rank5[rows.tail], rank5[rows.middle], rank3[rows.head]
    # The grid is kept flat (cell = middle * width + head): ufunc.at and
    # the lookups below are several times faster with one index array.
    width = n3 + 1  # padded: a row and a column past the end
    cell = mid_rank * width + head_rank
    tail16 = tail_rank.astype(np.int16)
    best = np.full((n5 + 1) * width, -1, dtype=np.int16)
    np.maximum.at(best, cell, tail16)
    # Suffix maxima: best tail among middles >= m and heads >= h.
    grid = np.maximum.accumulate(best.reshape(n5 + 1, width)[::-1, ::-1], axis=0)
    best = np.ascontiguousarray(np.maximum.accumulate(grid, axis=1)[::-1, ::-1]).ravel()
    on_front = (
        (best.take(cell) == tail16)
        & (best.take(cell + width) < tail16)
        & (best.take(cell + 1) < tail16)
    )
    keep = np.flatnonzero(on_front)
    # One row per code triple: the same codes settle identically against
    # every opponent, whichever equal-rank cards they use.
    key = (tail_rank[keep] * n5 + mid_rank[keep]) * n3 + head_rank[keep]
    _, first = np.unique(-key, return_index=True)  # strongest tail, middle, head first
    return rows.take(keep[first])
