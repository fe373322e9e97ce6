"""Shuffling, the published deck hash, dice and dealing (docs/rules.md §7.2).

The deck is shuffled with ``secrets`` randomness. At the deal the table shows
``sha256(deck_text + ":" + salt)`` where ``deck_text`` is the shuffled card
tokens joined by commas; after the showdown it reveals the deck and the salt,
so anyone can recompute the hash (:func:`verify`) and check that the cards
were fixed before anyone arranged.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from bot.rules.cards import RANKS, rank_char
from bot.rules.options import DealStyle, Rules

SYSTEM_RANDOM = secrets.SystemRandom()


def deck_text(deck_tokens: Sequence[str]) -> str:
    return ",".join(deck_tokens)


def deck_hash(deck_tokens: Sequence[str], salt: str) -> str:
    """Hex SHA-256 of the shuffled deck and the salt."""
    return hashlib.sha256(f"{deck_text(deck_tokens)}:{salt}".encode()).hexdigest()


def verify(deck_tokens: Sequence[str], salt: str, hash_hex: str) -> bool:
    """True when ``hash_hex`` is the published hash of this deck and salt."""
    expected = deck_hash(list(deck_tokens), salt)
    return hmac.compare_digest(expected, str(hash_hex).strip().lower())


@dataclass(frozen=True, slots=True)
class Deal:
    deck: tuple[str, ...]  # shuffled tokens
    salt: str
    hash: str
    dice: tuple[int, int]
    first_seat: int
    hands: tuple[tuple[str, ...], ...]  # per seat, in seat order
    wild_rank: str | None  # 百变 rank drawn for this round (rank char)


def shuffled_deck(rules: Rules, rng: random.Random = SYSTEM_RANDOM) -> list[str]:
    tokens = [c.token for c in rules.deck.cards()]
    rng.shuffle(tokens)
    return tokens


def deal_order(n_seats: int, per_player: int, first_seat: int, style: str) -> list[int]:
    """The seat receiving each card off the top of the deck, in order:
    round the table from ``first_seat``, one card or three at a time."""
    chunk = 3 if style == DealStyle.THREE else 1
    counts = [0] * n_seats
    order: list[int] = []
    while len(order) < n_seats * per_player:
        for i in range(n_seats):
            seat = (first_seat + i) % n_seats
            take = min(chunk, per_player - counts[seat])
            order.extend([seat] * take)
            counts[seat] += take
    return order


def make_deal(
    rules: Rules,
    n_seats: int,
    *,
    style: str = DealStyle.ONE,
    random_wild_rank: bool = False,
    rng: random.Random = SYSTEM_RANDOM,
) -> Deal:
    deck = shuffled_deck(rules, rng)
    salt = secrets.token_hex(16) if rng is SYSTEM_RANDOM else f"{rng.getrandbits(128):032x}"
    dice = (rng.randint(1, 6), rng.randint(1, 6))
    # Count the dice total round the table from seat 0 (the seat counting 1).
    first_seat = (sum(dice) - 1) % n_seats
    per_player = rules.cards_per_player
    hands: list[list[str]] = [[] for _ in range(n_seats)]
    for token, seat in zip(deck, deal_order(n_seats, per_player, first_seat, style), strict=False):
        hands[seat].append(token)
    wild = rank_char(rng.choice(RANKS)) if random_wild_rank else None
    return Deal(
        deck=tuple(deck),
        salt=salt,
        hash=deck_hash(deck, salt),
        dice=dice,
        first_seat=first_seat,
        hands=tuple(tuple(h) for h in hands),
        wild_rank=wild,
    )
