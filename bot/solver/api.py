"""Suggestions, auto-arrange and AI seats (the solver's public functions).

A suggestion is a best response (``best``): the legal splits on the Pareto
frontier (``frontier``) are settled against the pool of opponents'
arrangements (``opponents``, ``pool``), weighted for the cards the hand
holds and for who sits at the table, and ranked by their expected points
(``response``); at a table with strong seats the best few are then
re-ranked against the deep seat pool (``deepened``, ``best.rerank``). The
suggestions are the best split of each of the best distinct ideas: two splits are the same idea when every lane
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
    Rules,
    SpecialResult,
    check_foul,
    detect_special,
)
from bot.rules.cards import sort_by_count

from .arrays import F64, Index
from .best import RERANK, RERANK_IDEAS, rerank, special_value
from .best import scored_shares as best_shares
from .codes import CAT_SHIFT
from .model import ScoringContext, opponent_model, percentile_values, table_of, tail_first_values
from .opponents import deep_seat_pool, deepen, is_built, is_quick, opponent_pool, seat_pool
from .opponents import refine as refine_pool
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

STRENGTHS = ("easy", "normal", "strong")


@dataclass(frozen=True)
class RankedArrangement:
    arrangement: Arrangement
    lanes: tuple[Category, Category, Category]  # head, middle, tail
    score: float  # expected points this round against the table


@dataclass(frozen=True)
class Suggestions:
    special: SpecialResult | None
    declare_recommended: bool
    items: list[RankedArrangement] = field(default_factory=list)
    special_score: float | None = None  # expected points of declaring


def prepare(rules: Rules, *, quick: bool = False) -> bool:
    """Build what a deck setting needs (the lane model, the opponent pool with
    its seat pool, and the split tables of its hand size) now: seconds of
    CPU, once per process and setting, instead of at the first suggestion.
    With ``quick`` a deck setting whose pool is not on disk yet gets a quick
    one (a few seconds instead of ~27 s; then True: ``refine`` builds the
    full one afterwards; meanwhile strong seats are answered as people); the
    same (True) when only the deep seat pool is missing (minutes of CPU):
    ``refine`` builds it, meanwhile suggestions rank in one stage."""
    opponent_pool(rules, quick=quick)
    splits(rules.cards_per_player)
    # The deep seat pool (a suggestion's second stage): built now, or with
    # ``quick`` only read from disk (``refine`` builds it).
    deep = rules.cards_per_player != 13 or deepen(rules, build=not quick) or is_quick(rules)
    return is_quick(rules) or not deep


def built(rules: Rules) -> bool:
    """Whether a suggestion for this deck setting finds its opponent pool
    built (in memory or on disk); False: the first one builds it (about
    30 s of CPU with the default size)."""
    return is_built(rules)


def refine(rules: Rules) -> bool:
    """Build the full opponent pool of a deck setting that has a quick one
    (about 27 s of CPU with the default size, the seat pool included, then
    kept on disk); True when
    it built one. Run it in a worker thread after ``prepare``."""
    return refine_pool(rules)


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


def _suggestion(he: HandEval, rows: Rows, i: int, score: float) -> RankedArrangement:
    t, m, h = int(rows.tail[i]), int(rows.middle[i]), int(rows.head[i])
    return RankedArrangement(_display(arrangement(he, t, m, h)), _lanes(he, rows, i), float(score))


Opponents = Sequence[str | None] | None  # each opponent's AI level, None for a person


def _check_opponents(opponents: Opponents) -> None:
    for level in opponents or ():
        if level is not None and level not in STRENGTHS:
            raise ValueError(f"AI strength is easy, normal or strong, not {level!r}")


def scored(
    he: HandEval,
    rules: Rules,
    table: ScoringContext,
    opponents: Opponents = None,
    *,
    seat: bool = False,
) -> tuple[Rows, F64]:
    """Candidate splits and their expected points against the table's pool.
    A suggestion answers the strong seats as they play (the seat pool); a
    strong seat itself (``seat``) answers the whole pool, as for people."""
    rows, score, _ = scored_shares(he, rules, table, opponents, seat=seat)
    return rows, score


def scored_shares(
    he: HandEval,
    rules: Rules,
    table: ScoringContext,
    opponents: Opponents = None,
    *,
    seat: bool = False,
) -> tuple[Rows, F64, F64 | None]:
    """``scored``, with the share of the seats that are not strong (for
    the second stage)."""
    seats = None if seat else seat_pool(rules)
    return best_shares(he, rules, table, opponent_pool(rules), opponents, seats)


def deepened(
    he: HandEval,
    rules: Rules,
    table: ScoringContext,
    rows: Rows,
    score: F64,
    opponents: Opponents,
    top: int,
    people: F64 | None = None,
) -> tuple[Rows, F64]:
    """A suggestion's second stage at a table with strong seats: the
    ``RERANK`` best rows and the best row of each of the best ``top`` (at
    least ``RERANK_IDEAS``) ideas, re-priced against the deep seat pool;
    only those rows are returned. Elsewhere (no strong seat, no deep pool
    yet, 多三张) the rows as they are."""
    deep = deep_seat_pool(rules)
    if deep is None or not any(level == "strong" for level in opponents or ()):
        return rows, score
    best = np.argsort(-score, kind="stable")[:RERANK]
    keep = np.union1d(best, ideas(he, rows, score, max(top, RERANK_IDEAS)))
    shares = None if people is None else people[keep]
    pool = opponent_pool(rules)
    return rerank(he, rows.take(keep), rules, table, pool, opponents, deep, shares)


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
    opponents: Opponents = None,
) -> Suggestions:
    """The best ``top`` meaningfully different legal arrangements, best first,
    each with its expected points this round against the table.

    ``players`` defaults to ``rules.players``; ``banker`` says this seat is the
    banker (banker mode only); ``opponents`` names each other seat's AI level
    (``None`` for a person; no list: a table of people). A 16-card hand
    (多三张) gets 13-card arrangements: the 3 cards left out are discarded.
    """
    _check_size(cards, rules)
    _check_opponents(opponents)
    special = detect_special(cards, rules) if len(cards) == 13 else None
    return _suggest(cards, rules, table_of(rules, players, banker), top, special, opponents)


def _suggest(
    cards: Sequence[Card],
    rules: Rules,
    table: ScoringContext,
    top: int,
    special: SpecialResult | None,
    opponents: Opponents = None,
    *,
    seat: bool = False,
) -> Suggestions:
    he = evaluate_hand(cards, rules)
    rows, score, people = scored_shares(he, rules, table, opponents, seat=seat)
    if not seat:
        rows, score = deepened(he, rules, table, rows, score, opponents, max(1, top), people)
    best = ideas(he, rows, score, max(1, top))
    items = [_suggestion(he, rows, int(i), float(score[i])) for i in best]
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
    return _best_by(he, tail_first_values(he))


def percentile_sum(cards: Sequence[Card], rules: Rules) -> Arrangement:
    """The legal split with the highest sum of lane strength percentiles (each
    lane's share of random lanes of its size that it beats)."""
    he = evaluate_hand(cards, rules)
    model = opponent_model(rules)
    return _best_by(he, percentile_values(he, model.random5, model.random3))


def ai_arrange(
    cards: Sequence[Card], rules: Rules, strength: str, *, opponents: Opponents = None
) -> tuple[Arrangement, bool]:
    """An AI seat's arrangement and whether it declares its special hand.

    easy: strongest tail first; normal: the highest lane-percentile sum; both
    declare any special they hold. strong: the best response to the table
    (``opponents`` as in ``suggest``), declaring when that is worth at least
    as much as its arrangement.
    """
    if strength not in STRENGTHS:
        raise ValueError(f"AI strength is easy, normal or strong, not {strength!r}")
    _check_size(cards, rules)
    _check_opponents(opponents)
    special = detect_special(cards, rules) if len(cards) == 13 else None
    if strength == "easy":
        return strongest_tail_first(cards, rules), special is not None
    if strength == "normal":
        return percentile_sum(cards, rules), special is not None
    s = _suggest(cards, rules, table_of(rules, None), 1, special, opponents, seat=True)
    return s.items[0].arrangement, s.declare_recommended
