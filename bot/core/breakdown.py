"""One player's result against each opponent, written so it adds up.

The settlement keeps, per pair, the parts its score is made of (each lane's
points and reason, the scoop, the home run, a special, the banker cap:
``bot.rules.settlement_types.PairPart``) and the escape penalty as payments.
Here they are turned to one player's side: against each opponent the parts
and their sum, then the escape payments, which with the pairs make the
player's total. Every surface (the settlement's text, picture and page, the
private hand's result) writes these items, in the words of :func:`item_text`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.i18n import t
from bot.rules.settlement_types import PartKind

from .showdown import Settlement

ESCAPE_PAID = "escape_paid"  # this player, a leaver, paid another's loss
ESCAPE_COVERED = "escape_covered"  # a leaver paid this player's loss
ESCAPE_PENALTY = "escape_penalty"  # this player, a leaver, paid its own penalty


@dataclass(frozen=True, slots=True)
class Item:
    """One written part, from the player's side: ``points`` it adds."""

    kind: str  # a PartKind value or one of the ESCAPE_* kinds
    points: int
    lane: str | None = None
    category: str | None = None  # the winning lane's, said when worth more than 1
    special: str | None = None
    factor: int = 1
    other: str | None = None  # the other player of an escape payment


@dataclass(frozen=True, slots=True)
class Versus:
    """The player against one opponent: the parts and their sum."""

    opponent: str
    total: int
    items: tuple[Item, ...]  # empty for a round stored before parts were kept


@dataclass(frozen=True, slots=True)
class Result:
    """A player's round: each opponent, the escape payments, the total
    (the sum of the opponents' totals and the payments)."""

    key: str
    total: int
    versus: tuple[Versus, ...]
    escape: tuple[Item, ...]


def result(settlement: Settlement, key: str) -> Result:
    versus = []
    for q in settlement.pairs_of(key):
        side = q.side(key)
        items = tuple(
            Item(
                x.kind.value,
                side * x.points,
                x.lane,
                x.category if x.kind is PartKind.LANE and abs(x.points) > 1 else None,
                x.special,
                x.factor,
            )
            for x in q.parts
        )
        versus.append(Versus(q.opponent(key), side * q.score, items))
    escape = []
    for e in settlement.escape or ():
        if e.payer == key:
            kind = ESCAPE_PENALTY if e.payee is None else ESCAPE_PAID
            escape.append(Item(kind, -e.points, other=e.payee))
        elif e.payee == key:
            escape.append(Item(ESCAPE_COVERED, e.points, other=e.payer))
    return Result(key, int(settlement.totals.get(key, 0)), tuple(versus), tuple(escape))


def signed(points: int, minus: str = "-") -> str:
    """``+3``, ``-2`` and ``0``; a picture passes a true minus sign."""
    return f"+{points}" if points > 0 else f"{minus}{-points}" if points < 0 else "0"


def item_text(
    lang: str, item: Item, names: Mapping[str, str] | None = None, minus: str = "-"
) -> str:
    """``尾道 +4 铁支``, ``打枪 ×2 +6``, ``报道 三同花 +3``, ``替 小波 付 -6``:
    the words of one item with the points it adds."""
    pts = signed(item.points, minus)
    if item.kind == PartKind.LANE:
        word = t(lang, f"lane.{item.lane}")
        if item.category:
            return t(lang, "part.lane_reason", lane=word, points=pts, reason=_cat(lang, item))
        return t(lang, "part.lane", lane=word, points=pts)
    if item.kind == PartKind.SPECIAL:
        if item.special is None:
            return t(lang, "part.special_tie", points=pts)
        return t(lang, "part.special", special=t(lang, f"special.{item.special}"), points=pts)
    if item.kind in (ESCAPE_PAID, ESCAPE_COVERED):
        other = item.other or ""
        who = (names or {}).get(other, other)
        return t(lang, f"part.{item.kind}", name=who, points=pts)
    if item.kind == PartKind.SCOOP and item.factor == 1:
        return t(lang, "part.scoop_plain")
    return t(lang, f"part.{item.kind}", factor=item.factor, points=pts)


def _cat(lang: str, item: Item) -> str:
    return t(lang, f"cat.{item.category}")


def items_text(lang: str, items: tuple[Item, ...], names: Mapping[str, str] | None = None) -> str:
    """The items joined: ``头道 +1 · 中道 -1 · 尾道 +4 铁支``."""
    return " · ".join(item_text(lang, x, names) for x in items)
