"""What a declared special hand (报道) was really paid.

A special is worth its points from each opponent, but the settlement may
pay something else: banker mode caps every result at ±7 (一条龙 36 pays 7),
and preset ``extended`` doubles a special that beats everyone (26 pays 52).
The showdown text and picture say what was paid, and what the hand is worth
when that differs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.rules.settlement import BANKER_CAP

from .showdown import Settlement


@dataclass(frozen=True, slots=True)
class SpecialPaid:
    worth: int  # the special's points
    paid: int  # what each opponent it beat paid for it
    how: Literal["worth", "capped", "doubled"]  # capped: banker mode; doubled: extended


def special_paid(settlement: Settlement, pid: str, worth: int) -> SpecialPaid:
    """What each opponent paid player ``pid`` for its special worth ``worth``
    points, from the settlement's pairs. Where no
    opponent paid (it lost to a stronger special) or the amounts differ, the
    special's worth is what is shown."""
    amounts = set()
    for q in settlement.pairs:
        if pid not in (q.a, q.b) or q.lanes is not None:
            continue
        score = q.score if q.a == pid else -q.score
        if score > 0:
            amounts.add(score)
    paid = amounts.pop() if len(amounts) == 1 else worth
    if paid == worth:
        return SpecialPaid(worth, paid, "worth")
    return SpecialPaid(worth, paid, "capped" if paid < worth else "doubled")


CAP = BANKER_CAP  # banker mode's cap, for the words that name it
