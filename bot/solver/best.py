"""The best response of one hand: frontier splits ranked by their expected
points against a pool of opponents' arrangements.

For 13 cards every legal split is enumerated and the frontier taken; for 16
(多三张) the frontier of the ``SEARCH_16`` rows of highest separable value
(the 2,018,016 pairs are searched best bound first). A frontier larger than
``EXACT`` is cut to the ``EXACT`` best by ``model.full_value`` (lanes taken
as independent) before the exact settlement against the pool.

At a table with strong seats a suggestion is ranked in two stages: every
candidate against the seat pool, then the few best (``RERANK`` splits and
the best split of each of the ``RERANK_IDEAS`` best ideas) again against
the deep seat pool (``rerank``), which decides among near-ties that the
seat pool alone cannot separate.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bot.rules import Card, Preset, Rules, SpecialResult

from .arrays import F64, I64
from .frontier import frontier
from .model import ScoringContext, full_value, lane_values, opponent_model
from .pool import Pool, removal_weights, table_weights
from .response import expected_points
from .search import HandEval, Rows, legal_rows, legal_splits, top_rows

EXACT = 160  # frontier splits settled against the pool
SEARCH_16 = 1024  # 16 cards: rows of highest separable value the frontier is taken from
RERANK = 12  # splits of highest first-stage value re-ranked against the deep seat pool
RERANK_IDEAS = 6  # with the best split of each of this many best ideas


def candidates(he: HandEval, rules: Rules, table: ScoringContext) -> Rows:
    """The frontier splits worth settling exactly."""
    model = opponent_model(rules)
    if he.sp.n == 13:
        rows = legal_splits(he)
    else:
        values = lane_values(he, model, table)
        rows = top_rows(legal_rows(he, *values, limit=SEARCH_16), SEARCH_16)
    front = frontier(he, rows)
    if len(front) > EXACT:
        guess = full_value(he, front, model, table)
        front = front.take(np.argsort(-guess, kind="stable")[:EXACT])
    return front


def codes_of(he: HandEval, rows: Rows) -> I64:
    """(rows, 3) head, middle, tail codes."""
    return np.stack([he.c3[rows.head], he.c5[rows.middle], he.c5[rows.tail]], axis=1)


def scored(
    he: HandEval,
    rules: Rules,
    table: ScoringContext,
    pool: Pool,
    opponents: Sequence[str | None] | None = None,
    seats: Pool | None = None,
) -> tuple[Rows, F64]:
    """Candidate splits and their expected points against the table
    (``opponents``: each opponent's AI level, None for a person; ``seats``:
    how strong seats play, see ``table_value``)."""
    rows, score, _ = scored_shares(he, rules, table, pool, opponents, seats)
    return rows, score


def scored_shares(
    he: HandEval,
    rules: Rules,
    table: ScoringContext,
    pool: Pool,
    opponents: Sequence[str | None] | None,
    seats: Pool | None,
) -> tuple[Rows, F64, F64 | None]:
    """``scored``, with the other seats' share of each row (``table_shares``),
    which the second stage reuses."""
    rows = candidates(he, rules, table)
    score, people = table_shares(codes_of(he, rows), he.cards, rules, table, pool, opponents, seats)
    return rows, score, people


def rerank(
    he: HandEval,
    rows: Rows,
    rules: Rules,
    table: ScoringContext,
    pool: Pool,
    opponents: Sequence[str | None] | None,
    deep: Pool,
    people: F64 | None = None,
) -> tuple[Rows, F64]:
    """The second stage: ``rows`` (the first stage's best) and their
    expected points with the strong seats answered by the ``deep`` seat
    pool (the other seats as in the first stage: ``people``, their share of
    these rows as the first stage priced it, when it has it)."""
    mine = codes_of(he, rows)
    value, _ = table_shares(
        mine, he.cards, rules, table, pool, opponents, deep, few=True, people=people
    )
    return rows, value


def table_value(
    mine: I64,
    cards: Sequence[Card],
    rules: Rules,
    table: ScoringContext,
    pool: Pool,
    opponents: Sequence[str | None] | None,
    seats: Pool | None = None,
    *,
    few: bool = False,
) -> F64:
    """Expected points of each split (rows of lane codes) against the table.
    With ``seats`` (how our strong seats play), the strong seats are answered
    as they play and the other seats by ``pool``'s mix for them, each the
    share of the table it sits in. ``few``: a few splits (the re-rank; see
    ``response.expected_points``)."""
    return table_shares(mine, cards, rules, table, pool, opponents, seats, few=few)[0]


def table_shares(
    mine: I64,
    cards: Sequence[Card],
    rules: Rules,
    table: ScoringContext,
    pool: Pool,
    opponents: Sequence[str | None] | None,
    seats: Pool | None = None,
    *,
    few: bool = False,
    people: F64 | None = None,
) -> tuple[F64, F64 | None]:
    """``table_value``, and the expected points of each split against the
    seats that are not strong (None unless the table mixes strong seats and
    others); ``people``: those already priced, not priced again."""
    levels = list(opponents or ())
    strong = sum(level == "strong" for level in levels)
    if seats is None or strong == 0:
        weights = table_weights(pool, cards, rules, opponents)
        return expected_points(mine, pool, weights, table), None
    value = expected_points(mine, seats, removal_weights(seats, cards, rules), table, few=few)
    others = [level for level in levels if level != "strong"]
    if not others:
        return value, None
    rest = people
    if rest is None:
        weights = table_weights(pool, cards, rules, others)
        rest = expected_points(mine, pool, weights, table, few=few)
    total = (strong * value + len(others) * rest) / len(levels)
    return np.asarray(total, dtype=np.float64), rest


def special_value(special: SpecialResult, rules: Rules, table: ScoringContext) -> float:
    """Expected points of declaring: the special's points from every hand met
    (opponents' specials ignored), doubled where the extended preset doubles
    a special that beats everyone, capped in banker mode."""
    pts = float(special.points)
    if table.banker:
        return min(pts, 7.0) * table.opponents
    if rules.preset is Preset.EXTENDED and table.opponents >= 2:
        pts *= 2
    return pts * table.opponents
