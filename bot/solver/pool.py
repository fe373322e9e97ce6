"""The pool of opponents' arrangements a best response is scored against,
and how the hero's cards reweight it (card removal).

Each entry keeps its three lane codes, the points each lane wins, the
points of a declared special, how often its arrangement strictly scoops
another pool player (for the home run it may make), its cards per rank and
per suit, and, per lane, the entries sorted by code as packed bitsets (the
entries a lane beats are one prefix of them). ``opponents`` builds the
pools; ``response`` settles candidates against them.

Card removal (the hero's cards are not in the opponents' hands): a pool is
dealt from the whole deck, so each entry is weighted by how likely its
counts are once the hero's cards are gone: for every rank (and the jokers)
C(m - h, c) / C(m, c), with m copies in the deck, h in the hero's hand and
c in the entry's; the same factor per suit. The rank factor is exact for
anything that depends on ranks only (it is the chance that c random cards
of that rank avoid the hero's h); the suit factor carries the weaker effect
on flushes. An entry that needs a card the hero holds (three aces when the
hero has two) gets weight zero.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from math import comb

import numpy as np

from bot.rules import Card, Lane, Rules
from bot.rules.cards import SUITS

from .arrays import F64, I64, AnyArray
from .model import MODEL_WILD_RANK, lane_points_of

SWEEP_SAMPLE = 1500  # pool entries each entry's scoop rate is measured against
SEED = 2_013_13
MAX_HAND = 16  # cards in the largest hand (多三张)
JOKER_CLASS = 13  # rank classes: 0..12 for ranks 2..A, 13 for the jokers
# How a pool entry was arranged: as our strong seats, by the lane-percentile
# sum (our normal seats), strongest tail first (our easy seats).
POLICIES = ("strong", "percentile", "tail-first")
# The group an AI seat of each level plays as. A person, and a strong seat
# (which plays the best response to this mix itself), is the whole pool as
# dealt: 2/5 strong, 2/5 percentile, 1/5 tail-first. Measured: against a
# table of strong seats, a strong seat answering the whole pool loses less
# than answering the strong group alone (BENCHMARKS.md). A suggestion
# answers strong seats with the seat pool (``opponents.seat_pool``: how they
# really play), not with this mix.
LEVEL_POLICY = {"normal": 1, "easy": 2}


@dataclass(frozen=True)
class Pool:
    codes: I64  # (N, 3) head, middle, tail lane codes
    pts: AnyArray  # (N, 3) float64: what each lane wins when it wins
    special: F64  # (N,) points of a declared special, 0 for an arrangement
    sweeper: F64  # (N,) P(the entry strictly scoops another pool player)
    ranks: AnyArray  # (N, 14) int8 cards per rank class
    suits: AnyArray  # (N, 4) int8 cards per suit
    rank_copies: I64  # (14,) copies of each rank class in the deck
    suit_copies: I64  # (4,)
    # Per lane: the distinct codes, sorted, and for each k the packed bitset
    # (over entries, np.packbits order) of the entries whose code is below
    # the k-th distinct code: the entries a lane beats are one row of it.
    distinct: tuple[I64, I64, I64]
    below: tuple[AnyArray, AnyArray, AnyArray]  # (distinct + 1, ceil(N / 8)) uint8
    # Per lane: each entry's index into ``distinct`` (a hand's weights are
    # summed per distinct code in one pass, then accumulated over a few
    # thousand codes instead of the whole pool), and each distinct code's
    # lane points (a function of the code).
    code_index: tuple[I64, I64, I64]  # (N,) each
    distinct_pts: tuple[F64, F64, F64]
    policy: AnyArray  # (N,) int8: how the entry was arranged, an index into POLICIES
    # Card removal's columns: the 14 rank classes and then the 4 suits, taken
    # two classes at a time (one lookup and one product per pair instead of
    # per class: half the passes over the pool); row i holds each entry's
    # counts of classes 2i and 2i + 1 as one index, c_a * (MAX_HAND + 1) + c_b.
    class_pairs: AnyArray  # (9, N) int16
    pts_sum: F64  # (N,) each entry's lane points summed: what a scoop of it doubles
    # (scoop factor, home-run size) -> what each entry's sweep of the hero
    # adds beyond its lane points (``response.their_sweep``), per table kind.
    sweep_cost: dict[tuple[float, int], F64] = field(
        default_factory=dict, compare=False, repr=False
    )

    def __len__(self) -> int:
        return len(self.special)


def _rank_class(card: Card, rules: Rules) -> int:
    if card.is_joker:
        return JOKER_CLASS
    rank = card.rank
    # 百变: the pool was dealt with MODEL_WILD_RANK wild; the table's wild
    # rank plays that part (and the model rank takes the table's place).
    if rules.wild_rank is not None and rank in (rules.wild_rank, MODEL_WILD_RANK):
        rank = MODEL_WILD_RANK if rank == rules.wild_rank else rules.wild_rank
    return rank - 2


def counts(cards: Sequence[Card], rules: Rules) -> tuple[I64, I64]:
    """Cards per rank class and per suit."""
    ranks = np.zeros(JOKER_CLASS + 1, dtype=np.int64)
    suits = np.zeros(len(SUITS), dtype=np.int64)
    for c in cards:
        ranks[_rank_class(c, rules)] += 1
        if not c.is_joker:
            suits[SUITS.index(c.suit)] += 1
    return ranks, suits


@lru_cache(maxsize=256)
def _avoid_row(copies: int, held: int) -> F64:
    """[c] -> C(copies - held, c) / C(copies, c) for c = 0..MAX_HAND: c
    random cards of a class of ``copies`` avoid the ``held`` the hero holds
    (0 for counts the class cannot have)."""
    out = np.zeros(MAX_HAND + 1)
    for c in range(min(copies, MAX_HAND) + 1):
        out[c] = comb(copies - held, c) / comb(copies, c)
    return out


def _class_pairs(rank_rows: AnyArray, suit_rows: AnyArray) -> AnyArray:
    """``Pool.class_pairs`` of these counts per rank class and per suit."""
    cols = np.concatenate([np.asarray(rank_rows), np.asarray(suit_rows)], axis=1).T
    cols = cols.astype(np.int16)
    return np.ascontiguousarray(cols[0::2] * (MAX_HAND + 1) + cols[1::2])


def removal_weights(pool: Pool, cards: Sequence[Card], rules: Rules) -> F64:
    """Each entry's weight once the hero's ``cards`` are out of the deck
    (normalised to sum 1)."""
    ranks, suits = counts(cards, rules)
    held = np.concatenate([ranks, suits])
    copies = np.concatenate([pool.rank_copies, pool.suit_copies])
    w = np.ones(len(pool))
    for i in range(len(pool.class_pairs)):
        a, b = 2 * i, 2 * i + 1
        if held[a] or held[b]:
            # [c_a * (MAX_HAND + 1) + c_b]: both classes' factors at once
            both = np.outer(
                _avoid_row(int(copies[a]), int(held[a])), _avoid_row(int(copies[b]), int(held[b]))
            )
            w *= both.ravel().take(pool.class_pairs[i])
    total = w.sum()
    if total <= 0:  # cannot happen with a real hand; keep the pool usable
        return np.full(len(pool), 1.0 / len(pool))
    return np.asarray(w / total, dtype=np.float64)


def table_weights(
    pool: Pool, cards: Sequence[Card], rules: Rules, opponents: Sequence[str | None] | None
) -> F64:
    """Entry weights for this hand at this table: card removal within each
    policy, times the share of the table that plays it. ``opponents`` names
    each opponent's AI level (``None`` for a person); a person or a strong
    seat is the whole pool, as is a table given no list."""
    w = removal_weights(pool, cards, rules)
    levels = [LEVEL_POLICY.get(level or "") for level in opponents or (None,)]
    if all(p is None for p in levels):
        return w
    person = np.bincount(pool.policy, minlength=len(POLICIES)) / len(pool)
    share = np.zeros(len(POLICIES))
    for p in levels:
        if p is None:
            share += person
        else:
            share[p] += 1.0
    per_policy = np.bincount(pool.policy, weights=w, minlength=len(POLICIES))
    share = np.where(per_policy > 0, share, 0.0)  # a pool may lack a policy (16 cards)
    if share.sum() <= 0:
        return w
    scale = np.divide(
        share / share.sum(), per_policy, out=np.zeros_like(share), where=per_policy > 0
    )
    return np.asarray(w * scale[pool.policy], dtype=np.float64)


def hand_counts(hands: Sequence[Sequence[Card]], rules: Rules) -> tuple[AnyArray, AnyArray]:
    """(N, 14) cards per rank class and (N, 4) per suit of each hand (int8)."""
    rank_rows = np.zeros((len(hands), JOKER_CLASS + 1), dtype=np.int8)
    suit_rows = np.zeros((len(hands), len(SUITS)), dtype=np.int8)
    for i, hand in enumerate(hands):
        rank_rows[i], suit_rows[i] = counts(hand, rules)
    return rank_rows, suit_rows


def pool_of(
    codes: I64,
    special: F64,
    rank_rows: AnyArray,
    suit_rows: AnyArray,
    rules: Rules,
    policy: AnyArray | None = None,
) -> Pool:
    """A pool of these entries: lane codes (N, 3), declared special points
    (0 = arranged) and their cards per rank class and per suit."""
    codes = np.asarray(codes, dtype=np.int64).reshape(-1, 3)
    pts = np.stack([lane_points_of(lane, codes[:, lane]) for lane in Lane], axis=1)
    rank_copies, suit_copies = counts(rules.deck.cards(), rules)
    distinct, below, index, distinct_pts = [], [], [], []
    for lane in Lane:
        uniq, rank = np.unique(codes[:, lane], return_inverse=True)
        distinct.append(uniq)
        below.append(_prefix_bitsets(rank.ravel(), len(uniq)))
        index.append(np.asarray(rank.ravel(), dtype=np.intp))
        distinct_pts.append(lane_points_of(lane, uniq))
    return Pool(
        codes,
        pts,
        np.asarray(special, dtype=np.float64),
        _sweep_rates(codes, special, np.random.default_rng(SEED)),
        rank_rows,
        suit_rows,
        rank_copies,
        suit_copies,
        (distinct[0], distinct[1], distinct[2]),
        (below[0], below[1], below[2]),
        (index[0], index[1], index[2]),
        (distinct_pts[0], distinct_pts[1], distinct_pts[2]),
        np.zeros(len(codes), dtype=np.int8) if policy is None else np.asarray(policy, np.int8),
        _class_pairs(rank_rows, suit_rows),
        pts.sum(axis=1),
    )


def _prefix_bitsets(rank: I64, n_distinct: int) -> AnyArray:
    """Row k: the packed set of entries whose rank is below k."""
    out = np.zeros((n_distinct + 1, (len(rank) + 7) // 8), dtype=np.uint8)
    for start in range(0, n_distinct + 1, 512):
        ks = np.arange(start, min(start + 512, n_distinct + 1))
        out[ks] = np.packbits(rank[None, :] < ks[:, None], axis=1)
    return out


def _sweep_rates(codes: I64, special: F64, rng: np.random.Generator) -> F64:
    """Per entry, the share of a sample of pool players it strictly beats in
    all three lanes (a declared special is never scooped and scoops no one)."""
    sample = rng.choice(len(codes), min(SWEEP_SAMPLE, len(codes)), replace=False)
    sample = sample[special[sample] == 0]
    rates = np.zeros(len(codes))
    for start in range(0, len(codes), 512):
        block = codes[start : start + 512]
        sweep = np.ones((len(block), len(sample)), dtype=bool)
        for lane in Lane:
            sweep &= block[:, None, lane] > codes[None, sample, lane]
        rates[start : start + 512] = sweep.mean(axis=1) if len(sample) else 0.0
    rates[special > 0] = 0.0
    return rates
