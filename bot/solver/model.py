"""The expected-points model that ranks arrangements.

Model (documented again in BENCHMARKS.md):

1. Opponents' lanes. For each deck setting (wheel, added suit, jokers, a
   wild rank or not: one model serves every wild rank) we deal
   ``MODEL_HANDS`` random 13-card hands with a fixed seed and arrange them,
   first (half of them) by maximising the sum of lane strength percentiles
   (percentile among random lanes of that size), then all of them by the
   expected points of step 2 against the lanes found in the first pass.
   The head, middle and tail codes of that second pass are the opponent
   lane distributions (sorted arrays; built lazily, cached per process).
2. Per lane, for a lane code c: P(win) = share of opponent lanes below c,
   P(tie) = share equal, P(lose) = the rest; the points won are c's own lane
   points (docs/rules.md §4), the points lost are the mean points of the opponent
   lanes above c. The separable part, E = P(win)·points − E[points lost],
   is summed over the lanes to rank all legal splits.
3. The best rows (``RERANK`` in api) are re-ranked by the expectation against
   one opponent, assuming the three lanes independent: the 27 win/tie/loss
   outcomes with their points, scoop doubling (strict, or 辗过 when the
   table counts draws), home run at the table's player count (I sweep the
   others with probability s^(k-1), s being this arrangement's strict-scoop
   probability; an opponent sweeps the others with the model's average
   scoop rate), banker mode (ties to the banker, no scoop, ±7 cap). The
   score is that expectation times the number of opponents met.
4. The best few of those (``REFINE`` in api) are scored once more against a
   pool of 500 modelled opponents' whole arrangements (``pool_value``),
   which keeps the correlation between one hand's lanes (a strong tail
   comes with a weak head) that step 3 ignores; scoops are settled per pair
   exactly there.

Known simplifications: step 3 treats one opponent's lanes as independent;
opponents are independent of each other; their special hands are ignored; 多三张 opponents are modelled from
13-card deals (their lanes are a little stronger in truth).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from bot.rules import Category, Lane, Rules, lane_points

from .codes import CAT_SHIFT, card_arrays, subset_codes
from .search import HandEval, Rows, evaluate_hand, legal_rows

MODEL_HANDS = 1000  # set_model_hands() changes it (the setting THIRTEEN_SOLVER_MODEL_HANDS)
BOOTSTRAP_HANDS = MODEL_HANDS // 2  # the first (percentile) pass only seeds the second
RANDOM_LANES = 20_000
SEED = 13_13_13
POOL = 500  # opponent arrangements kept for the exact (correlated) re-rank


def set_model_hands(hands: int) -> None:
    """How many random hands build an opponent model; models built before keep theirs."""
    global MODEL_HANDS, BOOTSTRAP_HANDS
    MODEL_HANDS, BOOTSTRAP_HANDS = hands, hands // 2


def _points_table(lane: Lane) -> np.ndarray:
    return np.array([0.0] + [float(lane_points(lane, Category(c))) for c in range(1, 11)])


POINTS = {lane: _points_table(lane) for lane in Lane}


@dataclass(frozen=True)
class LaneDist:
    """Sorted opponent lane codes of one lane, with cumulative lane points."""

    lane: Lane
    codes: np.ndarray
    cum_pts: np.ndarray

    @classmethod
    def of(cls, lane: Lane, codes: npt.ArrayLike) -> LaneDist:
        ordered = np.sort(np.asarray(codes, dtype=np.int64))
        pts = POINTS[lane][ordered >> CAT_SHIFT]
        return cls(lane, ordered, np.concatenate([[0.0], np.cumsum(pts)]))

    def stats(self, c: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(P win, P tie, my points, E[points lost]) for lane codes ``c``."""
        n = len(self.codes)
        lo = np.searchsorted(self.codes, c, "left")
        hi = np.searchsorted(self.codes, c, "right")
        lost = (self.cum_pts[-1] - self.cum_pts[hi]) / n
        return lo / n, (hi - lo) / n, POINTS[self.lane][c >> CAT_SHIFT], lost


@dataclass(frozen=True)
class OpponentModel:
    lanes: tuple[LaneDist, LaneDist, LaneDist]  # head, middle, tail
    random5: np.ndarray  # sorted codes of random 5-card lanes (percentiles)
    random3: np.ndarray
    scoop_rate: float  # mean P(strict scoop) of a modelled player vs another
    # Modelled opponents' whole arrangements, (head, middle, tail) codes per
    # row: the lanes of one hand are correlated, which the pool keeps.
    pool: np.ndarray | None = None


def percentile(sorted_codes: np.ndarray, c: np.ndarray) -> np.ndarray:
    lo = np.searchsorted(sorted_codes, c, "left")
    hi = np.searchsorted(sorted_codes, c, "right")
    return (lo + hi) / (2.0 * len(sorted_codes))


def percentile_values(
    he: HandEval, random5: np.ndarray, random3: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    p5 = percentile(random5, he.c5)
    return p5, p5, percentile(random3, he.c3)


@dataclass(frozen=True)
class Table:
    """What the score depends on besides the cards."""

    opponents: int  # how many hands this seat is compared with
    home_run_k: int  # players - 1 when a home run is possible, else 0
    scoop_double: bool
    draw_scoop: bool
    banker: bool  # banker mode
    banker_seat: bool  # this seat is the banker


def table_of(rules: Rules, players: int | None, banker_seat: bool = False) -> Table:
    n = players or rules.players
    if rules.banker:
        return Table(n - 1 if banker_seat else 1, 0, False, False, True, banker_seat)
    return Table(
        n - 1, n - 1 if n >= 3 else 0, rules.scoop_double, rules.draw_counts_as_scoop, False, False
    )


def _lane_stats(
    model: OpponentModel, table: Table, lane: Lane, c: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    w, t, mine, lost = model.lanes[lane].stats(c)
    if table.banker:  # a tie on category and ranks goes to the banker
        if table.banker_seat:
            w, t = w + t, 0.0 * t
        else:
            lost, t = lost + t * mine, 0.0 * t
    return w, t, mine, lost


def lane_values(
    he: HandEval, model: OpponentModel, table: Table
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Separable expected points per subset: (tail, middle, head) arrays."""
    out = []
    for lane, codes in ((Lane.TAIL, he.c5), (Lane.MIDDLE, he.c5), (Lane.HEAD, he.c3)):
        w, _, mine, lost = _lane_stats(model, table, lane, codes)
        out.append(w * mine - lost)
    tail, middle, head = out
    return tail, middle, head


def full_value(he: HandEval, rows: Rows, model: OpponentModel, table: Table) -> np.ndarray:
    """Expected points of each row against the table (non-separable terms included)."""
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
                    value = np.clip(value, -7, 7)
                else:
                    my_scoop = wins == 3 or (table.draw_scoop and wins and not losses)
                    their_scoop = losses == 3 or (table.draw_scoop and losses and not wins)
                    if table.scoop_double and (my_scoop or their_scoop):
                        value = value * 2
                    if wins == 3 and k:
                        value = value * (1 + my_sweep)
                    elif losses == 3 and k:
                        value = value * (1 + their_sweep)
                total += prob * value
    return total * table.opponents


def pool_value(he: HandEval, rows: Rows, model: OpponentModel, table: Table) -> np.ndarray:
    """Expected points of each row against the pool of modelled opponents'
    whole arrangements: every pair settled exactly (lanes, scoop doubling,
    辗过, banker ties and cap); the home run as in ``full_value`` with the
    sweep probability measured on the pool."""
    assert model.pool is not None
    opp = model.pool  # (N, 3)
    mine = (he.c3[rows.head], he.c5[rows.middle], he.c5[rows.tail])
    base = np.zeros((len(rows), len(opp)))
    wins = np.zeros(base.shape, dtype=np.int8)
    losses = np.zeros(base.shape, dtype=np.int8)
    for lane in Lane:
        c, o = mine[lane][:, None], opp[None, :, lane]
        win, lose = c > o, c < o
        if table.banker:
            tie = c == o
            win, lose = (win | tie, lose) if table.banker_seat else (win, lose | tie)
        pts = POINTS[lane]
        base += win * pts[c >> CAT_SHIFT] - lose * pts[o >> CAT_SHIFT]
        wins += win
        losses += lose
    value: np.ndarray
    if table.banker:
        value = np.clip(base, -7, 7).mean(axis=1) * table.opponents
        return value
    sweep, swept = wins == 3, losses == 3
    if table.scoop_double:
        mine_scoop = sweep | (table.draw_scoop & (wins > 0) & (losses == 0))
        theirs = swept | (table.draw_scoop & (losses > 0) & (wins == 0))
        base = np.where(mine_scoop | theirs, base * 2, base)
    k = table.home_run_k
    if k:
        s = sweep.mean(axis=1, keepdims=True)
        base = np.where(sweep, base * (1 + s ** (k - 1)), base)
        base = np.where(swept, base * (1 + model.scoop_rate ** (k - 1)), base)
    value = base.mean(axis=1) * table.opponents
    return value


# 百变 draws a new wild rank every round: one model, built with this rank
# wild, serves them all (opponents' lane strengths barely depend on which
# rank is wild), so a table builds it once and not once per rank.
MODEL_WILD_RANK = 8


def _model_key(rules: Rules) -> tuple[object, ...]:
    return (rules.wheel, rules.added_suit, rules.jokers, rules.wild_rank is not None)


_MODELS: dict[tuple[object, ...], OpponentModel] = {}


def opponent_model(rules: Rules) -> OpponentModel:
    """The model of a deck setting, built on first use (about a second of CPU;
    call it when a room is set up to keep the first suggestion instant)."""
    key = _model_key(rules)
    if key not in _MODELS:
        if rules.wild_rank is not None:
            rules = replace(rules, wild_rank=MODEL_WILD_RANK)
        _MODELS[key] = _build(rules)
    return _MODELS[key]


def _build(rules: Rules) -> OpponentModel:
    rng = np.random.default_rng(SEED)
    deck = rules.deck.cards()
    arrays = card_arrays(deck, rules)
    draw = rng.random((RANDOM_LANES, len(deck))).argpartition(5, axis=1)
    random5 = np.sort(subset_codes(arrays, draw[:, :5], rules))
    random3 = np.sort(subset_codes(arrays, draw[:, 5:8], rules))
    hands = [
        evaluate_hand([deck[i] for i in rng.choice(len(deck), 13, replace=False)], rules)
        for _ in range(MODEL_HANDS)
    ]
    seed = hands[:BOOTSTRAP_HANDS]
    picks = [_best(he, percentile_values(he, random5, random3)) for he in seed]
    model = _from_picks(seed, picks, random5, random3, 0.0)
    table = Table(3, 0, False, False, False, False)
    picks = [_best(he, lane_values(he, model, table)) for he in hands]
    model = _from_picks(hands, picks, random5, random3, 0.0)
    # Scoop rate of the modelled player against the model itself.
    rates = []
    for he, (t, m, h) in zip(hands, picks, strict=True):
        p = 1.0
        for lane, c in ((Lane.HEAD, he.c3[h]), (Lane.MIDDLE, he.c5[m]), (Lane.TAIL, he.c5[t])):
            p *= float(model.lanes[lane].stats(np.array([c]))[0][0])
        rates.append(p)
    return _from_picks(hands, picks, random5, random3, float(np.mean(rates)))


def _best(he: HandEval, values: tuple[np.ndarray, np.ndarray, np.ndarray]) -> tuple[int, int, int]:
    rows = legal_rows(he, *values, limit=1)
    i = int(np.argmax(rows.value))  # some split is always legal
    return int(rows.tail[i]), int(rows.middle[i]), int(rows.head[i])


def _from_picks(
    hands: Sequence[HandEval],
    picks: Sequence[tuple[int, int, int]],
    random5: np.ndarray,
    random3: np.ndarray,
    scoop_rate: float,
) -> OpponentModel:
    head = [he.c3[h] for he, (_, _, h) in zip(hands, picks, strict=True)]
    mid = [he.c5[m] for he, (_, m, _) in zip(hands, picks, strict=True)]
    tail = [he.c5[t] for he, (t, _, _) in zip(hands, picks, strict=True)]
    lanes = (
        LaneDist.of(Lane.HEAD, head),
        LaneDist.of(Lane.MIDDLE, mid),
        LaneDist.of(Lane.TAIL, tail),
    )
    pool = np.stack([np.array(head), np.array(mid), np.array(tail)], axis=1).astype(np.int64)
    return OpponentModel(lanes, random5, random3, scoop_rate, pool[:POOL])
