"""Cards, tokens and decks (牌与牌组), docs/rules.md §1.

A card is a small immutable value: a rank 2..14 (A = 14) and a suit letter
``s h d c``; jokers (鬼, 大小王) are rank 15 (small, ``SJ``) and 16 (big,
``BJ``) with the suit ``j``. In the 65-card deck two cards may be equal: a
hand is a sequence (a multiset), never a set.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

SUITS: tuple[str, ...] = ("s", "h", "d", "c")
SUIT_SYMBOLS: dict[str, str] = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
_SYMBOL_TO_SUIT: dict[str, str] = {v: k for k, v in SUIT_SYMBOLS.items()}
# Text presentation variants of the suit symbols some keyboards produce.
_SYMBOL_TO_SUIT.update({"♤": "s", "♡": "h", "♢": "d", "♧": "c"})

RANKS: tuple[int, ...] = tuple(range(2, 15))
ACE = 14
SMALL_JOKER = 15
BIG_JOKER = 16
JOKER_SUIT = "j"

_RANK_TO_CHAR = {10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}
_CHAR_TO_RANK = {"T": 10, "10": 10, "J": 11, "Q": 12, "K": 13, "A": 14}
_TOKEN_RE = re.compile(r"^(10|[2-9TJQKA])([SHDC♠♥♦♣♤♡♢♧])$")


class CardError(ValueError):
    """A card token that cannot be read, or a deck constraint broken."""


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One playing card. Ordered by rank then suit letter (only for sorting)."""

    rank: int
    suit: str

    @property
    def is_joker(self) -> bool:
        return self.rank >= SMALL_JOKER

    @property
    def token(self) -> str:
        """The canonical text token: ``As``, ``Td``, ``BJ``."""
        if self.rank == BIG_JOKER:
            return "BJ"
        if self.rank == SMALL_JOKER:
            return "SJ"
        return rank_char(self.rank) + self.suit

    @property
    def symbol(self) -> str:
        """For people: ``A♠``, ``10♦``, ``大王``-free ``🃏`` form for jokers."""
        if self.is_joker:
            return "🃏" if self.rank == BIG_JOKER else "🂿"
        r = "10" if self.rank == 10 else rank_char(self.rank)
        return r + SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return self.token

    def __repr__(self) -> str:
        return f"Card({self.token})"


BIG = Card(BIG_JOKER, JOKER_SUIT)
SMALL = Card(SMALL_JOKER, JOKER_SUIT)


def rank_char(rank: int) -> str:
    """``2``..``9``, ``T``, ``J``, ``Q``, ``K``, ``A``."""
    if 2 <= rank <= 9:
        return str(rank)
    try:
        return _RANK_TO_CHAR[rank]
    except KeyError:
        raise CardError(f"no rank {rank}") from None


def parse_rank(text: str) -> int:
    """A rank token (``6``, ``T``, ``10``, ``q``) to 2..14."""
    t = str(text).strip().upper()
    if t.isdigit() and 2 <= int(t) <= 10:
        return int(t)
    if t in _CHAR_TO_RANK:
        return _CHAR_TO_RANK[t]
    raise CardError(f"unknown rank {text!r}")


def parse_card(token: str) -> Card:
    """Parse one token of docs/rules.md §1 notation (letters case-insensitive)."""
    if not isinstance(token, str):
        raise CardError(f"card token must be text, got {token!r}")
    t = token.strip().upper()
    if t == "BJ":
        return BIG
    if t == "SJ":
        return SMALL
    m = _TOKEN_RE.match(t)
    if not m:
        raise CardError(f"unknown card token {token!r}")
    rank_text, suit_text = m.groups()
    suit = _SYMBOL_TO_SUIT.get(suit_text, suit_text.lower())
    return Card(_CHAR_TO_RANK.get(rank_text) or int(rank_text), suit)


def parse_cards(tokens: Iterable[str] | str) -> tuple[Card, ...]:
    """Parse a list of tokens, or one string of tokens separated by spaces or commas."""
    if isinstance(tokens, str):
        tokens = [t for t in re.split(r"[\s,]+", tokens) if t]
    return tuple(parse_card(t) for t in tokens)


def format_cards(cards: Iterable[Card]) -> list[str]:
    return [c.token for c in cards]


@dataclass(frozen=True, slots=True)
class DeckSpec:
    """Which cards a round is dealt from.

    ``added_suit`` names the suit of the 13 extra cards of the 65-card deck
    (加一色), used with 5 players.
    """

    jokers: int = 0
    added_suit: str | None = None

    def cards(self) -> tuple[Card, ...]:
        base = [Card(r, s) for s in SUITS for r in RANKS]
        if self.added_suit:
            base += [Card(r, self.added_suit) for r in RANKS]
        jokers = [BIG, SMALL][: self.jokers]
        return tuple(base + jokers)

    def size(self) -> int:
        return 52 + (13 if self.added_suit else 0) + self.jokers

    def copies(self, card: Card) -> int:
        """How many times the deck holds this card."""
        if card.is_joker:
            # With one joker the deck holds one, whichever token it is given.
            return 1 if self.jokers >= (2 if card == SMALL else 1) else 0
        return 2 if card.suit == self.added_suit else 1


def check_deck(cards: Sequence[Card], spec: DeckSpec) -> str | None:
    """The first way ``cards`` cannot all come from one deck, or None."""
    counts = Counter(cards)
    jokers = sum(n for c, n in counts.items() if c.is_joker)
    if jokers > spec.jokers:
        return (
            f"{jokers} jokers, but the deck has {spec.jokers}"
            if spec.jokers
            else "a joker, but the deck has no jokers"
        )
    for card, n in counts.items():
        if card.is_joker:
            if spec.jokers == 1:
                continue  # one joker of either name, already counted above
            if n > 1:
                return f"{card.token} appears {n} times, but the deck holds 1"
            continue
        held = spec.copies(card)
        if n > held:
            return f"{card.token} appears {n} times, but the deck holds {held}"
    return None


# Display order: jokers first, then ♠ ♥ ♦ ♣.
_SUIT_ORDER: dict[str, int] = {s: i for i, s in enumerate((JOKER_SUIT, *SUITS))}


def sort_by_rank(cards: Iterable[Card]) -> list[Card]:
    """High to low, jokers first."""
    return sorted(cards, key=lambda c: (-c.rank, _SUIT_ORDER[c.suit]))


def sort_by_suit(cards: Iterable[Card]) -> list[Card]:
    """Grouped by suit (♠♥♦♣), high to low inside a suit, jokers first."""
    return sorted(cards, key=lambda c: (_SUIT_ORDER[c.suit], -c.rank))


def sort_by_count(cards: Iterable[Card]) -> list[Card]:
    """Bigger groups of one rank first (quads, trips, pairs), then high to low."""
    cards = list(cards)
    counts = Counter(c.rank for c in cards)
    return sorted(
        cards, key=lambda c: (not c.is_joker, -counts[c.rank], -c.rank, _SUIT_ORDER[c.suit])
    )
