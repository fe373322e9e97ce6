"""The verb table (bot/core/verbs.py) against what reads it: every verb has
its facts, every verb that changes a room has a transition and no read-only
one has, and a card tap costs the table one database round trip."""

from __future__ import annotations

from bot.core.state import Phase
from bot.core.verbs import VERBS, Private, Verb, VerbInfo
from bot.table.transitions import TRANSITIONS

from .helpers import Counting, make_manager, ok, open_table, state_of


def test_every_verb_has_its_facts() -> None:
    assert set(VERBS) == set(Verb)
    assert all(isinstance(info, VerbInfo) for info in VERBS.values())


def test_every_changing_verb_has_a_transition_and_no_read_only_one_has() -> None:
    changing = {v for v, i in VERBS.items() if not i.read_only and v is not Verb.NEW}
    assert set(TRANSITIONS) == changing


def test_the_facts_are_consistent() -> None:
    for verb, info in VERBS.items():
        if not info.room:  # answered without a room: it changes none
            assert info.read_only or verb is Verb.NEW, verb
        if info.solver:  # may run the solver: a press of it is acknowledged first
            assert info.slow, verb
        if info.panel:  # redraws the owner's panel, which it is pressed on
            assert info.private is Private.PANEL, verb
        if info.private_answer:
            assert info.read_only and info.informative, verb


async def test_a_card_tap_is_one_database_round_trip(repo, clock) -> None:
    mgr, _ = make_manager(repo, clock)
    rid, actors = await open_table(mgr, 2)
    await ok(mgr, actors[0], Verb.START)
    rnd = (await state_of(mgr, rid))["round"]
    counted = Counting(repo)
    for card in range(3):
        await ok(mgr, actors[1], Verb.PICK, str(card), room_id=rid, round_no=rnd["no"])
    assert counted.calls == ["save_room"] * 3


def test_only_a_transition_that_may_search_runs_in_a_worker_thread() -> None:
    from bot.core.hand import Hand
    from bot.core.room import Room, RoomOptions, Seat
    from bot.core.round import Round
    from bot.rules.options import DealStyle
    from bot.table.actions import Action
    from bot.table.transitions import may_solve

    from .helpers import human

    ann = human(0)

    def room_of(seats: list[Seat], phase: Phase = Phase.LOBBY, dealt: bool = False) -> Room:
        hands = {ann.key: Hand(cards=(), order=[])} if dealt else {}
        rnd = Round(
            1, (ann.key,), (1, 1), 0, DealStyle.ONE, "", (), "", None, {}, None, hands, 0, None
        )
        room = Room("telegram", "c", ann.key, phase, "en", "classic", RoomOptions(), seats, {})
        room.round = rnd if dealt else None
        return room

    lobby = room_of([Seat(ann.key, "Ann")])
    with_ai = room_of([Seat(ann.key, "Ann"), Seat("ai:1", "AI-1", "normal")])
    arranging = room_of([Seat(ann.key, "Ann")], Phase.ARRANGING, dealt=True)
    assert not may_solve(lobby, Action(ann, Verb.START))  # a deal of people only
    assert may_solve(with_ai, Action(ann, Verb.START))  # the AI seats arrange
    assert not may_solve(lobby, Action(ann, Verb.LEAVE))
    assert may_solve(arranging, Action(ann, Verb.LEAVE))  # the hand is auto-arranged
    assert may_solve(arranging, Action(ann, Verb.SUGGEST))
    assert not may_solve(arranging, Action(ann, Verb.PICK))
