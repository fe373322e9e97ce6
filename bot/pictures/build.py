"""Picture inputs from a room's state (the table manager's JSON document).

Read-only: nothing here changes the state. The showdown picture shows
exactly the steps the table has revealed (``round.step``), the same as the
text view; face-down lanes carry no cards.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from bot.core.state import Phase
from bot.rules.cards import Card, parse_card
from bot.rules.lanes import evaluate_lane
from bot.rules.options import Rules, make_rules
from bot.rules.placing import placed_lanes
from bot.rules.types import SpecialHand

from .cards import Marks
from .model import HandPicture, SettlementPicture, ShowdownPicture
from .outcome import Lanes, Round, Seat, revealed_steps, settlement, showdown

State = Mapping[str, Any]


@lru_cache(maxsize=256)
def _rules(key: str) -> Rules:
    options = json.loads(key)
    return make_rules(options.pop("preset"), options.pop("players"), options)


def round_rules(rnd: State) -> Rules:
    """The rules a round was dealt under (kept in the round's state)."""
    return _rules(json.dumps(rnd["rules"], sort_keys=True))


def marks_of(rules: Rules) -> Marks:
    return Marks(wild_rank=rules.wild_rank, added_suit=rules.added_suit)


def _lanes(hand: State) -> tuple[list[int], list[int], list[int]]:
    return placed_lanes(
        hand["order"], hand["head"], hand["middle"], hand["tail"], len(hand["cards"])
    )


def _cards(hand: State, indexes: list[int]) -> tuple[Card, ...]:
    return tuple(parse_card(hand["cards"][i]) for i in indexes)


def hand_picture(state: State, key: str) -> HandPicture:
    """Player ``key``'s private hand in the current round."""
    rnd = state["round"]
    hand = rnd["hands"][key]
    rules = round_rules(rnd)
    head, middle, tail = _lanes(hand)
    lanes: Lanes = (_cards(hand, head), _cards(hand, middle), _cards(hand, tail))
    taken = set(head) | set(middle) | set(tail)
    unplaced = _cards(hand, [i for i in hand["order"] if i not in taken])
    cats = tuple(
        evaluate_lane(cards, rules).category
        if len(cards) == size and not hand["declared"]
        else None
        for cards, size in zip(lanes, (3, 5, 5), strict=True)
    )
    offer = hand.get("special") or None
    return HandPicture(
        language=state.get("language", "zh-Hans"),
        round_no=rnd["no"],
        lanes=lanes,
        unplaced=unplaced,
        categories=(cats[0], cats[1], cats[2]),
        discard=max(0, len(hand["cards"]) - 13),
        marks=marks_of(rules),
        special=SpecialHand(offer["hand"]) if offer else None,
        declared=bool(hand["declared"]),
        done=bool(hand["done"]),
        auto=bool(hand["auto"]),
    )


def _round(state: State) -> Round:
    rnd = state["round"]
    result = rnd.get("result")
    if result is None:
        raise ValueError("the round has no showdown yet")
    if state["phase"] == Phase.SHOWDOWN:
        revealed = revealed_steps(result["steps"], rnd["step"])
    else:
        revealed = frozenset(result["steps"]) if rnd.get("settled") else frozenset()
    seats = []
    for key in rnd["seats"]:
        hand = rnd["hands"][key]
        head, middle, tail = _lanes(hand)
        seats.append(
            Seat(
                id=key,
                name=state["names"].get(key, key),
                lanes=(_cards(hand, head), _cards(hand, middle), _cards(hand, tail)),
                special_points=int((hand.get("special") or {}).get("points", 0)),
                banker=rnd.get("banker") == key,
                escaped=key in rnd["escaped"],
                auto=bool(hand["auto"]),
            )
        )
    return Round(
        language=state.get("language", "zh-Hans"),
        round_no=rnd["no"],
        seats=tuple(seats),
        settlement=result["settlement"],
        marks=marks_of(round_rules(rnd)),
        room_totals=dict(state["totals"]),
        revealed=revealed,
    )


def showdown_picture(state: State) -> ShowdownPicture:
    """The showdown as the table shows it now (lanes revealed so far)."""
    return showdown(_round(state))


def settlement_picture(state: State) -> SettlementPicture:
    """The settled round with the room's running totals."""
    return settlement(_round(state))
