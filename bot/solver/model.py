"""Lane strength distributions of modelled players, and the cheap policies
built on them.

1. Per deck setting (wheel, added suit, jokers, a wild rank or not: one
   model serves every wild rank) ``config.model_hands`` random 13-card hands are
   dealt with a fixed seed and arranged, first (half of them) by maximising
   the sum of lane strength percentiles (percentile among random lanes of
   that size), then all of them by the separable expected points of step 2
   against the lanes found in the first pass. The head, middle and tail
   codes of that second pass are the lane distributions (sorted arrays).
2. Per lane, for a lane code c: P(win) = share of modelled lanes below c,
   P(tie) = share equal; the points won are c's own lane points, the points
   lost the mean points of the lanes above c. ``lane_values`` (the separable
   part, P(win)·points - E[points lost]) ranks all legal splits in one pass:
   it is how the opponent pool (``pool``) is arranged and how the search
   prunes 16-card hands.
3. ``full_value`` adds the non-separable terms with the three lanes taken
   as independent (scoops, 辗过, home run, banker ties and cap); it orders
   very large frontiers before the exact scoring of ``response``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from bot.rules import Category, Lane, Rules, lane_points

from . import config
from .arrays import F64, I64
from .codes import CAT_SHIFT, RANK_SHIFT, card_arrays, subset_codes
from .search import HandEval, Rows, evaluate_hand, legal_rows

RANDOM_LANES = 20_000
SEED = 13_13_13

LaneValues = tuple[F64, F64, F64]  # tail, middle, head values per subset


def _points_table(lane: Lane) -> F64:
    return np.array([0.0] + [float(lane_points(lane, Category(c))) for c in range(1, 11)])


POINTS = {lane: _points_table(lane) for lane in Lane}


def lane_points_of(lane: Lane, codes: I64) -> F64:
    """What a lane with these codes wins when it wins (the rules' lane points table)."""
    return np.asarray(POINTS[lane][codes >> CAT_SHIFT], dtype=np.float64)


@dataclass(frozen=True)
class LaneDist:
    """Sorted modelled lane codes of one lane, with cumulative lane points."""

    lane: Lane
    codes: I64
    cum_pts: F64

    @classmethod
    def of(cls, lane: Lane, codes: Sequence[int] | I64) -> LaneDist:
        sorted_codes = np.sort(np.asarray(codes, dtype=np.int64))
        pts = lane_points_of(lane, sorted_codes)
        return cls(lane, sorted_codes, np.concatenate([[0.0], np.cumsum(pts)]))

    def stats(self, c: I64, banker_ties: bool = False) -> tuple[F64, F64, F64, F64]:
        """(P win, P tie, my points, E[points lost]) for lane codes ``c``.
        ``banker_ties``: a tie is equal category and ranks (the banker's rule),
        not the full code."""
        n = len(self.codes)
        if banker_ties:
            low = (c >> RANK_SHIFT) << RANK_SHIFT
            lo = np.searchsorted(self.codes, low, "left")
            hi = np.searchsorted(self.codes, low + (1 << RANK_SHIFT), "left")
        else:
            lo = np.searchsorted(self.codes, c, "left")
            hi = np.searchsorted(self.codes, c, "right")
        lost = (self.cum_pts[-1] - self.cum_pts[hi]) / n
        return lo / n, (hi - lo) / n, lane_points_of(self.lane, c), lost


@dataclass(frozen=True)
class OpponentModel:
    lanes: tuple[LaneDist, LaneDist, LaneDist]  # head, middle, tail
    random5: I64  # sorted codes of random 5-card lanes (percentiles)
    random3: I64
    scoop_rate: float  # mean P(strict scoop) of a modelled player vs another


def percentile(sorted_codes: I64, c: I64) -> F64:
    lo = np.searchsorted(sorted_codes, c, "left")
    hi = np.searchsorted(sorted_codes, c, "right")
    return np.asarray((lo + hi) / (2.0 * len(sorted_codes)), dtype=np.float64)


def tail_first_values(he: HandEval) -> LaneValues:
    """Values whose best legal split is the strongest tail, then the
    strongest middle, then the strongest head (lexicographic, through the
    dense rank of each code)."""
    r5 = np.unique(he.c5, return_inverse=True)[1].astype(np.float64).ravel()
    r3 = np.unique(he.c3, return_inverse=True)[1].astype(np.float64).ravel()
    return r5 * 2.0**26, r5 * 2.0**13, r3


def percentile_values(he: HandEval, random5: I64, random3: I64) -> LaneValues:
    p5 = percentile(random5, he.c5)
    return p5, p5, percentile(random3, he.c3)


@dataclass(frozen=True)
class ScoringContext:
    """What the score depends on besides the cards."""

    opponents: int  # how many hands this seat is compared with
    home_run_k: int  # players - 1 when a home run is possible, else 0
    scoop_double: bool
    draw_scoop: bool
    banker: bool  # banker mode
    banker_seat: bool  # this seat is the banker
    special_double: bool = False  # extended, 3+ players: a special beating all doubles


def table_of(rules: Rules, players: int | None, banker_seat: bool = False) -> ScoringContext:
    from bot.rules import Preset

    n = players or rules.players
    if rules.banker:
        return ScoringContext(n - 1 if banker_seat else 1, 0, False, False, True, banker_seat)
    return ScoringContext(
        n - 1,
        n - 1 if n >= 3 else 0,
        rules.scoop_double,
        rules.draw_counts_as_scoop,
        False,
        False,
        rules.preset is Preset.EXTENDED and n >= 3,
    )


def _lane_stats(
    model: OpponentModel, table: ScoringContext, lane: Lane, c: I64
) -> tuple[F64, F64, F64, F64]:
    w, t, mine, lost = model.lanes[lane].stats(c, banker_ties=table.banker)
    if table.banker:  # a tie on category and ranks goes to the banker
        if table.banker_seat:
            w, t = w + t, 0.0 * t
        else:
            lost, t = lost + t * mine, 0.0 * t
    return w, t, mine, lost


def lane_values(he: HandEval, model: OpponentModel, table: ScoringContext) -> LaneValues:
    """Separable expected points per subset: (tail, middle, head) arrays."""
    out = []
    for lane, codes in ((Lane.TAIL, he.c5), (Lane.MIDDLE, he.c5), (Lane.HEAD, he.c3)):
        w, _, mine, lost = _lane_stats(model, table, lane, codes)
        out.append(w * mine - lost)
    return out[0], out[1], out[2]


def full_value(he: HandEval, rows: Rows, model: OpponentModel, table: ScoringContext) -> F64:
    """Expected points of each row against the table, the lanes of one
    opponent taken as independent (scoops, home run and cap included)."""
    per_lane = []
    for lane, codes in (
        (Lane.HEAD, he.c3[rows.head]),
        (Lane.MIDDLE, he.c5[rows.middle]),
        (Lane.TAIL, he.c5[rows.tail]),
    ):
        w, t, mine, lost = _lane_stats(model, table, lane, codes)
        lose = np.clip(1.0 - w - t, 0.0, 1.0)
        mean_lost = np.divide(lost, lose, out=np.zeros_like(lost), where=lose > 1e-12)
        per_lane.append(((w, mine), (t, 0.0 * mine), (lose, -mean_lost)))
    strict = per_lane[0][0][0] * per_lane[1][0][0] * per_lane[2][0][0]
    k = table.home_run_k
    my_sweep = strict ** (k - 1) if k else 0.0
    their_sweep = model.scoop_rate ** (k - 1) if k else 0.0
    total = np.zeros(len(rows))
    for o0 in range(3):
        for o1 in range(3):
            for o2 in range(3):
                outs = (o0, o1, o2)
                prob = per_lane[0][o0][0] * per_lane[1][o1][0] * per_lane[2][o2][0]
                value = per_lane[0][o0][1] + per_lane[1][o1][1] + per_lane[2][o2][1]
                wins, losses = outs.count(0), outs.count(2)
                if table.banker:
                    value = np.clip(value, -7.0, 7.0)
                else:
                    my_scoop = wins == 3 or (table.draw_scoop and wins > 0 and losses == 0)
                    their_scoop = losses == 3 or (table.draw_scoop and losses > 0 and wins == 0)
                    if table.scoop_double and (my_scoop or their_scoop):
                        value = value * 2
                    if wins == 3 and k:
                        value = value * (1 + my_sweep)
                    elif losses == 3 and k:
                        value = value * (1 + their_sweep)
                total += prob * value
    return total * table.opponents


# 百变 draws a new wild rank every round: one model, built with this rank
# wild, serves them all (opponents' lane strengths barely depend on which
# rank is wild), so a table builds it once and not once per rank.
MODEL_WILD_RANK = 8

ModelKey = tuple[object, ...]


def model_key(rules: Rules) -> ModelKey:
    return (rules.wheel, rules.added_suit, rules.jokers, rules.wild_rank is not None)


def model_rules(rules: Rules) -> Rules:
    """The rules a model of this deck setting is built with."""
    return replace(rules, wild_rank=MODEL_WILD_RANK) if rules.wild_rank is not None else rules


_MODELS: dict[ModelKey, OpponentModel] = {}


def opponent_model(rules: Rules) -> OpponentModel:
    """The model of a deck setting, built on first use (about a second of CPU)."""
    key = model_key(rules)
    if key not in _MODELS:
        _MODELS[key] = _build(model_rules(rules))
    return _MODELS[key]


SEPARABLE_TABLE = ScoringContext(3, 0, False, False, False, False)


def _build(rules: Rules) -> OpponentModel:
    hands_n = config.current().model_hands
    rng = np.random.default_rng(SEED)
    deck = rules.deck.cards()
    arrays = card_arrays(deck, rules)
    draw = rng.random((RANDOM_LANES, len(deck))).argpartition(5, axis=1)
    random5 = np.sort(subset_codes(arrays, draw[:, :5], rules))
    random3 = np.sort(subset_codes(arrays, draw[:, 5:8], rules))
    hands = [
        evaluate_hand([deck[i] for i in rng.choice(len(deck), 13, replace=False)], rules)
        for _ in range(hands_n)
    ]
    seed = hands[: hands_n // 2]  # the percentile pass only seeds the next
    picks = [best_row(he, percentile_values(he, random5, random3)) for he in seed]
    model = _from_picks(seed, picks, random5, random3, 0.0)
    picks = [best_row(he, lane_values(he, model, SEPARABLE_TABLE)) for he in hands]
    model = _from_picks(hands, picks, random5, random3, 0.0)
    # Scoop rate of the modelled player against the model itself.
    rates = []
    for he, (t, m, h) in zip(hands, picks, strict=True):
        p = 1.0
        for lane, c in ((Lane.HEAD, he.c3[h]), (Lane.MIDDLE, he.c5[m]), (Lane.TAIL, he.c5[t])):
            p *= float(model.lanes[lane].stats(np.array([c]))[0][0])
        rates.append(p)
    return replace(model, scoop_rate=float(np.mean(rates)))


def best_row(he: HandEval, values: LaneValues) -> tuple[int, int, int]:
    """(tail, middle, head) subset indices of the legal split of highest value."""
    rows = legal_rows(he, *values, limit=1)
    i = int(np.argmax(rows.value))  # some split is always legal
    return int(rows.tail[i]), int(rows.middle[i]), int(rows.head[i])


def _from_picks(
    hands: Sequence[HandEval],
    picks: Sequence[tuple[int, int, int]],
    random5: I64,
    random3: I64,
    scoop_rate: float,
) -> OpponentModel:
    head = [int(he.c3[h]) for he, (_, _, h) in zip(hands, picks, strict=True)]
    mid = [int(he.c5[m]) for he, (_, m, _) in zip(hands, picks, strict=True)]
    tail = [int(he.c5[t]) for he, (t, _, _) in zip(hands, picks, strict=True)]
    lanes = (
        LaneDist.of(Lane.HEAD, head),
        LaneDist.of(Lane.MIDDLE, mid),
        LaneDist.of(Lane.TAIL, tail),
    )
    return OpponentModel(lanes, random5, random3, scoop_rate)
