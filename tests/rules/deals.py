"""Random tables, deals and arrangements for the differential tests.

Everything is driven by a ``random.Random`` so a failing case is replayable
from its seed. Hands are mostly legal (a cheap heuristic, then random splits),
sometimes fouled on purpose, sometimes built to make a special hand, and
sometimes mirrored across players (same ranks, other suits) so ties, the
banker's tie rule and 辗过 come up often.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.rules.cards import RANKS, SUITS, Card, DeckSpec, sort_by_count
from bot.rules.options import Rules, make_rules

from .reference import is_fouled, is_joker, is_wild_rank, lane_key
from .reference_specials import WINDOWS3, WINDOWS5

Lanes = tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]


@dataclass
class Table:
    preset: str
    players: int
    options: dict[str, Any]
    rules: Rules = field(init=False)

    def __post_init__(self) -> None:
        self.rules = make_rules(self.preset, self.players, self.options)


def random_table(rng: random.Random) -> Table:
    """Any option combination docs/rules.md §6 allows."""
    preset = rng.choice(["classic", "extended"])
    players = rng.choice([2, 3, 4, 4, 5] if preset == "classic" else [2, 3, 4, 4])
    opts: dict[str, Any] = {
        "scoop_double": rng.random() < 0.7,
        "draw_counts_as_scoop": rng.random() < 0.5,
        "wheel": rng.choice(["second", "second", "low"]),
        "escape_penalty": rng.random() < 0.5,
        "base": rng.choice([1, 1, 2, 3]),
    }
    if players == 5:
        opts["added_suit"] = rng.choice(SUITS)
    elif preset == "classic" and players == 4 and rng.random() < 0.45:
        opts["banker"] = True
    else:
        extra = rng.random()
        if extra < 0.35:
            opts["jokers"] = rng.choice([1, 2])
        elif extra < 0.6:
            opts["wild_rank"] = rng.choice(["2", "6", "T", "A", "5"])
    return Table(preset, players, opts)


def deck(rules: Rules) -> list[Card]:
    return list(DeckSpec(jokers=rules.jokers, added_suit=rules.added_suit).cards())


def _take(pool: list[Card], rng: random.Random, pred) -> Card | None:
    fits = [i for i, c in enumerate(pool) if pred(c)]
    if not fits:
        return None
    return pool.pop(rng.choice(fits))


def special_shaped(rng: random.Random, pool: list[Card], rules: Rules) -> list[Card]:
    """13 cards from pool built towards a random special hand (filled at random
    where the pool runs out). Removes the cards from pool."""
    kind = rng.choice(
        [
            "dragon",
            "supreme",
            "pairs",
            "trips",
            "quads",
            "fpt",
            "dfh",
            "high",
            "low",
            "royal",
            "color",
            "flushes",
            "straights",
            "sflushes",
            "six",
            "added",
        ]
    )
    want: list = []  # predicates, one per card
    ranks = list(RANKS)
    if kind in ("dragon", "supreme"):
        suit = rng.choice(SUITS)
        want = [
            (lambda c, r=r: c.rank == r and (kind == "dragon" or c.suit == suit)) for r in ranks
        ]
    elif kind in ("pairs", "trips", "quads", "fpt", "dfh", "six"):
        sizes = {
            "pairs": [2] * 6,
            "trips": [3] * 4,
            "quads": [4] * 3,
            "fpt": [3, 2, 2, 2, 2, 2],
            "dfh": [3, 3, 2, 2, 2],
            "six": [4],
        }[kind]
        chosen = rng.sample(ranks, len(sizes))
        for r, n in zip(chosen, sizes, strict=True):
            want += [(lambda c, r=r: c.rank == r)] * n
    elif kind in ("high", "low", "royal"):
        lo, hi = {"high": (8, 14), "low": (2, 8), "royal": (11, 14)}[kind]
        want = [(lambda c, lo=lo, hi=hi: lo <= c.rank <= hi)] * 13
    elif kind == "color":
        colour = rng.choice([("h", "d"), ("s", "c")])
        want = [(lambda c: c.suit in colour)] * 13
    elif kind in ("flushes", "straights", "sflushes"):
        wins = [rng.choice(WINDOWS3), rng.choice(WINDOWS5), rng.choice(WINDOWS5)]
        suits = [rng.choice(SUITS) for _ in range(3)]
        for w, s in zip(wins, suits, strict=True):
            for r in w:
                if kind == "flushes":
                    want.append(lambda c, s=s: c.suit == s)
                elif kind == "straights":
                    want.append(lambda c, r=r: c.rank == r)
                else:
                    want.append(lambda c, r=r, s=s: c.rank == r and c.suit == s)
    elif kind == "added" and rules.added_suit:
        want = [(lambda c: c.suit == rules.added_suit)] * 13
    hand: list[Card] = []
    for pred in want[:13]:
        c = _take(pool, rng, pred)
        if c is not None:
            hand.append(c)
    # Jokers / wild cards take the place of some template cards now and then.
    wild_pool = [c for c in pool if is_joker(c) or is_wild_rank(c, rules)]
    for w in wild_pool:
        if hand and rng.random() < 0.5:
            pool.append(hand.pop(rng.randrange(len(hand))))
            pool.remove(w)
            hand.append(w)
    while len(hand) < 13:
        hand.append(pool.pop(rng.randrange(len(pool))))
    rng.shuffle(hand)
    return hand


def _ordered(h: Sequence[Card], m: Sequence[Card], t: Sequence[Card], rules: Rules) -> Lanes:
    """Swap middle and tail when the middle is the stronger one."""
    if lane_key(m, rules) > lane_key(t, rules):
        m, t = t, m
    return tuple(h), tuple(m), tuple(t)


def random_split(cards: Sequence[Card], rng: random.Random, rules: Rules) -> Lanes:
    c = list(cards)
    rng.shuffle(c)
    return _ordered(c[:3], c[3:8], c[8:], rules)


def heuristic_split(cards: Sequence[Card], rules: Rules) -> Lanes:
    """Biggest rank groups to the tail, then the middle, the rest to the head."""
    c = sort_by_count(cards)
    return _ordered(c[10:], c[5:10], c[:5], rules)


def legal_arrangement(cards: Sequence[Card], rng: random.Random, rules: Rules) -> Lanes | None:
    """A legal arrangement per the reference, or None if none was found quickly."""
    if rng.random() < 0.5:
        lanes = heuristic_split(cards, rules)
        if not is_fouled(*lanes, rules):
            return lanes
    for _ in range(40):
        lanes = random_split(cards, rng, rules)
        if not is_fouled(*lanes, rules):
            return lanes
    return None


def fouled_arrangement(cards: Sequence[Card], rng: random.Random, rules: Rules) -> Lanes | None:
    for _ in range(40):
        c = list(cards)
        rng.shuffle(c)
        lanes = (tuple(c[:3]), tuple(c[3:8]), tuple(c[8:]))
        if is_fouled(*lanes, rules):
            return lanes
    return None


def deal_hands(rng: random.Random, rules: Rules, special_rate: float = 0.15) -> list[list[Card]]:
    """One 13-card hand per player, from one deck (some built towards specials)."""
    pool = deck(rules)
    rng.shuffle(pool)
    hands = []
    for _ in range(rules.players):
        if rng.random() < special_rate:
            hands.append(special_shaped(rng, pool, rules))
        else:
            hands.append([pool.pop() for _ in range(13)])
    return hands


def mirrored_round(rng: random.Random, rules: Rules) -> list[Lanes] | None:
    """Legal lanes per player where one or two lanes repeat player 0's ranks in
    other suits (ties on category and ranks); None if it did not work out."""
    n = rules.players
    suits_used = (
        SUITS if rules.added_suit is None else tuple(s for s in SUITS if s != rules.added_suit)
    )
    if n > len(suits_used):
        return None
    which = rng.choice([[0], [1], [2], [0, 1], [0, 2], [1, 2]])
    fixed: dict[int, list[tuple[Card, ...]]] = {}
    taken: Counter = Counter()
    for lane in which:
        size = 3 if lane == 0 else 5
        ranks = rng.sample([r for r in RANKS if r != rules.wild_rank], size)
        rot = rng.sample(range(len(suits_used)), n)
        base = [rng.randrange(len(suits_used)) for _ in ranks]
        lanes = []
        for p in range(n):
            cards = tuple(
                Card(r, suits_used[(b + rot[p]) % len(suits_used)])
                for r, b in zip(ranks, base, strict=True)
            )
            lanes.append(cards)
        used = Counter(c for cs in lanes for c in cs)
        if any(used[c] + taken[c] > 1 for c in used):
            return None
        taken += used
        fixed[lane] = lanes
    rest = deck(rules)
    for c in taken.elements():
        rest.remove(c)
    rng.shuffle(rest)
    out: list[Lanes] = []
    for p in range(n):
        free = [rest.pop() for _ in range(13 - sum(3 if ln == 0 else 5 for ln in fixed))]
        for _ in range(30):
            rng.shuffle(free)
            it = iter(free)
            lanes3 = [
                fixed[ln][p] if ln in fixed else tuple(next(it) for _ in range(3 if ln == 0 else 5))
                for ln in range(3)
            ]
            if not is_fouled(*lanes3, rules):
                out.append((lanes3[0], lanes3[1], lanes3[2]))
                break
        else:
            return None
    return out


def shaped_lane(rng: random.Random, rules: Rules, size: int) -> tuple[Card, ...]:
    """A random lane, often built towards a category (so strong hands, wheels,
    five of a kind and joker lanes are common), drawn from the table's deck."""
    pool = deck(rules)
    kind = rng.choice(["any", "any", "group", "flush", "straight", "sflush", "wheel"])
    want: list = []
    if kind == "group":
        left = size
        while left > 0:
            n = min(left, rng.choice([1, 2, 2, 3, 4, 5]))
            r = rng.choice(RANKS)
            want += [(lambda c, r=r: c.rank == r)] * n
            left -= n
    elif kind in ("flush", "sflush", "straight", "wheel"):
        s = rng.choice(SUITS)
        if kind == "wheel":
            w = (14, 2, 3, 4, 5) if size == 5 else (14, 2, 3)
        else:
            w = rng.choice(WINDOWS5 if size == 5 else WINDOWS3)
        for r in w if kind != "flush" else range(size):
            if kind == "flush":
                want.append(lambda c, s=s: c.suit == s)
            elif kind == "straight" or rng.random() < 0.3:
                want.append(lambda c, r=r: c.rank == r)
            else:
                want.append(lambda c, r=r, s=s: c.rank == r and c.suit == s)
    out: list[Card] = []
    for pred in want[:size]:
        c = _take(pool, rng, pred)
        if c is not None:
            out.append(c)
    wilds = [c for c in pool if is_joker(c) or is_wild_rank(c, rules)]
    rng.shuffle(wilds)
    for w in wilds:
        if out and rng.random() < 0.3:
            pool.append(out.pop(rng.randrange(len(out))))
            pool.remove(w)
            out.append(w)
    while len(out) < size:
        out.append(pool.pop(rng.randrange(len(pool))))
    rng.shuffle(out)
    return tuple(out)


def twin_lane(rng: random.Random, rules: Rules, lane: Sequence[Card]) -> tuple[Card, ...]:
    """The same ranks in other suits, or one card turned into a joker / wild card:
    lanes that tie on category and ranks or differ only in naturalness."""
    available = Counter(deck(rules))
    out: list[Card] = []
    for c in lane:
        choices = [c] if is_joker(c) or rng.random() < 0.5 else [Card(c.rank, s) for s in SUITS]
        choices = [x for x in choices if available[x] > 0] or [c]
        pick = rng.choice(choices)
        available[pick] -= 1
        out.append(pick)
    spare = [c for c in available.elements() if is_joker(c) or is_wild_rank(c, rules)]
    if spare and rng.random() < 0.5:
        out[rng.randrange(len(out))] = rng.choice(spare)
    copies = Counter(deck(rules))
    if any(n > copies[c] for c, n in Counter(out).items()):
        return tuple(lane)  # a suit change collided: fall back to the lane itself
    return tuple(out)
