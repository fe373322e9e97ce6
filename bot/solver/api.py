"""Suggestions, auto-arrange and AI seats (the solver's public functions).

"Meaningfully different" suggestions: two arrangements are the same idea
when every lane has the same category and the same group ranks (the pair,
trips, quad ranks; for a straight, flush or high-card lane its top card),
i.e. they differ only by which kickers or which equal-rank cards go where.
Only the best-scoring arrangement of each idea is shown.
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

from .codes import CAT_SHIFT
from .model import Table, full_value, lane_values, opponent_model, pool_value, table_of
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

RERANK = 128  # rows re-ranked with the full (scoop, home run, cap) expectation
REFINE = 6  # ideas scored against the pool of modelled opponents' arrangements
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
    """Build the scoring model of this table's deck setting and the split
    tables of its hand size now (both cached per process)."""
    opponent_model(rules)
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


def _suggestion(he: HandEval, rows: Rows, i: int, score: float) -> Suggestion:
    t, m, h = int(rows.tail[i]), int(rows.middle[i]), int(rows.head[i])
    lanes = tuple(Category(int(c) >> CAT_SHIFT) for c in (he.c3[h], he.c5[m], he.c5[t]))
    return Suggestion(_display(arrangement(he, t, m, h)), lanes, float(score))  # type: ignore[arg-type]


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


def _ranked(he: HandEval, rules: Rules, table: Table, top: int) -> list[Suggestion]:
    """Best rows by separable value, re-ranked by ``full_value``; the best
    row of each of the first ``max(top, REFINE)`` ideas is then scored
    against the opponent pool (``pool_value``) and those scores decide."""
    model = opponent_model(rules)
    values = lane_values(he, model, table)
    want = max(top, REFINE)
    depth = RERANK
    while True:
        rows = legal_rows(he, *values, limit=depth)
        cand = top_rows(rows, depth)
        score = full_value(he, cand, model, table)
        order = np.argsort(-score, kind="stable")
        sig = (
            shape_signature(he.c5[cand.tail]) << 32 | shape_signature(he.c5[cand.middle]) << 16
        ) | shape_signature(he.c3[cand.head])
        seen: set[int] = set()
        picked: list[int] = []
        for i in order:
            s = int(sig[i])
            if s not in seen:
                seen.add(s)
                picked.append(int(i))
                if len(picked) >= want:
                    break
        if len(picked) >= want or len(cand) < depth:  # enough ideas, or no more rows
            break
        depth *= 8
    chosen = cand.take(np.array(picked, dtype=np.intp))
    final = pool_value(he, chosen, model, table) if model.pool is not None else score[picked]
    best = np.argsort(-final, kind="stable")[:top]
    return [_suggestion(he, chosen, int(i), float(final[i])) for i in best]


def suggest(
    cards: Sequence[Card],
    rules: Rules,
    *,
    players: int | None = None,
    top: int = 3,
    banker: bool = False,
) -> Suggestions:
    """The best ``top`` meaningfully different legal arrangements, best first.

    ``players`` defaults to ``rules.players``; ``banker`` says this seat is the
    banker (banker mode only). A 16-card hand (多三张) gets 13-card
    arrangements: the 3 cards left out are discarded.
    """
    _check_size(cards, rules)
    table = table_of(rules, players, banker)
    he = evaluate_hand(cards, rules)
    items = _ranked(he, rules, table, max(1, top))
    special = detect_special(cards, rules) if len(cards) == 13 else None
    if special is None:
        return Suggestions(None, False, items)
    value = special_value(special, rules, table)
    best = items[0].score if items else float("-inf")
    return Suggestions(special, value >= best, items, value)


def _legal(arr: Arrangement, rules: Rules) -> bool:
    return check_foul(arr, rules) is None


def auto_arrange(cards: Sequence[Card], rules: Rules, *, players: int | None = None) -> Arrangement:
    """A strong legal arrangement of exactly these cards (the 13 kept of 16)."""
    _check_size(cards, rules)
    he = evaluate_hand(cards, rules)
    for item in _ranked(he, rules, table_of(rules, players), 3):
        if _legal(item.arrangement, rules):
            return item.arrangement
    return strongest_tail_first(cards, rules)  # never reached: codes order as lanes do


def strongest_tail_first(cards: Sequence[Card], rules: Rules) -> Arrangement:
    """Strongest 5 as tail, strongest 5 of the rest as middle, the rest as head
    (for 16 cards the strongest legal 3 of the 6 left)."""
    he = evaluate_hand(cards, rules)
    # Lexicographic (tail, middle, head) through the dense rank of each code.
    r5 = np.unique(he.c5, return_inverse=True)[1].astype(float)
    r3 = np.unique(he.c3, return_inverse=True)[1].astype(float)
    rows = top_rows(legal_rows(he, r5 * 2.0**26, r5 * 2.0**13, r3, limit=1), 1)
    return arrangement(he, int(rows.tail[0]), int(rows.middle[0]), int(rows.head[0]))


def _linear_best(cards: Sequence[Card], rules: Rules) -> tuple[Arrangement, float]:
    he = evaluate_hand(cards, rules)
    table = table_of(rules, None)
    model = opponent_model(rules)
    rows = top_rows(legal_rows(he, *lane_values(he, model, table), limit=1), 1)
    score = float(full_value(he, rows, model, table)[0])
    return arrangement(he, int(rows.tail[0]), int(rows.middle[0]), int(rows.head[0])), score


def ai_arrange(cards: Sequence[Card], rules: Rules, strength: str) -> tuple[Arrangement, bool]:
    """An AI seat's arrangement and whether it declares its special hand.

    easy: strongest tail first, declares any special it holds; normal: the
    separable expected points only; strong: the full model (as suggest).
    normal and strong declare when declaring is worth at least as much.
    """
    if strength not in STRENGTHS:
        raise ValueError(f"AI strength is easy, normal or strong, not {strength!r}")
    _check_size(cards, rules)
    special = detect_special(cards, rules) if len(cards) == 13 else None
    if strength == "easy":
        return strongest_tail_first(cards, rules), special is not None
    if strength == "normal":
        arr, score = _linear_best(cards, rules)
        declare = (
            special is not None and special_value(special, rules, table_of(rules, None)) >= score
        )
        return arr, declare
    s = suggest(cards, rules, top=1)
    return s.items[0].arrangement, s.declare_recommended
