"""One player's hand while arranging: pure operations on its JSON state.

A hand state holds the dealt card tokens (``cards``; a button's card index
points into this list and never changes, so a press made before a sort still
means the same card), the display order, and the lanes as lists of indexes.
Tapping an unplaced card fills the head up to 3, then the middle up to 5;
with 13 cards the last 5 are the tail by themselves. With 多三张 (16 cards)
the tail is tapped too and the 3 cards left over are discarded.

Refusals raise :class:`Refused` with a catalog key (the manager localizes it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from bot.rules.cards import Card, parse_card, sort_by_count, sort_by_rank, sort_by_suit
from bot.rules.placing import placed_lanes
from bot.rules.types import Arrangement

from .actions import small_number

UNDO_DEPTH = 20
SORTS = ("rank", "suit", "count")


class Refused(Exception):
    """An action that changes nothing: ``key`` names the catalog reason."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


def new_hand(tokens: Sequence[str]) -> dict[str, Any]:
    hand: dict[str, Any] = {
        "cards": list(tokens),
        "sort": "rank",
        "head": [],
        "middle": [],
        "tail": [],
        "undo": [],
        "done": False,  # confirmed (or declared, or auto-arranged)
        "declared": None,  # special hand name when declared
        "auto": False,  # arranged by the table at the deadline / on escape
        "special": None,  # {"hand", "points"} when the hand qualifies
        "suggestions": None,  # [{"head","middle","tail","score","cats"}]
        "refused": None,  # [key, params] shown in the hand view
    }
    hand["order"] = sorted_order(hand, "rank")
    return hand


_card = lru_cache(maxsize=512)(parse_card)  # tokens repeat: parse each once


def cards_of(hand: dict[str, Any]) -> list[Card]:
    return [_card(t) for t in hand["cards"]]


def sorted_order(hand: dict[str, Any], how: str) -> list[int]:
    cards = cards_of(hand)
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
    """Head, middle and tail indexes; with 13 cards the tail is the rest
    once head and middle are full."""
    return placed_lanes(
        hand["order"], hand["head"], hand["middle"], hand["tail"], len(hand["cards"])
    )


def placed(hand: dict[str, Any]) -> set[int]:
    h, m, t = lanes(hand)
    return set(h) | set(m) | set(t)


def complete(hand: dict[str, Any]) -> bool:
    h, m, t = lanes(hand)
    return (len(h), len(m), len(t)) == (3, 5, 5)


def _push_undo(hand: dict[str, Any]) -> None:
    hand["undo"].append([list(hand["head"]), list(hand["middle"]), list(hand["tail"])])
    del hand["undo"][:-UNDO_DEPTH]


def _check_open(hand: dict[str, Any]) -> None:
    if hand["done"]:
        raise Refused("err.already_done")


def pick(hand: dict[str, Any], arg: str | None) -> None:
    """Tap card ``arg`` (an index into the dealt cards)."""
    _check_open(hand)
    i = small_number(arg, len(hand["cards"]) - 1)
    if i is None:
        raise Refused("err.bad_card")
    for lane in ("head", "middle", "tail"):
        if i in hand[lane]:
            _push_undo(hand)
            hand[lane].remove(i)
            hand["refused"] = None
            return
    if i in placed(hand):
        # With 13 cards the tail is "the rest": it is changed from the head or middle.
        raise Refused("err.tail_is_rest")
    _push_undo(hand)
    if len(hand["head"]) < 3:
        hand["head"].append(i)
    elif len(hand["middle"]) < 5:
        hand["middle"].append(i)
    else:
        # Only with 多三张: the tail is tapped too.
        hand["tail"].append(i)
    hand["refused"] = None


def undo(hand: dict[str, Any]) -> None:
    _check_open(hand)
    if not hand["undo"]:
        raise Refused("err.nothing_to_undo")
    hand["head"], hand["middle"], hand["tail"] = hand["undo"].pop()
    hand["refused"] = None


def reset(hand: dict[str, Any]) -> None:
    _check_open(hand)
    if not placed(hand):
        raise Refused("err.nothing_to_reset")
    _push_undo(hand)
    hand["head"], hand["middle"], hand["tail"] = [], [], []
    hand["refused"] = None


def sort(hand: dict[str, Any], how: str | None) -> None:
    """Re-order the cards as shown (lanes keep their cards)."""
    if how not in SORTS:
        raise Refused("err.bad_arg")
    hand["sort"] = how
    hand["order"] = sorted_order(hand, how)


def indexes_for(hand: dict[str, Any], tokens: Sequence[str], taken: set[int]) -> list[int]:
    """Map card tokens back to unused indexes (equal cards of the 65-card
    deck, or the same joker token, take distinct indexes)."""
    out = []
    for tok in tokens:
        card = _card(tok)
        for i, own in enumerate(hand["cards"]):
            if i not in taken and _card(own) == card:
                out.append(i)
                taken.add(i)
                break
        else:
            raise Refused("err.bad_card")
    return out


def set_arrangement(hand: dict[str, Any], arr: Arrangement, *, undoable: bool = True) -> None:
    taken: set[int] = set()
    head = indexes_for(hand, [c.token for c in arr.head], taken)
    middle = indexes_for(hand, [c.token for c in arr.middle], taken)
    tail = indexes_for(hand, [c.token for c in arr.tail], taken)
    if undoable:
        _push_undo(hand)
    hand["head"], hand["middle"] = head, middle
    hand["tail"] = tail if extra_cards(hand) else []
    hand["refused"] = None


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
