"""LAY: the arranging page's whole draft placed in one action, with the
same rules as taps (13 cards: any lane first, the last is the rest once two
are full; 16: every lane is laid and three cards are left out)."""

from __future__ import annotations

import pytest

from bot.core.hand import Hand
from bot.core.presses import lay_arg
from bot.table.actions import Verb
from bot.table.hand import lay, new_hand, undo
from bot.table.refused import Refused
from bot.views.model import ViewKind

from .helpers import RiggedRandom, make_manager, ok, open_table, refused, state_of

TOKENS = ["As", "Ah", "Kd", "Kc", "Qs", "Js", "Ts", "9h", "8h", "7c", "5d", "4d", "2s"]
EXTRA = [*TOKENS, "3c", "3d", "6h"]


def test_a_full_draft_is_the_taps_result_in_one_action() -> None:
    hand = new_hand(TOKENS)
    rest = [i for i in hand.order if i not in range(8)]
    lay(hand, lay_arg([0, 1, 2], [3, 4, 5, 6, 7], rest))
    assert hand.lanes() == ([0, 1, 2], [3, 4, 5, 6, 7], rest)
    assert hand.tail == []  # 13 cards: the tail stays "the rest"
    undo(hand)
    assert hand.lanes() == ([], [], [])


def test_a_partial_draft_and_a_sixteen_card_tail() -> None:
    hand = new_hand(TOKENS)
    lay(hand, lay_arg([5], [0, 1], []))
    assert hand.lanes() == ([5], [0, 1], [])
    sixteen = new_hand(EXTRA)
    lay(sixteen, lay_arg([0, 1, 2], [3, 4, 5, 6, 7], [8, 9, 10, 11, 15]))
    assert sixteen.lanes()[2] == [8, 9, 10, 11, 15] and sixteen.complete()


@pytest.mark.parametrize(
    "arg",
    ["", "012", "01-2", "001-34567-", "0z1-34567-", "0123-4-", "012-345678-", "d12--"],
)
def test_a_malformed_draft_changes_nothing(arg: str) -> None:
    hand = new_hand(TOKENS)
    lay(hand, lay_arg([0], [], []))
    with pytest.raises(Refused):
        lay(hand, arg)
    assert hand.lanes() == ([0], [], [])


def test_with_thirteen_cards_any_lane_first_and_the_last_is_the_rest() -> None:
    hand = new_hand(TOKENS)
    lay(hand, lay_arg([0, 1], [], [2, 3, 4]))  # the tail first, as a player sees it
    assert hand.lanes() == ([0, 1], [], [2, 3, 4])
    lay(hand, lay_arg([], [3, 4, 5, 6, 7], [8, 9, 10, 11, 12]))
    assert hand.lanes()[0] == [i for i in hand.order if i < 3]  # two full: the head is the rest
    assert hand.complete()
    lay(hand, lay_arg([0, 1, 2], [3, 4, 5, 6, 7], [8, 9, 10, 11]))  # one to place
    assert not hand.complete() and hand.lanes()[2] == [8, 9, 10, 11]
    hand.done = True
    with pytest.raises(Refused, match="err.already_done"):
        lay(hand, lay_arg([0], [], []))


# ---------------------------------------------------------------- CONFIRM with the page's split

TRIPS = ["As", "Ah", "Ad", "2c", "4d", "6h", "8s", "Tc", "Qd", "3h", "5c", "7d", "9h"]
OTHER = ["Ks", "Kh", "Kd", "Kc", "Qs", "Qh", "Js", "Jh", "Jd", "9s", "9c", "8d", "8h"]


@pytest.fixture
async def dealt(repo, clock):  # type: ignore[no-untyped-def]
    mgr, _ = make_manager(repo, clock, RiggedRandom([TRIPS, OTHER]))
    rid, actors = await open_table(mgr, 2)
    await ok(mgr, actors[0], Verb.START)
    return mgr, rid, actors


def _arg(cards: list[str], head: list[str], middle: list[str], tail: list[str]) -> str:
    return lay_arg(*([cards.index(x) for x in lane] for lane in (head, middle, tail)))


async def test_a_confirm_with_a_split_lays_and_confirms_it_in_one_transition(repo, dealt) -> None:  # type: ignore[no-untyped-def]
    mgr, rid, (p0, _) = dealt
    kw = {"room_id": rid, "round_no": 1}
    await ok(mgr, p0, Verb.PICK, "4", **kw)  # a keyboard tap: some other draft stored
    before = (await repo.load_room(rid)).version
    head, middle = ["2c", "4d", "6h"], ["Qd", "3h", "5c", "7d", "9h"]
    tail = ["As", "Ah", "Ad", "8s", "Tc"]
    out = await ok(mgr, p0, Verb.CONFIRM, _arg(TRIPS, head, middle, tail), **kw)
    assert (await repo.load_room(rid)).version == before + 1  # one write
    hand = (await state_of(mgr, rid))["round"]["hands"][p0.key]
    assert hand["done"] is True and hand["refused"] is None
    stored = Hand.from_json(hand).arrangement_tokens()
    assert stored["head"] == head and stored["middle"] == middle
    assert sorted(stored["tail"]) == sorted(tail)  # 13 cards: the tail is the rest
    # one view of the private hand, the confirmed one (and the table's)
    assert [v.kind for v in out.views].count(ViewKind.HAND) == 1
    # a second confirm, from either side, is refused and changes nothing
    await refused(mgr, repo, rid, p0, Verb.CONFIRM, **kw)
    await refused(mgr, repo, rid, p0, Verb.CONFIRM, _arg(TRIPS, head, middle, tail), **kw)


@pytest.mark.parametrize(
    "split",
    [
        # trips in the head over a pair-less middle: fouled
        (["As", "Ah", "Ad"], ["2c", "4d", "6h", "8s", "Tc"], ["Qd", "3h", "5c", "7d", "9h"]),
        # incomplete
        (["2c", "4d", "6h"], ["As", "Ah"], []),
    ],
    ids=["fouled", "incomplete"],
)
async def test_a_refused_confirm_with_a_split_stores_none_of_it(repo, dealt, split) -> None:  # type: ignore[no-untyped-def]
    mgr, rid, (p0, _) = dealt
    kw = {"room_id": rid, "round_no": 1}
    await ok(mgr, p0, Verb.PICK, "4", **kw)
    await refused(mgr, repo, rid, p0, Verb.CONFIRM, _arg(TRIPS, *split), **kw)
    for bad in ("0z1-34567-", "000-12345-", "0123-4-"):  # not the hand's cards, a lane too long
        await refused(mgr, repo, rid, p0, Verb.CONFIRM, bad, **kw)
    hand = (await state_of(mgr, rid))["round"]["hands"][p0.key]
    assert hand["done"] is False and Hand.from_json(hand).lanes()[0] == [4]
