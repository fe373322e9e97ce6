"""Expected points of candidate splits against the weighted opponent pool.

Each candidate (head, middle, tail codes) is settled against every pool
entry with a non-zero weight exactly as ``bot.rules.settle`` settles a pair:
per lane the winner takes the points of its own lane, a tie moves nothing
(in banker mode a lane tied on category and ranks goes to the banker);
a strict scoop (or 辗过 where the table counts it) doubles the pair when
``scoop_double`` is on; a declared special in the pool takes its points from
the candidate (doubled where the extended preset doubles a special that
beats everyone); banker results are capped at ±7.

The home run needs every opponent at once. Opponents are taken as
independent draws from the pool: the candidate sweeps all ``k`` of them
with probability s^k, s being its weighted strict-scoop rate, so each swept
pair is doubled again with probability s^(k-1); an entry that sweeps the
candidate also sweeps the k-1 others with probability q^(k-1), q being its
scoop rate against the pool (``Pool.sweeper``).

Two implementations give the same numbers: ``dense`` settles every
(candidate, entry) pair in arrays (banker mode uses it: the ±7 cap is not
linear), ``fast`` sums the lane points through the pool's distinct codes
per lane (running sums of the weight at each code) and settles only the
scoops pair by pair, on packed sets of entries. The result is the
expectation against one opponent times the number of opponents the seat
meets: the points this round against the table.
"""

from __future__ import annotations

import numpy as np

from .arrays import F32, F64, I64, AnyArray, Bools
from .codes import RANK_SHIFT
from .model import ScoringContext, lane_points_of
from .pool import Pool

BANKER_CAP = 7.0
CHUNK = 128  # candidates settled at once (bounds the temporary arrays)


def lane_points(mine: I64) -> F64:
    """(R, 3) points each lane of the candidates wins when it wins."""
    from bot.rules import Lane

    return np.stack([lane_points_of(lane, mine[:, lane]) for lane in Lane], axis=1)


def expected_points(
    mine: I64, pool: Pool, weights: F64, table: ScoringContext, *, few: bool = False
) -> F64:
    """Expected points of each candidate (rows of head, middle, tail codes)
    against the table, the pool entries weighted by ``weights`` (sum 1).
    ``few``: a few candidates against a large pool (the re-rank), whose
    scoop sets are weighed bit by bit instead of through byte tables."""
    mine = np.asarray(mine, dtype=np.int64).reshape(-1, 3)
    normal_w = np.where(pool.special == 0, weights, 0.0)
    if table.banker:
        out = dense(mine, pool, normal_w, table)
    else:
        out = fast(mine, pool, normal_w, table, few=few)
    special_w = weights - normal_w
    if special_w.any():  # declared specials: their points from every normal hand
        lost = pool.special
        if table.banker:
            lost = np.minimum(lost, BANKER_CAP)
        elif table.special_double:
            lost = lost * 2  # a special beats every normal hand at the table
        out -= float(np.einsum("n,n->", special_w, lost))  # no BLAS threads
    return out * table.opponents


def _home_run_factor(sweeper: F64, k: int) -> F64:
    """1 + q^(k-1): how much an entry that sweeps the hero (scoop rate q)
    is expected to multiply that sweep by making a home run (1 without one)."""
    return 1.0 + sweeper ** (k - 1) if k else np.ones(len(sweeper))


def _their_hr(pool: Pool, live: I64, table: ScoringContext) -> F64:
    return _home_run_factor(pool.sweeper[live], table.home_run_k)


def dense(mine: I64, pool: Pool, w_all: F64, table: ScoringContext) -> F64:
    """Every pair settled in arrays (per opponent, specials excluded)."""
    live = np.flatnonzero(w_all > 0)
    opp, opp_pts, w = pool.codes[live], pool.pts[live], w_all[live]
    their_hr = _their_hr(pool, live, table)
    my_pts = lane_points(mine)
    out = np.empty(len(mine))
    k = table.home_run_k
    for start in range(0, len(mine), CHUNK):
        c_all, p = mine[start : start + CHUNK], my_pts[start : start + CHUNK]
        base = np.zeros((len(c_all), len(opp)))
        wins = np.zeros(base.shape, dtype=np.int8)
        losses = np.zeros(base.shape, dtype=np.int8)
        for lane in range(3):
            win, lose = _outcome(c_all[:, None, lane], opp[None, :, lane], table)
            base += np.where(win, p[:, None, lane], 0.0)
            base -= np.where(lose, opp_pts[None, :, lane], 0.0)
            wins += win
            losses += lose
        if table.banker:
            out[start : start + CHUNK] = _mean(np.clip(base, -BANKER_CAP, BANKER_CAP), w)
            continue
        sweep, swept = wins == 3, losses == 3
        factor = np.ones(base.shape)
        if table.scoop_double:
            if table.draw_scoop:
                scoop = ((wins > 0) & (losses == 0)) | ((losses > 0) & (wins == 0))
            else:
                scoop = sweep | swept
            factor[scoop] = 2.0
        if k:
            s = _mean(sweep, w)  # my strict-scoop rate (a declared special is never swept)
            factor *= np.where(sweep, 1.0 + s[:, None] ** (k - 1), 1.0)
            factor *= np.where(swept, their_hr[None, :], 1.0)
        out[start : start + CHUNK] = _mean(base * factor, w)
    return out


def _mean(values: AnyArray, w: F64) -> F64:
    """Weighted row sums (einsum's own loop: no BLAS threads, see _byte_sums)."""
    return np.asarray(np.einsum("rn,n->r", values, w), dtype=np.float64)


def _outcome(c: I64, o: I64, table: ScoringContext) -> tuple[Bools, Bools]:
    """(win, lose) of lane codes c against o."""
    if not table.banker:
        return c > o, c < o
    # A lane tied on category and ranks goes to the banker.
    cr, orr = c >> RANK_SHIFT, o >> RANK_SHIFT
    if table.banker_seat:
        return cr >= orr, cr < orr
    return cr > orr, cr <= orr


def _byte_sums(weights: F64) -> F32:
    """(256, bytes): the weight of the entries each byte value selects, at
    each byte position. Built by doubling: the values with bit b set are
    those without it plus that bit's entry; each step adds one row to a
    contiguous block of rows (4x faster than a broadcast outer sum, and no
    BLAS product: on a busy 2-core machine its threads spin longer than
    the work takes)."""
    size = -(-len(weights) // 8)
    padded = np.zeros(size * 8, dtype=np.float32)
    padded[: len(weights)] = weights
    bits = np.ascontiguousarray(padded.reshape(size, 8).T)  # bits[k]: each byte's entry k
    out = np.empty((256, size), dtype=np.float32)
    out[0] = 0.0
    for b in range(8):
        # The first entry of a byte is its high bit (np.packbits order).
        np.add(out[: 1 << b], bits[7 - b], out=out[1 << b : 2 << b])
    return out


def _weigh(sets: AnyArray, table: F32) -> F64:
    """Weighted size of each packed set (rows of ``sets``): one lookup per
    byte in the flattened (byte value, byte position) table."""
    index = sets.astype(np.intp)
    index *= table.shape[1]
    index += np.arange(table.shape[1], dtype=np.intp)
    return np.asarray(np.take(table.ravel(), index).sum(axis=1, dtype=np.float64))


def _bit_sums(sets: AnyArray, weights: F64) -> F64:
    """Weighted size of each packed set, bit by bit: cheaper than
    ``_byte_sums`` tables when the sets are few and the pool large."""
    bits = np.unpackbits(sets, axis=1, count=len(weights))
    return np.asarray(np.einsum("rn,n->r", bits, weights), dtype=np.float64)


def their_sweep(pool: Pool, scoop: float, k: int) -> F64:
    """What each entry's strict scoop of the hero costs beyond the lane
    points (the scoop's doubling and the home run it may make), the same
    for every hand at a table of this kind: computed once per pool."""
    cost = pool.sweep_cost.get((scoop, k))
    if cost is None:
        hr = _home_run_factor(pool.sweeper, k)
        cost = pool.sweep_cost[(scoop, k)] = (scoop * hr - 1.0) * pool.pts_sum
    return cost


def fast(mine: I64, pool: Pool, w_all: F64, table: ScoringContext, *, few: bool = False) -> F64:
    """Lane points through running sums, scoops through packed sets (not banker)."""
    my_pts = lane_points(mine)
    out = np.zeros(len(mine))
    win, no_loss = [], []
    for lane in range(3):
        distinct, sets = pool.distinct[lane], pool.below[lane]
        # The weight at each distinct code, then its running sums: the
        # weight a lane beats and the points of the entries that beat it.
        at_code = np.bincount(pool.code_index[lane], weights=w_all, minlength=len(distinct))
        cum_w = np.concatenate([[0.0], np.cumsum(at_code)])
        cum_pts = np.concatenate([[0.0], np.cumsum(at_code * pool.distinct_pts[lane])])
        lo = np.searchsorted(distinct, mine[:, lane], "left")  # distinct codes below
        hi = np.searchsorted(distinct, mine[:, lane], "right")  # not above
        out += my_pts[:, lane] * cum_w[lo] - (cum_pts[-1] - cum_pts[hi])
        win.append(sets[lo])
        no_loss.append(sets[hi])
    k = table.home_run_k
    if not (table.scoop_double or k):
        return out
    scoop = 2.0 if table.scoop_double else 1.0
    their = their_sweep(pool, scoop, k)
    sweep = win[0] & win[1] & win[2]
    # Entries past the pool's end (padding bits) weigh nothing.
    swept = ~(no_loss[0] | no_loss[1] | no_loss[2])
    if few and not table.draw_scoop:
        s = _bit_sums(sweep, w_all)
        lost_sweeps = _bit_sums(swept, w_all * their)
    else:
        by_weight = _byte_sums(w_all)
        s = _weigh(sweep, by_weight)  # my strict-scoop rate
        lost_sweeps = _weigh(swept, _byte_sums(w_all * their))
    mine_factor = scoop * (1.0 + s ** (k - 1)) if k else np.full(len(mine), scoop)
    out += (mine_factor - 1.0) * s * my_pts.sum(axis=1)
    out -= lost_sweeps
    if table.draw_scoop and table.scoop_double:
        # 辗过: a win and no loss (or a loss and no win) that is not a strict
        # scoop doubles too: its lane points once more.
        kept = no_loss[0] & no_loss[1] & no_loss[2] & ~sweep
        lost = ~(win[0] | win[1] | win[2]) & ~swept
        for lane in range(3):
            out += my_pts[:, lane] * _weigh(kept & win[lane], by_weight)
            opp_lane = w_all * pool.pts[:, lane]
            out -= _weigh(lost & ~no_loss[lane], _byte_sums(opp_lane))
    return out
