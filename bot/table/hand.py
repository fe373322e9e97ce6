"""One player's hand while arranging: pure operations on the typed
``bot.core.hand.Hand``.

A hand holds the dealt card tokens (``cards``; a button's card index
points into this list and never changes, so a press made before a sort still
means the same card), the display order, and the lanes as lists of indexes.
Tapping an unplaced card puts it in the lane the player aims at (``aim``,
chosen with the lane buttons; the head at the deal); a full lane passes the
aim on to the next open one, so tapping alone still fills the head, then
the middle. With 13 cards, once two lanes are full the last takes the rest
by itself. With 多三张 (16 cards) every lane is tapped and the 3 cards left
over are discarded.

Each press asks its ``check_*`` of ``bot.core.presses`` first: a refusal
raises :class:`Refused` with a catalog key (the manager localizes it) and
changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.hand import Hand
from bot.core.lanes import card_of, order_of
from bot.core.presses import (
    check_lane,
    check_lay,
    check_pick,
    check_reset,
    check_sort,
    check_undo,
)
from bot.rules.types import Arrangement

from .refused import Refused

__all__ = ["Refused", "aim", "lay", "new_hand", "pick", "reset", "set_arrangement", "sort", "undo"]

UNDO_DEPTH = 20
LANE_SIZES = {"head": 3, "middle": 5, "tail": 5}
# Where the aim goes when its lane is full: to the middle first (it lies
# between the other two), then on in the direction the player went.
NEXT_LANES = {
    "head": ("middle", "tail"),
    "middle": ("tail", "head"),
    "tail": ("middle", "head"),
}


def new_hand(tokens: Sequence[str]) -> Hand:
    cards = tuple(tokens)
    return Hand(cards=cards, order=order_of(cards, "rank"))


def _push_undo(hand: Hand) -> None:
    hand.undo.append((list(hand.head), list(hand.middle), list(hand.tail)))
    del hand.undo[:-UNDO_DEPTH]


def _explicit(hand: Hand) -> dict[str, list[int]]:
    return {"head": hand.head, "middle": hand.middle, "tail": hand.tail}


def _full(hand: Hand, name: str) -> bool:
    return len(_explicit(hand)[name]) >= LANE_SIZES[name]


def _aim_on(hand: Hand) -> None:
    """A full lane passes the aim on to the next open lane."""
    lanes = hand.open_lanes()
    if hand.aim not in lanes and lanes:
        hand.aim = next(n for n in NEXT_LANES[hand.aim] if n in lanes)


def _fill_last(hand: Hand) -> None:
    """With 13 cards, once two lanes are full the last takes the rest: an
    empty one is the rest by itself (``placed_lanes``), one holding a few
    cards gets the rest added here. Nobody taps the last cards."""
    if hand.extra_cards():
        return
    lanes = _explicit(hand)
    open_ = [n for n in LANE_SIZES if len(lanes[n]) < LANE_SIZES[n]]
    if len(open_) == 1 and lanes[open_[0]]:
        taken = set(hand.head) | set(hand.middle) | set(hand.tail)
        lanes[open_[0]].extend(i for i in hand.order if i not in taken)


def pick(hand: Hand, arg: str | None) -> None:
    """Tap card ``arg`` (an index into the dealt cards): a placed card comes
    back, an unplaced one goes to the aimed lane."""
    i = check_pick(hand, arg)
    if i in hand.placed() and not any(i in lane for lane in (hand.head, hand.middle, hand.tail)):
        # The rest a lane took by itself (placed_lanes): written out, so
        # the card can come back like any other.
        _push_undo(hand)
        hand.head, hand.middle, hand.tail = hand.lanes()
        _take_back(hand, i)
        return
    for lane in (hand.head, hand.middle, hand.tail):
        if i in lane:
            _push_undo(hand)
            _take_back(hand, i)
            return
    _push_undo(hand)
    _aim_on(hand)
    _explicit(hand)[hand.aim].append(i)
    if _full(hand, hand.aim):
        _fill_last(hand)
    _aim_on(hand)
    hand.refused = None


def _take_back(hand: Hand, i: int) -> None:
    """Card ``i`` leaves its lane; the aim goes there, to fill the gap."""
    for name, lane in _explicit(hand).items():
        if i in lane:
            lane.remove(i)
            hand.aim = name
    hand.refused = None


def aim(hand: Hand, arg: str | None) -> None:
    """Aim at lane ``arg`` (0 head, 1 middle, 2 tail): the next tapped
    cards go there. A full lane cannot be aimed at."""
    hand.aim = check_lane(hand, arg)


def undo(hand: Hand) -> None:
    check_undo(hand)
    hand.head, hand.middle, hand.tail = hand.undo.pop()
    _aim_on(hand)
    hand.refused = None


def reset(hand: Hand) -> None:
    check_reset(hand)
    _push_undo(hand)
    hand.head, hand.middle, hand.tail = [], [], []
    hand.aim = "head"  # as dealt: the aim had moved on with the lanes it filled
    hand.refused = None


def sort(hand: Hand, how: str | None) -> None:
    """Re-order the cards as shown (lanes keep their cards)."""
    hand.sort = check_sort(hand, how)
    hand.order = order_of(hand.cards, hand.sort)


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


def lay(hand: Hand, arg: str | None) -> None:
    """Place the whole draft at once (the arranging page's lanes,
    ``presses.lay_arg``): what the taps would have placed, in one action,
    any lane first. With 13 cards a whole split keeps its tail as "the
    rest" (as taps of head and middle leave it)."""
    head, middle, tail = check_lay(hand, arg)
    _push_undo(hand)
    hand.head, hand.middle, hand.tail = head, middle, tail
    _aim_on(hand)
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
    _aim_on(hand)
    hand.refused = None
