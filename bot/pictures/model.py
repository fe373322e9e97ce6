"""What a picture shows: small immutable inputs, one per picture.

The drawing functions take only these; ``build.py`` makes them from a room's
state and ``judged.py`` from a judge line. A face-down lane is a
:class:`LaneShow` without cards, so a group picture cannot show a card of a
lane the table has not revealed: the cards are not in its input at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

from bot.core.breakdown import Item
from bot.rules.cards import Card
from bot.rules.types import Category, MomentKind, SpecialHand

from .cards import Marks

LANE_SIZES = (3, 5, 5)


@dataclass(frozen=True, slots=True)
class HandPicture:
    """A player's private hand while arranging (and after confirming).

    ``lanes`` are head, middle and tail as placed so far, ``unplaced`` the
    cards not in a lane (in the order shown); ``categories`` name each full
    lane's hand. ``discard`` is the number of cards a 16-card hand (多三张)
    throws away once the lanes are full (0 with 13 cards). ``aim`` is the
    lane a tapped card goes to (marked while there is a choice), ``fouled``
    the lanes of a complete split that are out of order (倒水).
    """

    language: str
    round_no: int
    lanes: tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
    unplaced: tuple[Card, ...]
    categories: tuple[Category | None, Category | None, Category | None] = (None, None, None)
    discard: int = 0
    marks: Marks = Marks()
    special: SpecialHand | None = None  # the hand is this special (offered or declared)
    declared: bool = False
    done: bool = False  # confirmed, declared or arranged by the table
    auto: bool = False  # arranged by the table (deadline, or the player left)
    aim: int | None = None  # 0..2: the lane the next tapped card goes to
    fouled: tuple[bool, bool, bool] = (False, False, False)  # lanes out of order
    points: int | None = None  # the round's total for this player, once paid

    def __setstate__(self, state: Sequence[object]) -> None:
        # Outbox rows pickled before ``aim``, ``fouled`` and ``points`` carry
        # fewer values: the missing ones take their defaults.
        names = [f.name for f in fields(self)]
        values = [*state, None, (False, False, False), None][: len(names)]
        for name, value in zip(names, values, strict=True):
            object.__setattr__(self, name, value)


@dataclass(frozen=True, slots=True)
class LaneShow:
    """One lane of one seat as the group sees it: ``cards`` is None while
    the lane is face down."""

    cards: tuple[Card, ...] | None
    size: int
    category: Category | None = None
    winner: bool = False  # lost this lane to nobody and won it from someone

    @property
    def face_up(self) -> bool:
        return self.cards is not None


@dataclass(frozen=True, slots=True)
class SeatShow:
    """One seat at the showdown."""

    name: str
    lanes: tuple[LaneShow, LaneShow, LaneShow]
    special: SpecialHand | None = None  # a declared special, once revealed
    special_points: int = 0  # what the special is worth from each opponent
    # what each opponent paid for it where that is not its worth (banker mode's
    # cap, the extended preset's doubling); None: its worth was paid
    special_paid: int | None = None
    total: int | None = None  # the round's score, once everything is revealed
    banker: bool = False
    escaped: bool = False
    auto: bool = False  # arranged by the table at the deadline

    def __setstate__(self, state: Sequence[object]) -> None:
        # Outbox rows stored before pictures were JSON hold a SeatShow pickled
        # with 8 values, before special_paid: read by position they would
        # shift into the wrong fields (bot/delivery/payload.py reads them).
        names = [f.name for f in fields(self)]
        values = list(state)
        if len(values) == len(names) - 1:
            values.insert(names.index("special_paid"), None)
        for name, value in zip(names, values, strict=True):
            object.__setattr__(self, name, value)


@dataclass(frozen=True, slots=True)
class MomentShow:
    """A moment decided by the steps shown (``bot.core.moments``): seat
    ``by`` scooped seat ``of``, scooped everyone, or declared ``special``
    (seats by their index)."""

    kind: MomentKind
    by: int
    of: int | None = None
    times: int = 1
    special: SpecialHand | None = None


@dataclass(frozen=True, slots=True)
class ShowdownPicture:
    """The showdown (比牌): every seat's three lanes side by side, and the
    moments (打枪, 全垒打, 报道) of the steps shown as stamps under them."""

    language: str
    round_no: int | None  # None for a judged round outside any room
    seats: tuple[SeatShow, ...]
    marks: Marks = Marks()
    moments: tuple[MomentShow, ...] = ()

    def __setstate__(self, state: Sequence[object]) -> None:
        # Outbox rows pickled before the moments were drawn hold 4 values.
        values = [*state, ()][: len(fields(self))]
        for f, value in zip(fields(self), values, strict=True):
            object.__setattr__(self, f.name, value)


@dataclass(frozen=True, slots=True)
class VersusShow:
    """A seat against one opponent (a seat index): the written parts from
    the seat's side (bot/core/breakdown.py) and their sum."""

    opponent: int
    total: int
    items: tuple[Item, ...] = ()  # empty in a picture stored before parts were kept


@dataclass(frozen=True, slots=True)
class SettleSeat:
    name: str
    total: int  # this round: the sum of ``versus`` and ``escape``
    room_total: int | None = None  # the room's running total (None: no room)
    special: SpecialHand | None = None
    banker: bool = False
    escaped: bool = False
    auto: bool = False
    versus: tuple[VersusShow, ...] = ()
    escape: tuple[Item, ...] = ()  # escape payments (``other``: the other's name)

    def __setstate__(self, state: Sequence[object]) -> None:
        # Outbox rows pickled before the parts were drawn carry 7 values:
        # such a seat draws its totals without the lines against each opponent.
        names = [f.name for f in fields(self)]
        values = [*state, (), ()][: len(names)]
        for name, value in zip(names, values, strict=True):
            object.__setattr__(self, name, value)


@dataclass(frozen=True, slots=True)
class PairCell:
    """Seat ``a`` against seat ``b`` (indexes into the seats), from a's view."""

    a: int
    b: int
    score: int
    lanes: tuple[int, int, int] | None  # +1 / 0 / -1 per lane; None with a special
    scoop: int | None = None  # the seat that scooped (打枪), if any


@dataclass(frozen=True, slots=True)
class SettlementPicture:
    """The settlement (结算): the pairwise table, scoops, home run, totals."""

    language: str
    round_no: int | None
    seats: tuple[SettleSeat, ...]
    pairs: tuple[PairCell, ...]
    home_run: int | None = None  # the seat that scooped everyone (全垒打)
