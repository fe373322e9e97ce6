"""From a settlement (the judge's object, which the table keeps too, typed
as ``bot.core.showdown.Settlement``) to the showdown and settlement
pictures' inputs, whatever the source."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.core.breakdown import result
from bot.core.moments import moments
from bot.core.paid import special_paid
from bot.core.showdown import SPECIALS_STEP, PlayerScore, Settlement, revealed_steps
from bot.core.state import LANE_NAMES
from bot.rules.cards import Card
from bot.rules.types import Category, SpecialHand

from .cards import Marks
from .model import (
    LANE_SIZES,
    LaneShow,
    MomentShow,
    PairCell,
    SeatShow,
    SettlementPicture,
    SettleSeat,
    ShowdownPicture,
    VersusShow,
)

Lanes = tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]

__all__ = [
    "Lanes",
    "PictureRound",
    "PictureSeat",
    "lane_winners",
    "revealed_steps",
    "settlement",
    "showdown",
]


@dataclass(frozen=True, slots=True)
class PictureSeat:
    """What the builders know of one seat, by its id in the settlement."""

    id: str
    name: str
    lanes: Lanes  # the arrangement (a declared special's split too)
    special_points: int = 0  # of a declared special
    banker: bool = False
    escaped: bool = False
    auto: bool = False


@dataclass(frozen=True, slots=True)
class PictureRound:
    language: str
    round_no: int | None
    seats: tuple[PictureSeat, ...]
    settlement: Settlement  # players, pairs, home run, totals
    marks: Marks = Marks()
    room_totals: Mapping[str, int] | None = None
    revealed: frozenset[str] = field(default=frozenset((*LANE_NAMES, SPECIALS_STEP)))


def category(slug: str | None) -> Category | None:
    return Category[slug.upper()] if slug else None


def lane_winners(settlement: Settlement) -> dict[str, tuple[bool, bool, bool]]:
    """Per player and lane: lost it to nobody and won it from someone."""
    won: dict[str, list[bool]] = {}
    lost: dict[str, list[bool]] = {}
    for p in settlement.players:
        won[p.id], lost[p.id] = [False] * 3, [False] * 3
    for q in settlement.pairs:
        if q.lanes is None:
            continue
        for i, sign in enumerate(q.lanes):
            if sign > 0:
                won[q.a][i], lost[q.b][i] = True, True
            elif sign < 0:
                won[q.b][i], lost[q.a][i] = True, True
    return {
        pid: (
            won[pid][0] and not lost[pid][0],
            won[pid][1] and not lost[pid][1],
            won[pid][2] and not lost[pid][2],
        )
        for pid in won
    }


def _seat_show(
    r: PictureRound, seat: PictureSeat, player: PlayerScore, winners: tuple[bool, ...]
) -> SeatShow:
    special = SpecialHand(player.special) if player.special else None
    shown = SPECIALS_STEP in r.revealed if special else None
    lanes = []
    for i, name in enumerate(LANE_NAMES):
        face_up = shown if shown is not None else name in r.revealed
        if not face_up:
            lanes.append(LaneShow(None, LANE_SIZES[i]))
            continue
        cat = category(player.lanes[i].category) if player.lanes else None
        lanes.append(LaneShow(seat.lanes[i], LANE_SIZES[i], cat, winners[i] and special is None))
    everything = r.revealed >= _steps(r)
    pay = special_paid(r.settlement, seat.id, seat.special_points) if special and shown else None
    return SeatShow(
        name=seat.name,
        lanes=(lanes[0], lanes[1], lanes[2]),
        special=special if shown else None,
        special_points=seat.special_points if shown else 0,
        special_paid=pay.paid if pay and pay.how != "worth" else None,
        total=r.settlement.totals.get(seat.id) if everything else None,
        banker=seat.banker,
        escaped=seat.escaped,
        auto=seat.auto,
    )


def _steps(r: PictureRound) -> frozenset[str]:
    has_special = any(p.special for p in r.settlement.players)
    return frozenset((*LANE_NAMES, SPECIALS_STEP) if has_special else LANE_NAMES)


def showdown(r: PictureRound) -> ShowdownPicture:
    players = r.settlement.by_id()
    winners = lane_winners(r.settlement)
    seats = tuple(_seat_show(r, s, players[s.id], winners[s.id]) for s in r.seats)
    return ShowdownPicture(r.language, r.round_no, seats, r.marks, _moments(r))


def _moments(r: PictureRound) -> tuple[MomentShow, ...]:
    """The moments the steps shown decide, by seat index."""
    index = {s.id: i for i, s in enumerate(r.seats)}
    return tuple(
        MomentShow(
            m.kind,
            index[m.by],
            None if m.of is None else index[m.of],
            m.times,
            SpecialHand(m.special) if m.special else None,
        )
        for m in moments(r.settlement, r.revealed)
    )


def _settle_seat(r: PictureRound, seat: PictureSeat, index: Mapping[str, int]) -> SettleSeat:
    st = r.settlement
    special = st.player(seat.id).special
    res = result(st, seat.id)
    names = {s.id: s.name for s in r.seats}
    return SettleSeat(
        name=seat.name,
        total=res.total,
        room_total=None if r.room_totals is None else int(r.room_totals.get(seat.id, 0)),
        special=SpecialHand(special) if special else None,
        banker=seat.banker,
        escaped=seat.escaped,
        auto=seat.auto,
        versus=tuple(VersusShow(index[v.opponent], v.total, v.items) for v in res.versus),
        escape=tuple(
            dataclasses.replace(x, other=names.get(x.other or "", x.other)) for x in res.escape
        ),
    )


def settlement(r: PictureRound) -> SettlementPicture:
    st = r.settlement
    index = {s.id: i for i, s in enumerate(r.seats)}
    seats = tuple(_settle_seat(r, s, index) for s in r.seats)
    pairs = tuple(
        PairCell(
            a=index[q.a],
            b=index[q.b],
            score=int(q.score),
            lanes=None if q.lanes is None else (q.lanes[0], q.lanes[1], q.lanes[2]),
            scoop=index[q.scoop] if q.scoop else None,
        )
        for q in st.pairs
    )
    home = st.home_run
    return SettlementPicture(r.language, r.round_no, seats, pairs, index[home] if home else None)
