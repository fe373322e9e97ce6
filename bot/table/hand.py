"""One player's hand while arranging: pure operations on the typed
``bot.core.hand.Hand``.

A hand holds the dealt card tokens (``cards``; a button's card index
points into this list and never changes, so a press made before a sort still
means the same card), the display order, and the lanes as lists of indexes.
Tapping an unplaced card fills the head up to 3, then the middle up to 5;
with 13 cards the last 5 are the tail by themselves. With 多三张 (16 cards)
the tail is tapped too and the 3 cards left over are discarded.

Refusals raise :class:`Refused` with a catalog key (the manager localizes it).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.actions import small_number
from bot.core.hand import Hand, LaneIndexes
from bot.core.lanes import card_of, order_of
from bot.rules.cards import Card
from bot.rules.types import Arrangement

from .refused import Refused

__all__ = [
    "Refused",
    "arrangement",
    "arrangement_tokens",
    "cards_of",
    "complete",
    "extra_cards",
    "kept_cards",
    "kept_tokens",
    "lanes",
    "new_hand",
    "placed",
]

UNDO_DEPTH = 20
SORTS = ("rank", "suit", "count")


def new_hand(tokens: Sequence[str]) -> Hand:
    cards = tuple(tokens)
    return Hand(cards=cards, order=order_of(cards, "rank"))


def _push_undo(hand: Hand) -> None:
    hand.undo.append((list(hand.head), list(hand.middle), list(hand.tail)))
    del hand.undo[:-UNDO_DEPTH]


def _check_open(hand: Hand) -> None:
    if hand.done:
        raise Refused("err.already_done")


def pick(hand: Hand, arg: str | None) -> None:
    """Tap card ``arg`` (an index into the dealt cards)."""
    _check_open(hand)
    i = small_number(arg, len(hand.cards) - 1)
    if i is None:
        raise Refused("err.bad_card")
    for lane in (hand.head, hand.middle, hand.tail):
        if i in lane:
            _push_undo(hand)
            lane.remove(i)
            hand.refused = None
            return
    if i in hand.placed():
        # With 13 cards the tail is "the rest": it is changed from the head or middle.
        raise Refused("err.tail_is_rest")
    _push_undo(hand)
    if len(hand.head) < 3:
        hand.head.append(i)
    elif len(hand.middle) < 5:
        hand.middle.append(i)
    else:
        # Only with 多三张: the tail is tapped too.
        hand.tail.append(i)
    hand.refused = None


def undo(hand: Hand) -> None:
    _check_open(hand)
    if not hand.undo:
        raise Refused("err.nothing_to_undo")
    hand.head, hand.middle, hand.tail = hand.undo.pop()
    hand.refused = None


def reset(hand: Hand) -> None:
    _check_open(hand)
    if not hand.placed():
        raise Refused("err.nothing_to_reset")
    _push_undo(hand)
    hand.head, hand.middle, hand.tail = [], [], []
    hand.refused = None


def sort(hand: Hand, how: str | None) -> None:
    """Re-order the cards as shown (lanes keep their cards)."""
    if how not in SORTS:
        raise Refused("err.bad_sort", value=(how or "")[:24])
    hand.sort = how
    hand.order = order_of(hand.cards, how)


def indexes_for(hand: Hand, tokens: Sequence[str], taken: set[int]) -> list[int]:
    """Map card tokens back to unused indexes (equal cards of the 65-card
    deck, or the same joker token, take distinct indexes)."""
    out = []
    for tok in tokens:
        card = card_of(tok)
        for i, own in enumerate(hand.cards):
            if i not in taken and card_of(own) == card:
                out.append(i)
                taken.add(i)
                break
        else:
            raise Refused("err.bad_card")
    return out


LAY_DIGITS = "0123456789abcdefghij"  # a card index as one character (20 cards at most)


def lay_arg(head: Sequence[int], middle: Sequence[int], tail: Sequence[int]) -> str:
    """The argument of a LAY action: each lane's card indexes, one character
    a card, lanes joined by ``-`` (``012-34567-89abc``)."""
    return "-".join("".join(LAY_DIGITS[i] for i in lane) for lane in (head, middle, tail))


def lay(hand: Hand, arg: str | None) -> None:
    """Place the whole draft at once (the arranging page's lanes): what the
    taps would have placed, in one action. With 13 cards the tail is the
    rest, so a tail is only given with a full head and middle."""
    _check_open(hand)
    parts = (arg or "").split("-")
    dealt = len(hand.cards)
    if len(parts) != 3 or any(ch not in LAY_DIGITS[:dealt] for part in parts for ch in part):
        raise Refused("err.bad_card")
    head, middle, tail = ([LAY_DIGITS.index(ch) for ch in part] for part in parts)
    every = head + middle + tail
    if len(set(every)) != len(every) or len(head) > 3 or len(middle) > 5 or len(tail) > 5:
        raise Refused("err.bad_card")
    if tail and not hand.extra_cards():
        rest = [i for i in hand.order if i not in set(head) | set(middle)]
        if len(head) != 3 or len(middle) != 5 or sorted(tail) != sorted(rest):
            raise Refused("err.tail_is_rest")
        tail = []
    _push_undo(hand)
    hand.head, hand.middle, hand.tail = head, middle, tail
    hand.refused = None


def set_arrangement(hand: Hand, arr: Arrangement, *, undoable: bool = True) -> None:
    taken: set[int] = set()
    head = indexes_for(hand, [c.token for c in arr.head], taken)
    middle = indexes_for(hand, [c.token for c in arr.middle], taken)
    tail = indexes_for(hand, [c.token for c in arr.tail], taken)
    if undoable:
        _push_undo(hand)
    hand.head, hand.middle = head, middle
    hand.tail = tail if hand.extra_cards() else []
    hand.refused = None


# Readings of a hand by name, as the table's modules and tests call them.


def cards_of(hand: Hand) -> list[Card]:
    return hand.card_list()


def lanes(hand: Hand) -> LaneIndexes:
    return hand.lanes()


def placed(hand: Hand) -> set[int]:
    return hand.placed()


def complete(hand: Hand) -> bool:
    return hand.complete()


def extra_cards(hand: Hand) -> int:
    return hand.extra_cards()


def arrangement(hand: Hand) -> Arrangement:
    return hand.arrangement()


def arrangement_tokens(hand: Hand) -> dict[str, list[str]]:
    return hand.arrangement_tokens()


def kept_cards(hand: Hand) -> list[Card]:
    return hand.kept_cards()


def kept_tokens(hand: Hand) -> list[str]:
    return hand.kept_tokens()
