"""Suggestions, auto-arrange and AI seats (the solver's public functions).

A suggestion is a best response: the legal splits on the Pareto frontier
(``frontier``) are settled against the pool of opponents' arrangements
(``pool``), weighted for the cards the hand holds, and ranked by their
expected points (``response``). The suggestions are the best split of each
of the best distinct ideas: two splits are the same idea when every lane
has the same category and the same group ranks (the pair, trips, quad
ranks; for a straight, flush or high-card lane its top card), i.e. they
differ only by which kickers or which equal-rank cards go where.

AI seats form a ladder, each level clearly stronger than the one below:
easy plays the strongest tail first, normal the split with the highest sum
of lane strength percentiles (a sensible player who ignores what the table
holds), strong the best response (as ``suggest``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from bot.rules import (
    Arrangement,
    Card,
    Category,
    Preset,
    Rules,
    SpecialResult,
    check_foul,
    detect_special,
)
from bot.rules.cards import sort_by_count

from .arrays import F64, Index
from .codes import CAT_SHIFT
from .frontier import frontier
from .model import Table, full_value, lane_values, opponent_model, percentile_values, table_of
from .pool import opponent_pool, removal_weights
from .response import expected_points
from .search import (
    HandEval,
    Rows,
    arrangement,
    evaluate_hand,
    legal_rows,
    shape_signature,
    top_rows,
)
from .splits import splits

EXACT = 160  # frontier splits settled against the pool (the rest by full_value)
SEARCH_16 = 1024  # 16 cards: rows of highest separable value the frontier is taken from
STRENGTHS = ("easy", "normal", "strong")


@dataclass(frozen=True)
class Suggestion:
    arrangement: Arrangement
    lanes: tuple[Category, Category, Category]  # head, middle, tail
    score: float  # expected points this round against the table


@dataclass(frozen=True)
class Suggestions:
    special: SpecialResult | None
    declare_recommended: bool
    items: list[Suggestion] = field(default_factory=list)
    special_score: float | None = None  # expected points of declaring


def prepare(rules: Rules) -> None:
    """Build what a deck setting needs (the lane model, the opponent pool and
    the split tables of its hand size) now: seconds of CPU, once per process
    and setting, instead of at the first suggestion."""
    opponent_pool(rules)
    splits(rules.cards_per_player)


def _check_size(cards: Sequence[Card], rules: Rules) -> None:
    want = rules.cards_per_player
    if len(cards) != want:
        raise ValueError(f"a hand has {want} cards at this table, not {len(cards)}")


def _display(arr: Arrangement) -> Arrangement:
    """Each lane shown grouped (quads, trips, pairs first), high to low."""
    return Arrangement.of(
        sort_by_count(arr.head), sort_by_count(arr.middle), sort_by_count(arr.tail)
    )


def _lanes(he: HandEval, rows: Rows, i: int) -> tuple[Category, Category, Category]:
    head, mid, tail = (
        Category(int(c) >> CAT_SHIFT)
        for c in (he.c3[rows.head[i]], he.c5[rows.middle[i]], he.c5[rows.tail[i]])
    )
    return head, mid, tail


def _suggestion(he: HandEval, rows: Rows, i: int, score: float) -> Suggestion:
    t, m, h = int(rows.tail[i]), int(rows.middle[i]), int(rows.head[i])
    return Suggestion(_display(arrangement(he, t, m, h)), _lanes(he, rows, i), float(score))


def special_value(special: SpecialResult, rules: Rules, table: Table) -> float:
    """Expected points of declaring: the special's points from every hand met
    (opponents' specials ignored), doubled where the extended preset doubles
    a special that beats everyone, capped in banker mode."""
    pts = float(special.points)
    if table.banker:
        return min(pts, 7.0) * table.opponents
    if rules.preset is Preset.EXTENDED and table.opponents >= 2:
        pts *= 2
    return pts * table.opponents


def candidates(he: HandEval, rules: Rules, table: Table) -> Rows:
    """The frontier splits worth settling exactly, best guess first."""
    model = opponent_model(rules)
    if he.sp.n == 13:
        zeros5, zeros3 = np.zeros(len(he.c5)), np.zeros(len(he.c3))
        rows = legal_rows(he, zeros5, zeros5, zeros3)
    else:  # 多三张: the frontier of the rows of highest separable value
        values = lane_values(he, model, table)
        rows = top_rows(legal_rows(he, *values, limit=SEARCH_16), SEARCH_16)
    front = frontier(he, rows)
    if len(front) > EXACT:
        guess = full_value(he, front, model, table)
        front = front.take(np.argsort(-guess, kind="stable")[:EXACT])
    return front


def scored(he: HandEval, rules: Rules, table: Table) -> tuple[Rows, F64]:
    """Candidate splits and their expected points against the table."""
    rows = candidates(he, rules, table)
    pool = opponent_pool(rules)
    weights = removal_weights(pool, he.cards, rules)
    mine = np.stack([he.c3[rows.head], he.c5[rows.middle], he.c5[rows.tail]], axis=1)
    return rows, expected_points(mine, pool, weights, table)


def ideas(he: HandEval, rows: Rows, score: F64, top: int) -> Index:
    """Indices of the best row of each of the ``top`` best distinct ideas."""
    sig = (
        shape_signature(he.c5[rows.tail]) << 32 | shape_signature(he.c5[rows.middle]) << 16
    ) | shape_signature(he.c3[rows.head])
    seen: set[int] = set()
    picked: list[int] = []
    for i in np.argsort(-score, kind="stable"):
        s = int(sig[i])
        if s not in seen:
            seen.add(s)
            picked.append(int(i))
            if len(picked) == top:
                break
    return np.array(picked, dtype=np.intp)


def suggest(
    cards: Sequence[Card],
    rules: Rules,
    *,
    players: int | None = None,
    top: int = 3,
    banker: bool = False,
) -> Suggestions:
    """The best ``top`` meaningfully different legal arrangements, best first,
    each with its expected points this round against the table.

    ``players`` defaults to ``rules.players``; ``banker`` says this seat is the
    banker (banker mode only). A 16-card hand (多三张) gets 13-card
    arrangements: the 3 cards left out are discarded.
    """
    _check_size(cards, rules)
    table = table_of(rules, players, banker)
    he = evaluate_hand(cards, rules)
    rows, score = scored(he, rules, table)
    best = ideas(he, rows, score, max(1, top))
    items = [_suggestion(he, rows, int(i), float(score[i])) for i in best]
    special = detect_special(cards, rules) if len(cards) == 13 else None
    if special is None:
        return Suggestions(None, False, items)
    value = special_value(special, rules, table)
    return Suggestions(special, value >= items[0].score, items, value)


def _legal(arr: Arrangement, rules: Rules) -> bool:
    return check_foul(arr, rules) is None


def auto_arrange(cards: Sequence[Card], rules: Rules, *, players: int | None = None) -> Arrangement:
    """The best-response arrangement of exactly these cards (the 13 kept of 16)."""
    _check_size(cards, rules)
    for item in suggest(cards, rules, players=players, top=1).items:
        if _legal(item.arrangement, rules):
            return item.arrangement
    return strongest_tail_first(cards, rules)  # never reached: codes order as lanes do


def _best_by(he: HandEval, values: tuple[F64, F64, F64]) -> Arrangement:
    rows = top_rows(legal_rows(he, *values, limit=1), 1)
    return arrangement(he, int(rows.tail[0]), int(rows.middle[0]), int(rows.head[0]))


def strongest_tail_first(cards: Sequence[Card], rules: Rules) -> Arrangement:
    """Strongest 5 as tail, strongest 5 of the rest as middle, the rest as head
    (for 16 cards the strongest legal 3 of the 6 left)."""
    he = evaluate_hand(cards, rules)
    # Lexicographic (tail, middle, head) through the dense rank of each code.
    r5 = np.unique(he.c5, return_inverse=True)[1].astype(float)
    r3 = np.unique(he.c3, return_inverse=True)[1].astype(float)
    return _best_by(he, (r5 * 2.0**26, r5 * 2.0**13, r3))


def percentile_sum(cards: Sequence[Card], rules: Rules) -> Arrangement:
    """The legal split with the highest sum of lane strength percentiles (each
    lane's share of random lanes of its size that it beats)."""
    he = evaluate_hand(cards, rules)
    model = opponent_model(rules)
    return _best_by(he, percentile_values(he, model.random5, model.random3))


def ai_arrange(cards: Sequence[Card], rules: Rules, strength: str) -> tuple[Arrangement, bool]:
    """An AI seat's arrangement and whether it declares its special hand.

    easy: strongest tail first; normal: the highest lane-percentile sum; both
    declare any special they hold. strong: the best response (as suggest),
    declaring when that is worth at least as much as its arrangement.
    """
    if strength not in STRENGTHS:
        raise ValueError(f"AI strength is easy, normal or strong, not {strength!r}")
    _check_size(cards, rules)
    special = detect_special(cards, rules) if len(cards) == 13 else None
    if strength == "easy":
        return strongest_tail_first(cards, rules), special is not None
    if strength == "normal":
        return percentile_sum(cards, rules), special is not None
    s = suggest(cards, rules, top=1)
    return s.items[0].arrangement, s.declare_recommended
