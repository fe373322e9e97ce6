"""Choosing the lane (LANE): tapped cards go to the aimed lane, a full lane
passes the aim on, with 13 cards the last lane takes the rest once two are
full (its own cards kept), a card taken back is aimed at again, reset aims
at the head, 多三张 keeps every lane tapped; bad lane presses change
nothing. Hand operations, then through the table manager."""

from __future__ import annotations

import pytest

from bot.core.hand import Hand
from bot.table import hand as hand_moves
from bot.table.actions import Verb
from bot.table.refused import Refused

from .helpers import (
    ANN_HAND,
    BO_HAND,
    RiggedRandom,
    make_manager,
    ok,
    open_table,
    refused,
    state_of,
)

EXTRA = [*ANN_HAND, "Tc", "Jc", "Qc"]


def tap(hand: Hand, *tokens: str) -> None:
    for token in tokens:
        hand_moves.pick(hand, str(hand.cards.index(token)))


def lanes(hand: Hand) -> tuple[list[str], list[str], list[str]]:
    h, m, t = hand.lanes()
    return tuple(sorted(hand.cards[i] for i in lane) for lane in (h, m, t))  # type: ignore[return-value]


def test_the_tail_first_then_the_middle_and_the_head_is_the_rest() -> None:
    hand = hand_moves.new_hand(ANN_HAND)
    assert hand.aim == "head" and hand.open_lanes() == ["head", "middle", "tail"]
    hand_moves.aim(hand, "2")
    tap(hand, "As", "Ks", "Qs", "Js")
    assert hand.aim == "tail"
    tap(hand, "9s")
    assert hand.aim == "middle"  # a full lane passes the aim on, to the middle first
    tap(hand, "7c", "6c", "5h", "4d", "3s")
    assert hand.complete() and hand.head == []  # the head is "the rest" (placed_lanes)
    assert lanes(hand)[0] == ["2c", "8d", "8h"]
    # a card of the rest taken back: the lanes written out, the gap aimed at
    tap(hand, "2c")
    assert sorted(hand.cards[i] for i in hand.head) == ["8d", "8h"]
    assert hand.aim == "head" and not hand.complete()
    tap(hand, "2c")
    assert hand.complete()
    hand_moves.undo(hand)
    hand_moves.undo(hand)
    assert hand.complete() and hand.head == []  # back to the head as the rest


def test_a_last_lane_with_cards_of_its_own_takes_the_rest_too() -> None:
    hand = hand_moves.new_hand(ANN_HAND)
    tap(hand, "8h")  # the head, aimed at the deal
    hand_moves.aim(hand, "1")
    tap(hand, "7c", "6c", "5h", "4d", "3s")  # the middle full: the aim goes to the tail
    assert hand.aim == "tail"
    tap(hand, "As", "Ks", "Qs", "Js", "9s")  # the second lane full: the head takes the rest
    assert hand.complete() and lanes(hand)[0] == ["2c", "8d", "8h"]
    # one undo takes back the tap and the cards it brought
    hand_moves.undo(hand)
    assert lanes(hand) == (["8h"], sorted(["7c", "6c", "5h", "4d", "3s"]), ["As", "Js", "Ks", "Qs"])


def test_reset_aims_at_the_head_again() -> None:
    hand = hand_moves.new_hand(ANN_HAND)
    hand_moves.aim(hand, "2")
    tap(hand, "As")
    hand_moves.reset(hand)
    assert hand.aim == "head" and hand.placed() == set()


@pytest.mark.parametrize("arg", [None, "", "3", "-1", "tail", "1 ", "٢"])
def test_a_bad_lane_changes_nothing(arg: str | None) -> None:
    hand = hand_moves.new_hand(ANN_HAND)
    with pytest.raises(Refused, match="err.bad_lane"):
        hand_moves.aim(hand, arg)
    assert hand.aim == "head" and hand.undo == []


def test_a_full_lane_cannot_be_aimed_at_and_a_done_hand_not_at_all() -> None:
    hand = hand_moves.new_hand(ANN_HAND)
    tap(hand, "8h", "8d", "2c")
    with pytest.raises(Refused, match="err.lane_full"):
        hand_moves.aim(hand, "0")
    assert hand.aim == "middle"
    hand.done = True
    with pytest.raises(Refused, match="err.already_done"):
        hand_moves.aim(hand, "2")


def test_sixteen_cards_every_lane_tapped_and_the_discards_stay_out() -> None:
    hand = hand_moves.new_hand(EXTRA)
    hand_moves.aim(hand, "2")
    tap(hand, "As", "Ks", "Qs", "Js", "9s", "7c", "6c", "5h", "4d", "3s")
    assert hand.aim == "head" and hand.open_lanes() == ["head"]  # no rest with 16 cards
    tap(hand, "8h", "8d", "2c")
    assert hand.complete() and hand.open_lanes() == []
    before = hand.to_json()
    with pytest.raises(Refused, match="err.lane_full"):
        tap(hand, "Tc")  # a discard: no lane has room
    assert hand.to_json() == before


async def test_a_lane_press_through_the_table(repo, clock) -> None:
    mgr, _ = make_manager(repo, clock, RiggedRandom([ANN_HAND, BO_HAND]))
    rid, (p0, _) = await open_table(mgr, 2)
    await ok(mgr, p0, Verb.START)
    kw = {"room_id": rid, "round_no": 1}
    await ok(mgr, p0, Verb.LANE, "2", **kw)
    st = await state_of(mgr, rid)
    assert st["round"]["hands"][p0.key]["aim"] == "tail"
    await refused(mgr, repo, rid, p0, Verb.LANE, "7", **kw)
    await ok(mgr, p0, Verb.PICK, "0", **kw)
    st = await state_of(mgr, rid)
    assert st["round"]["hands"][p0.key]["tail"] == [0]
