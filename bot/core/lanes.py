"""Cards of a hand: a token parsed once (``card_of``) and the display
orders (``order_of``). A hand's readings (its lanes, arrangement, kept cards)
are the typed ``bot.core.hand.Hand``'s."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from bot.rules.cards import Card, parse_card, sort_by_count, sort_by_rank, sort_by_suit

card_of = lru_cache(maxsize=512)(parse_card)  # tokens repeat: parse each once


def order_of(tokens: Sequence[str], how: str) -> list[int]:
    """The display order of dealt cards (indexes into them), sorted ``how``:
    "rank", "suit" or "count"."""
    cards = [card_of(t) for t in tokens]
    sorter = {"rank": sort_by_rank, "suit": sort_by_suit, "count": sort_by_count}[how]
    # Sort (card, index) pairs so equal cards of the 65-card deck keep their indexes.
    indexed = list(enumerate(cards))
    ordered = sorter(c for _, c in indexed)
    pool: dict[Card, list[int]] = {}
    for i, c in indexed:
        pool.setdefault(c, []).append(i)
    return [pool[c].pop(0) for c in ordered]
