"""Which cards are in which lane while a hand is being arranged (摆牌).

A hand is dealt ``dealt`` cards; the player taps them into the head (3),
then the middle (5). With 13 cards the tail is simply the 5 left once head
and middle are full; with 多三张 (16 cards) the tail is tapped too and the
3 cards left over are discarded. Lanes are lists of indexes into the dealt
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
    head, middle = list(head), list(middle)
    if dealt > 13:
        return head, middle, list(tail)
    if len(head) == 3 and len(middle) == 5:
        taken = set(head) | set(middle)
        return head, middle, [i for i in order if i not in taken]
    return head, middle, []
