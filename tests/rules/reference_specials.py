"""An independent reference of docs/rules.md §5 (special hands, 报道), for tests only.

Written without reading bot/rules/specials.py. Explicit search: for every way
the wild-rank cards split into "stand for themselves" and "stand for another
card", the fixed cards N and the number m of free cards (jokers + substituting
wild cards) are tested against each special's definition, where m free cards
may become any cards at all. A special is natural when it is made with m = 0.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import combinations, combinations_with_replacement

from bot.rules.cards import RANKS, SUITS, Card
from bot.rules.options import Preset, Rules

from .reference import is_joker, is_wild_rank

Plain = tuple[int, str]

ORDER = (
    "supreme_dragon",
    "dragon",
    "all_added_suit",
    "twelve_royals",
    "three_straight_flushes",
    "three_quads",
    "six_of_a_kind",
    "all_high",
    "all_low",
    "one_color",
    "double_full_house",
    "four_trips",
    "five_pairs_trips",
    "six_pairs",
    "three_straights",
    "three_flushes",
)
CLASSIC_POINTS = {
    "supreme_dragon": 72,
    "dragon": 36,
    "all_added_suit": 30,
    "six_of_a_kind": 5,
    "one_color": 5,
    "four_trips": 5,
    "six_pairs": 5,
    "three_straights": 5,
    "three_flushes": 5,
}
EXTENDED_POINTS = {
    "supreme_dragon": 52,
    "dragon": 26,
    "twelve_royals": 24,
    "three_straight_flushes": 18,
    "three_quads": 16,
    "all_high": 10,
    "all_low": 10,
    "one_color": 10,
    "double_full_house": 8,
    "four_trips": 6,
    "five_pairs_trips": 5,
    "six_pairs": 3,
    "three_straights": 3,
    "three_flushes": 3,
}

# Rank windows of straights (A is 14; A-2-3 and A-2-3-4-5 use it low).
WINDOWS3 = [(14, 2, 3)] + [tuple(range(lo, lo + 3)) for lo in range(2, 13)]
WINDOWS5 = [(14, 2, 3, 4, 5)] + [tuple(range(lo, lo + 5)) for lo in range(2, 11)]
# Group sizes of the pair/trips specials (a group is cards of one rank; one rank
# may hold several groups: a quad counts as two pairs or trips + a single, trips
# as a pair + a single, docs/rules.md §5).
GROUPS = {
    "three_quads": (4, 4, 4, 1),
    "double_full_house": (3, 3, 2, 2, 2, 1),
    "four_trips": (3, 3, 3, 3, 1),
    "five_pairs_trips": (3, 2, 2, 2, 2, 2),
    "six_pairs": (2, 2, 2, 2, 2, 2, 1),
}


def points_table(rules: Rules) -> dict[str, int]:
    base = dict(CLASSIC_POINTS if rules.preset is Preset.CLASSIC else EXTENDED_POINTS)
    if rules.added_suit is None:
        base.pop("all_added_suit", None)  # 5-player (65-card deck) only
    for name, pts in rules.special_points.items():
        if name in base:
            base[name] = pts
    return base


@cache
def _decomposes(counts: tuple[int, ...], groups: tuple[int, ...]) -> bool:
    """Can ranks with these counts be split exactly into groups of these sizes?"""
    if not counts:
        return not groups
    c, rest = counts[0], counts[1:]
    if c == 0:
        return _decomposes(rest, groups)
    seen = set()
    for k in range(1, len(groups) + 1):
        for idx in combinations(range(len(groups)), k):
            chosen = tuple(groups[i] for i in idx)
            if sum(chosen) != c or chosen in seen:
                continue
            seen.add(chosen)
            left = list(groups)
            for g in chosen:
                left.remove(g)
            if _decomposes(rest, tuple(left)):
                return True
    return False


def _groups_fit(ranks: Sequence[int], m: int, groups: tuple[int, ...]) -> bool:
    base = Counter(ranks)
    for extra in combinations_with_replacement(RANKS, m):
        c = base + Counter(extra)
        if _decomposes(tuple(sorted(c.values(), reverse=True)), groups):
            return True
    return False


def _covers(need: Counter, have: Counter) -> bool:
    """need ⊆ have as multisets."""
    return all(have[k] >= n for k, n in need.items())


def _window_counts(windows, sizes) -> list[tuple[int, ...]]:
    """Rank counts (index = rank) of every head window + middle window + tail window."""
    out = set()
    for h in WINDOWS3:
        for a in WINDOWS5:
            for b in WINDOWS5:
                c = [0] * 15
                for r in (*h, *a, *b):
                    c[r] += 1
                out.add(tuple(c))
    return sorted(out)


_STRAIGHT_SHAPES = _window_counts(WINDOWS3, WINDOWS5)


def _three_straights(ranks: Sequence[int]) -> bool:
    need = [0] * 15
    for r in ranks:
        need[r] += 1
    return any(all(n <= h for n, h in zip(need, have, strict=True)) for have in _STRAIGHT_SHAPES)


def _three_flushes(suits: Sequence[str]) -> bool:
    need = Counter(suits)
    for sh in SUITS:
        for sm in SUITS:
            for st in SUITS:
                cap = Counter({sh: 3}) + Counter({sm: 5}) + Counter({st: 5})
                if _covers(need, cap):
                    return True
    return False


_HEADS = [Counter((r, s) for r in w) for w in WINDOWS3 for s in SUITS]
_FIVES = [Counter((r, s) for r in w) for w in WINDOWS5 for s in SUITS]


def _three_straight_flushes(cards: Sequence[Plain]) -> bool:
    if not (_three_straights([r for r, _ in cards]) and _three_flushes([s for _, s in cards])):
        return False
    need = Counter(cards)
    for h in _HEADS:
        after_head = need - h
        if after_head.total() > 10:
            continue
        for a in _FIVES:
            rest = after_head - a
            if rest.total() <= 5 and any(_covers(rest, b) for b in _FIVES):
                return True
    return False


def makes(name: str, n: Sequence[Plain], m: int, rules: Rules) -> bool:
    """Do the fixed cards n plus m free cards make this special?"""
    ranks = [r for r, _ in n]
    suits = {s for _, s in n}
    if name == "supreme_dragon":
        return len(set(ranks)) == len(ranks) and len(suits) <= 1
    if name == "dragon":
        return len(set(ranks)) == len(ranks)
    if name == "all_added_suit":
        return rules.added_suit is not None and suits <= {rules.added_suit}
    if name == "twelve_royals":
        return all(r >= 11 for r in ranks)
    if name == "three_straight_flushes":
        return _three_straight_flushes(n)
    if name == "six_of_a_kind":
        return max(Counter(ranks).values(), default=0) + m >= 6
    if name == "all_high":
        return all(r >= 8 for r in ranks)
    if name == "all_low":
        return all(r <= 8 for r in ranks)
    if name == "one_color":
        return suits <= {"h", "d"} or suits <= {"s", "c"}
    if name in GROUPS:
        return _groups_fit(ranks, m, GROUPS[name])
    if name == "three_straights":
        return _three_straights(ranks)
    if name == "three_flushes":
        return _three_flushes([s for _, s in n])
    raise ValueError(name)


def _splits(cards: Sequence[Card], rules: Rules) -> list[tuple[list[Plain], int]]:
    """(fixed cards, free count) for every choice of wild cards standing for themselves;
    the first entry is the natural one (every wild-rank card as itself)."""
    jokers = sum(1 for c in cards if is_joker(c))
    wilds = [c for c in cards if is_wild_rank(c, rules)]
    plain = [(c.rank, c.suit) for c in cards if not is_joker(c) and not is_wild_rank(c, rules)]
    out = []
    for k in range(len(wilds), -1, -1):
        for selves in combinations(wilds, k):
            out.append((plain + [(c.rank, c.suit) for c in selves], jokers + len(wilds) - k))
    return out


def detect(cards: Sequence[Card], rules: Rules) -> tuple[str, int, bool] | None:
    """(name, points, natural) of the highest special these 13 cards may declare, or None.

    classic: only natural specials, except six of a kind (never natural);
    extended: jokers / wild cards may complete any special (docs/rules.md §5)."""
    if len(cards) != 13:
        raise ValueError("a special hand has 13 cards")
    table = points_table(rules)
    splits = _splits(cards, rules)
    natural_split = splits[0] if splits[0][1] == 0 else None
    for name in ORDER:
        if name not in table:
            continue
        natural = natural_split is not None and makes(name, *natural_split, rules)
        if natural:
            return name, table[name], True
        if rules.preset is Preset.CLASSIC and name != "six_of_a_kind":
            continue  # 手上有鬼无法报道
        if any(makes(name, n, m, rules) for n, m in splits):
            return name, table[name], False
    return None
