"""Picture inputs from a room (the typed ``bot.core.room.Room``).

Read-only: nothing here changes the room. The showdown picture shows
exactly the steps the table has revealed (``Round.step``), the same as the
text view; face-down lanes carry no cards.
"""

from __future__ import annotations

from bot.core.hand import Hand
from bot.core.presses import judge_hand
from bot.core.room import Room
from bot.core.round import Round
from bot.core.state import LANE_NAMES, Phase
from bot.rules.cards import Card
from bot.rules.options import Rules
from bot.rules.types import SpecialHand

from .cards import Marks
from .model import (
    LANE_SIZES,
    HandPicture,
    LaneShow,
    SeatShow,
    SettlementPicture,
    ShowdownPicture,
)
from .outcome import Lanes, PictureRound, PictureSeat, revealed_steps, settlement, showdown


def round_rules(rnd: Round) -> Rules:
    """The rules a round was dealt under (kept in the round's state)."""
    return rnd.game_rules()


def marks_of(rules: Rules) -> Marks:
    return Marks(wild_rank=rules.wild_rank, added_suit=rules.added_suit)


def _cards(hand: Hand, indexes: list[int]) -> tuple[Card, ...]:
    cards = hand.card_list()
    return tuple(cards[i] for i in indexes)


def hand_picture(room: Room, key: str) -> HandPicture:
    """Player ``key``'s private hand in the current round."""
    rnd = room.rnd
    hand = rnd.hands[key]
    rules = round_rules(rnd)
    head, middle, tail = hand.lanes()
    lanes: Lanes = (_cards(hand, head), _cards(hand, middle), _cards(hand, tail))
    taken = set(head) | set(middle) | set(tail)
    unplaced = _cards(hand, [i for i in hand.order if i not in taken])
    # The split's judgement: the one the table made of it (presses.judge's cache).
    judged = judge_hand(hand, rules, (head, middle, tail))
    cats = tuple(
        value.category if value is not None and not hand.declared else None
        for value in judged.values
    )
    offer = hand.special
    return HandPicture(
        language=room.language,
        round_no=rnd.no,
        lanes=lanes,
        unplaced=unplaced,
        categories=(cats[0], cats[1], cats[2]),
        discard=max(0, hand.extra_cards()),
        marks=marks_of(rules),
        special=SpecialHand(offer.hand) if offer else None,
        declared=bool(hand.declared),
        done=hand.done,
        auto=hand.auto,
        aim=_aim(room, hand),
        fouled=_fouled(hand),
        points=rnd.showdown.settlement.totals.get(key) if rnd.settled else None,
    )


def _aim(room: Room, hand: Hand) -> int | None:
    """The lane a tapped card goes to, while there is a lane to choose."""
    if room.phase != Phase.ARRANGING or hand.done or len(hand.open_lanes()) < 2:
        return None
    return LANE_NAMES.index(hand.aim)


def _fouled(hand: Hand) -> tuple[bool, bool, bool]:
    """The lanes named by the foul the table marked on a complete split."""
    refused = hand.refused
    if hand.done or refused is None or refused.key != "err.foul":
        return (False, False, False)
    named = {name for pair in refused.params.get("pairs", ()) for name in pair}
    head, middle, tail = (name in named for name in LANE_NAMES)
    return (head, middle, tail)


def _round(room: Room) -> PictureRound:
    rnd = room.rnd
    result = rnd.result
    if result is None:
        raise ValueError("the round has no showdown yet")
    if room.phase == Phase.SHOWDOWN:
        revealed = revealed_steps(result.steps, rnd.step)
    else:
        revealed = frozenset(result.steps) if rnd.settled else frozenset()
    seats = []
    for key in rnd.seats:
        hand = rnd.hands[key]
        head, middle, tail = hand.lanes()
        seats.append(
            PictureSeat(
                id=key,
                name=room.name_of(key),
                lanes=(_cards(hand, head), _cards(hand, middle), _cards(hand, tail)),
                special_points=hand.special.points if hand.special else 0,
                banker=rnd.banker == key,
                escaped=key in rnd.escaped,
                auto=hand.auto,
            )
        )
    return PictureRound(
        language=room.language,
        round_no=rnd.no,
        seats=tuple(seats),
        settlement=result.settlement,
        marks=marks_of(round_rules(rnd)),
        room_totals=dict(room.totals),
        revealed=revealed,
    )


def dealt_picture(room: Room) -> ShowdownPicture:
    """The round's table while it is arranged: every seat, its lanes face
    down (who has confirmed is the caption's: the picture stays the same
    until the showdown turns the cards)."""
    rnd = room.rnd
    hidden = tuple(LaneShow(None, size) for size in LANE_SIZES)
    seats = tuple(
        SeatShow(
            name=room.name_of(key),
            lanes=(hidden[0], hidden[1], hidden[2]),
            banker=rnd.banker == key,
            escaped=key in rnd.escaped,
        )
        for key in rnd.seats
    )
    return ShowdownPicture(room.language, rnd.no, seats, marks_of(round_rules(rnd)))


def showdown_picture(room: Room) -> ShowdownPicture:
    """The showdown as the table shows it now (lanes revealed so far)."""
    return showdown(_round(room))


def settlement_picture(room: Room) -> SettlementPicture:
    """The settled round with the room's running totals."""
    return settlement(_round(room))
