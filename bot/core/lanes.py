"""Read-only helpers over one hand as stored (its JSON: the lanes placed so
far), for readers of a room's stored form (the console, tests); the table,
the views and the pictures read the typed ``bot.core.hand.Hand``.

A stored hand holds the dealt card tokens (``cards``), the display order
and the lanes as lists of indexes into ``cards``; with 13 cards a lane left
empty is the rest once the other two are full.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from bot.rules.cards import Card, parse_card, sort_by_count, sort_by_rank, sort_by_suit
from bot.rules.placing import placed_lanes
from bot.rules.types import Arrangement

card_of = lru_cache(maxsize=512)(parse_card)  # tokens repeat: parse each once


def cards_of(hand: dict[str, Any]) -> list[Card]:
    return [card_of(t) for t in hand["cards"]]


def sorted_order(hand: dict[str, Any], how: str) -> list[int]:
    return order_of(hand["cards"], how)


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


def extra_cards(hand: dict[str, Any]) -> int:
    """Cards beyond 13 (3 with 多三张): they are discarded."""
    return len(hand["cards"]) - 13


def lanes(hand: dict[str, Any]) -> tuple[list[int], list[int], list[int]]:
    """Head, middle and tail indexes; with 13 cards a lane left empty is the
    rest once the other two are full."""
    return placed_lanes(
        hand["order"], hand["head"], hand["middle"], hand["tail"], len(hand["cards"])
    )


def placed(hand: dict[str, Any]) -> set[int]:
    h, m, t = lanes(hand)
    return set(h) | set(m) | set(t)


def complete(hand: dict[str, Any]) -> bool:
    h, m, t = lanes(hand)
    return (len(h), len(m), len(t)) == (3, 5, 5)


def arrangement(hand: dict[str, Any]) -> Arrangement:
    h, m, t = lanes(hand)
    cards = cards_of(hand)
    return Arrangement.of([cards[i] for i in h], [cards[i] for i in m], [cards[i] for i in t])


def arrangement_tokens(hand: dict[str, Any]) -> dict[str, list[str]]:
    h, m, t = lanes(hand)
    c = hand["cards"]
    return {"head": [c[i] for i in h], "middle": [c[i] for i in m], "tail": [c[i] for i in t]}


def kept_cards(hand: dict[str, Any]) -> list[Card]:
    """The 13 cards in play: all of them, or the 13 placed with 多三张."""
    cards = cards_of(hand)
    if extra_cards(hand) == 0:
        return cards
    return [cards[i] for i in sorted(placed(hand))]


def same_cards(a: Sequence[Card], b: Sequence[Card]) -> bool:
    return Counter(a) == Counter(b)


def kept_tokens(hand: dict[str, Any]) -> list[str]:
    """Tokens of the 13 cards in play, in lane order."""
    a = arrangement_tokens(hand)
    return a["head"] + a["middle"] + a["tail"]
