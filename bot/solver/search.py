"""Enumerate the legal splits of one hand and rank them by per-lane values.

The search is model-free: it takes, for each lane, a value per subset code
(numpy arrays aligned with the hand's 5-card and 3-card subsets) and returns
the legal rows with the highest sum of lane values. ``model`` supplies those
values (expected points, or strength percentiles for the baseline) and
re-ranks the best rows with the non-separable terms (scoops, home run, cap).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from bot.rules import Arrangement, Card, Rules

from .codes import CAT_SHIFT, RANK_SHIFT, card_arrays, subset_codes
from .splits import Splits, splits


@dataclass(frozen=True)
class HandEval:
    cards: tuple[Card, ...]
    sp: Splits
    c5: np.ndarray  # code of each 5-card subset
    c3: np.ndarray  # code of each 3-card subset


def evaluate_hand(cards: Sequence[Card], rules: Rules) -> HandEval:
    cards = tuple(cards)
    sp = splits(len(cards))
    arrays = card_arrays(cards, rules)
    return HandEval(
        cards, sp, subset_codes(arrays, sp.five, rules), subset_codes(arrays, sp.three, rules)
    )


@dataclass(frozen=True)
class Rows:
    """Candidate splits: subset indices per lane and their summed value."""

    tail: np.ndarray
    middle: np.ndarray
    head: np.ndarray
    value: np.ndarray

    def __len__(self) -> int:
        return len(self.value)

    def take(self, order: np.ndarray) -> Rows:
        return Rows(self.tail[order], self.middle[order], self.head[order], self.value[order])


TAIL_CHUNK = 256  # 16 cards: tails whose rows are scored together


def _rows_16(
    he: HandEval,
    v_tail: np.ndarray,
    v_mid: np.ndarray,
    v_head: np.ndarray,
    best: tuple[np.ndarray, np.ndarray],
    idx: np.ndarray,
    limit: int | None,
) -> Rows:
    """Legal rows among ``idx`` (16 cards), each with its best legal head.

    First guess: the best head of the 6-card rest, whoever the middle (``best``
    = (head, value) per rest); rows where it beats the middle are fixed by
    ``_refine_16``, only those that could still reach the ``limit`` best.
    """
    sp = he.sp
    tail, middle = sp.tail[idx], sp.middle[idx]
    tc, mc = he.c5[tail], he.c5[middle]
    keep = np.flatnonzero(mc <= tc)
    tail, middle, rest, mc = tail[keep], middle[keep], sp.rest[idx[keep]], mc[keep]
    head, head_val = best[0][rest], best[1][rest]
    ok = he.c3[head] <= mc
    value = v_tail[tail] + v_mid[middle] + head_val
    bad = np.flatnonzero(~ok)
    good_vals = value[ok]
    if limit is not None and len(good_vals) > limit:
        # A row's value with its illegal best head bounds its true value.
        cutoff = np.partition(good_vals, len(good_vals) - limit)[len(good_vals) - limit]
        bad = bad[value[bad] > cutoff]
    if len(bad):
        _refine_16(he, rest, mc, v_head, head, head_val, ok, bad)
        value[bad] = v_tail[tail[bad]] + v_mid[middle[bad]] + head_val[bad]
    sel = np.flatnonzero(ok)
    return Rows(tail[sel], middle[sel], head[sel], value[sel])


def _refine_16(
    he: HandEval,
    rest: np.ndarray,
    mid_code: np.ndarray,
    v3: np.ndarray,
    head: np.ndarray,
    head_val: np.ndarray,
    ok: np.ndarray,
    rows_idx: np.ndarray,
) -> None:
    """Best legal head of the rows ``rows_idx`` (their best head was illegal)."""
    sixes = he.sp.sixes
    assert sixes is not None
    cand = sixes[rest[rows_idx]]  # (rows, 20)
    vals = np.where(he.c3[cand] <= mid_code[rows_idx, None], v3[cand], -np.inf)
    col = np.argmax(vals, axis=1)
    pick = vals[np.arange(len(rows_idx)), col]
    head[rows_idx] = cand[np.arange(len(rows_idx)), col]
    head_val[rows_idx] = pick
    # A rest whose every head beats the middle (say A A K K Q Q under a
    # high-card middle) leaves the row illegal.
    ok[rows_idx] = np.isfinite(pick)


def _concat(parts: list[Rows]) -> Rows:
    return Rows(
        *(
            np.concatenate([getattr(p, f) for p in parts])
            for f in ("tail", "middle", "head", "value")
        )
    )


def legal_splits(he: HandEval) -> Rows:
    """Every legal split of a 13-card hand (value 0)."""
    sp = he.sp
    mid2, head2 = sp.middle.reshape(-1, 56), sp.rest.reshape(-1, 56)
    mc = he.c5[mid2]
    idx = np.flatnonzero((mc <= he.c5[:, None]) & (he.c3[head2] <= mc))
    return Rows(sp.tail[idx], sp.middle[idx], sp.rest[idx], np.zeros(len(idx)))


def legal_rows(
    he: HandEval,
    v_tail: np.ndarray,
    v_mid: np.ndarray,
    v_head: np.ndarray,
    limit: int | None = None,
) -> Rows:
    """Every split with its summed lane value (v_* index the subsets); an
    illegal split is left out or valued -inf.

    With 16 cards and ``limit``, rows that cannot be among the ``limit`` best
    may be left out: tails are taken best bound first, and the search stops
    when no remaining tail can reach the ``limit``-th value found.
    """
    sp = he.sp
    if sp.n == 13:
        # One pass over all 72,072 rows, as (tail, 56 middles) blocks:
        # illegal rows get -inf (cheaper than compacting the arrays).
        mid2, head2 = sp.middle.reshape(-1, 56), sp.rest.reshape(-1, 56)
        mc, hc = he.c5[mid2], he.c3[head2]
        value = v_mid[mid2] + v_head[head2]
        value += v_tail[:, None]
        value[(mc > he.c5[:, None]) | (hc > mc)] = -np.inf
        return Rows(sp.tail, sp.middle, sp.rest, value.ravel())
    sixes = sp.sixes
    assert sixes is not None
    six_vals = v_head[sixes]  # (8008, 20)
    col = np.argmax(six_vals, axis=1)
    at = np.arange(len(sixes))
    best = (sixes[at, col], six_vals[at, col])
    if limit is None:
        return _rows_16(he, v_tail, v_mid, v_head, best, np.arange(len(sp.tail)), None)
    # Bound of a tail's rows, cards shared between lanes ignored: its value +
    # the best (middle + best head not above that middle) not above the tail.
    h_order = np.argsort(he.c3, kind="stable")
    best_head = np.maximum.accumulate(v_head[h_order])
    h_below = np.searchsorted(he.c3[h_order], he.c5, "right") - 1
    with_head = v_mid + np.where(h_below >= 0, best_head[np.maximum(h_below, 0)], -np.inf)
    m_order = np.argsort(he.c5, kind="stable")
    best_mid = np.maximum.accumulate(with_head[m_order])
    m_below = np.searchsorted(he.c5[m_order], he.c5, "right") - 1
    bound = v_tail + best_mid[m_below]
    tails = np.argsort(-bound, kind="stable")
    per_tail = len(sp.tail) // len(sp.five)
    parts: list[Rows] = []
    kth = -np.inf
    for start in range(0, len(tails), TAIL_CHUNK):
        chunk = tails[start : start + TAIL_CHUNK]
        if bound[chunk[0]] < kth:
            break
        idx = (chunk[:, None] * per_tail + np.arange(per_tail)).ravel()
        parts.append(_rows_16(he, v_tail, v_mid, v_head, best, idx, limit))
        values = np.concatenate([p.value for p in parts])
        if len(values) >= limit:
            kth = np.partition(values, len(values) - limit)[len(values) - limit]
    return _concat(parts)


def top_rows(rows: Rows, k: int) -> Rows:
    """The k legal rows of highest value (fewer if fewer are legal), best first."""
    v = rows.value
    if len(v) > k:
        # Rows near the best value first: a cheap filter before partitioning.
        best = float(v.max())
        for margin in (1.0, 4.0, 16.0, np.inf):
            near = np.flatnonzero(v >= best - margin)
            if len(near) >= k:
                break
        if len(near) > k:
            near = near[np.argpartition(-v[near], k - 1)[:k]]
        rows = rows.take(near)
    rows = rows.take(np.argsort(-rows.value, kind="stable"))
    return rows.take(np.flatnonzero(np.isfinite(rows.value)))


def arrangement(he: HandEval, tail: int, middle: int, head: int) -> Arrangement:
    sp = he.sp

    def pick(idx: np.ndarray) -> tuple[Card, ...]:
        return tuple(he.cards[i] for i in idx)

    return Arrangement(pick(sp.three[head]), pick(sp.five[middle]), pick(sp.five[tail]))


def _slot(code: np.ndarray, i: int) -> np.ndarray:
    return (code >> (RANK_SHIFT + 4 * (5 - i))) & 15


def shape_signature(code: np.ndarray) -> np.ndarray:
    """What makes two lanes 'the same idea': category and the ranks of its
    groups (pairs, trips, quads) or its top card; kickers are left out."""
    cat = code >> CAT_SHIFT
    s0, s1, s2 = _slot(code, 0), _slot(code, 1), _slot(code, 2)
    # Categories whose second slot is a group rank: four of a kind keeps the
    # quad only; full house and two pair keep both groups; a flush keeps its
    # pair class and first pair / top card.
    two_groups = (cat == 7) | (cat == 3)
    second = np.where(two_groups, s1, 0)
    second = np.where(cat == 6, s1, second)
    third = np.where((cat == 6) & (s0 == 2), s2, 0)
    return np.asarray((((cat << 4 | s0) << 4 | second) << 4) | third)
