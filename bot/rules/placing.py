"""Which cards are in which lane while a hand is being arranged (摆牌).

A hand is dealt ``dealt`` cards; the player taps them into the head (3),
the middle (5) and the tail (5), in the order they like. With 13 cards a
lane left empty is simply the cards left once the other two are full (the
tail, when head and middle are placed first); with 多三张 (16 cards) every
lane is tapped and the 3 cards left over are discarded. Lanes are lists of indexes into the dealt
cards; ``order`` is the display order of all the indexes.
"""

from __future__ import annotations

from collections.abc import Sequence


def placed_lanes(
    order: Sequence[int],
    head: Sequence[int],
    middle: Sequence[int],
    tail: Sequence[int],
    dealt: int,
) -> tuple[list[int], list[int], list[int]]:
    """Head, middle and tail indexes as they stand."""
    lanes = [list(head), list(middle), list(tail)]
    if dealt == 13:
        full = [len(lane) == size for lane, size in zip(lanes, (3, 5, 5), strict=True)]
        if full.count(True) == 2:
            rest = full.index(False)
            if not lanes[rest]:
                taken = set(lanes[0]) | set(lanes[1]) | set(lanes[2])
                lanes[rest] = [i for i in order if i not in taken]
    return lanes[0], lanes[1], lanes[2]
