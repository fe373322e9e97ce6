"""No tap waits on another player's solver (bot/table/solved.py): a
suggestion, the AI seats' deal and the deadline's auto-arrange are worked
out on a snapshot of the room while the room stays free; their answers are
used only for the hands they were worked out for.

The solver is held on an event (``Gate``) while the others tap: a tap that
had to wait for the room would never be answered before the release, and
``asyncio.wait_for`` turns that hang into a failure (a guard, not a timing:
nothing here is measured)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from bot.core.round import rules_of
from bot.rules.cards import parse_card
from bot.table.actions import STALE, Verb
from bot.table.manager import TableManager
from bot.views.model import ViewKind

from .helpers import (
    HANG_GUARD,
    Gate,
    RiggedRandom,
    act,
    held,
    human,
    make_manager,
    ok,
    open_table,
    state_of,
)

HAND0 = ["As", "Ah", "Ad", "2c", "4d", "6h", "8s", "Tc", "Qd", "3h", "5c", "7d", "9h"]
HAND1 = ["Ks", "Kh", "Kd", "Kc", "Qs", "Qh", "Js", "Jh", "Jd", "9s", "9c", "8d", "8h"]


@pytest.fixture
def held_suggestions(monkeypatch: pytest.MonkeyPatch) -> Iterator[Gate]:
    yield from held(monkeypatch, "suggestions")


@pytest.fixture
def held_auto_arrange(monkeypatch: pytest.MonkeyPatch) -> Iterator[Gate]:
    yield from held(monkeypatch, "auto_arrange")


@pytest.fixture
def held_ai_arrange(monkeypatch: pytest.MonkeyPatch) -> Iterator[Gate]:
    yield from held(monkeypatch, "ai_arrange")


async def hands_of(mgr: TableManager, rid: str) -> dict[str, Any]:
    return (await state_of(mgr, rid))["round"]["hands"]


async def solver_suggestions(mgr: TableManager, rid: str, key: str, real: Any) -> list[Any]:
    """What the solver itself suggests for the hand ``key`` holds now."""
    st = await state_of(mgr, rid)
    rnd = st["round"]
    cards = [parse_card(t) for t in rnd["hands"][key]["cards"]]
    others = [None] * (len(rnd["seats"]) - 1)
    found = real(cards, rules_of(rnd["rules"]), len(rnd["seats"]), banker=False, opponents=others)
    return [s.to_json() for s in found]


async def test_a_tap_is_answered_while_a_neighbours_suggestion_is_worked_out(
    any_repo, clock, held_suggestions: Gate
) -> None:
    mgr, _ = make_manager(any_repo, clock, RiggedRandom([HAND0, HAND1]))
    rid, (p0, p1) = await open_table(mgr, 2)
    await ok(mgr, p0, Verb.START)
    kw = {"room_id": rid, "round_no": 1}
    asking = asyncio.create_task(act(mgr, p1, Verb.SUGGEST, **kw))
    await held_suggestions.until_reached()

    tap = await asyncio.wait_for(act(mgr, p0, Verb.PICK, "0", **kw), HANG_GUARD)
    assert tap.ok, tap.reply
    assert any(v.kind is ViewKind.HAND for v in tap.views)
    assert not asking.done()  # the suggestion is still being worked out
    hands = await hands_of(mgr, rid)
    assert hands[p0.key]["head"] == [0]
    assert hands[p1.key]["suggestions"] is None

    held_suggestions.release.set()
    answer = await asyncio.wait_for(asking, HANG_GUARD)
    assert answer.ok, answer.reply
    view = next(v for v in answer.views if v.kind is ViewKind.HAND)
    assert any(line.startswith("1. ") and "预计" in line for line in view.lines)
    hands = await hands_of(mgr, rid)
    assert hands[p0.key]["head"] == [0]  # the tap made meanwhile stays
    want = await solver_suggestions(mgr, rid, p1.key, held_suggestions.real)
    assert hands[p1.key]["suggestions"] == want
    # Worked out once, on the snapshot; used on the room the tap changed.
    assert held_suggestions.calls == [tuple(HAND1)]


async def test_another_process_tapping_meanwhile_keeps_both(
    any_repo, clock, held_suggestions: Gate
) -> None:
    """Two managers on one database: the suggestion is stored on top of the
    tap the other process stored meanwhile (its version was stale)."""
    mgr, _ = make_manager(any_repo, clock, RiggedRandom([HAND0, HAND1]))
    other, _ = make_manager(any_repo, clock)
    rid, (p0, p1) = await open_table(mgr, 2)
    await ok(mgr, p0, Verb.START)
    kw = {"room_id": rid, "round_no": 1}
    asking = asyncio.create_task(act(mgr, p1, Verb.SUGGEST, **kw))
    await held_suggestions.until_reached()
    tap = await asyncio.wait_for(act(other, p0, Verb.PICK, "3", **kw), HANG_GUARD)
    assert tap.ok, tap.reply

    held_suggestions.release.set()
    answer = await asyncio.wait_for(asking, HANG_GUARD)
    assert answer.ok, answer.reply
    hands = await hands_of(other, rid)
    assert hands[p0.key]["head"] == [3]
    assert hands[p1.key]["suggestions"] == await solver_suggestions(
        other, rid, p1.key, held_suggestions.real
    )
    assert held_suggestions.calls == [tuple(HAND1)]


async def test_a_suggestion_for_a_hand_auto_arranged_meanwhile_is_not_stored(
    repo, clock, held_suggestions: Gate
) -> None:
    mgr, _ = make_manager(repo, clock, RiggedRandom([HAND0, HAND1]))
    rid, (p0, p1) = await open_table(mgr, 2)
    await ok(mgr, p0, Verb.START)
    asking = asyncio.create_task(act(mgr, p1, Verb.SUGGEST, room_id=rid, round_no=1))
    await held_suggestions.until_reached()
    # The deadline passes meanwhile: its auto-arrange does not wait either.
    await asyncio.wait_for(clock.advance(121), HANG_GUARD)
    before = await repo.load_room(rid)
    assert before.state["phase"] == "showdown"

    held_suggestions.release.set()
    answer = await asyncio.wait_for(asking, HANG_GUARD)
    assert not answer.ok
    assert answer.reply  # a short reason
    after = await repo.load_room(rid)
    assert after.version == before.version and after.state == before.state
    hand = after.state["round"]["hands"][p1.key]
    assert hand["auto"] and hand["suggestions"] is None


@pytest.mark.parametrize("from_old_button", [False, True])
async def test_a_suggestion_for_last_rounds_hand_is_not_given_to_the_new_hand(
    repo, clock, held_suggestions: Gate, from_old_button: bool
) -> None:
    """The hand was dealt again meanwhile: typed, the suggestion is worked
    out again for the new cards; pressed on the old hand's button, it is
    refused as stale. Never last round's suggestions on this round's hand."""
    mgr, _ = make_manager(repo, clock)
    rid, (p0, p1) = await open_table(mgr, 2)
    await ok(mgr, p0, Verb.START)
    first = tuple((await hands_of(mgr, rid))[p1.key]["cards"])
    round_no = 1 if from_old_button else None
    asking = asyncio.create_task(act(mgr, p1, Verb.SUGGEST, room_id=rid, round_no=round_no))
    await held_suggestions.until_reached()
    await asyncio.wait_for(clock.advance(121 + 30), HANG_GUARD)  # deadline, showdown, paid
    await asyncio.wait_for(ok(mgr, p0, Verb.START), HANG_GUARD)
    second = tuple((await hands_of(mgr, rid))[p1.key]["cards"])
    assert second != first

    held_suggestions.release.set()
    answer = await asyncio.wait_for(asking, HANG_GUARD)
    hand = (await hands_of(mgr, rid))[p1.key]
    if from_old_button:
        assert answer.refused == STALE
        assert hand["suggestions"] is None
        assert held_suggestions.calls == [first]
    else:
        assert answer.ok, answer.reply
        assert held_suggestions.calls == [first, second]
        want = await solver_suggestions(mgr, rid, p1.key, held_suggestions.real)
        assert hand["suggestions"] == want
        for s in hand["suggestions"]:
            assert set(s["head"] + s["middle"] + s["tail"]) <= set(second)


async def test_a_confirm_is_answered_while_the_deadline_auto_arranges(
    repo, clock, held_auto_arrange: Gate
) -> None:
    """The deadline's auto-arrange works on a snapshot: a player who
    confirms meanwhile keeps their own split; the others are auto-arranged."""
    mgr, _ = make_manager(repo, clock, RiggedRandom([HAND0, HAND1]))
    rid, (p0, p1) = await open_table(mgr, 2)
    await ok(mgr, p0, Verb.START)
    kw = {"room_id": rid, "round_no": 1}
    await ok(mgr, p0, Verb.SUGGEST, **kw)
    await ok(mgr, p0, Verb.APPLY, "0", **kw)
    mine = (await hands_of(mgr, rid))[p0.key]
    deadline = asyncio.create_task(clock.advance(121))
    await held_auto_arrange.until_reached()

    confirm = await asyncio.wait_for(act(mgr, p0, Verb.CONFIRM, **kw), HANG_GUARD)
    assert confirm.ok, confirm.reply
    assert not deadline.done()

    held_auto_arrange.release.set()
    await asyncio.wait_for(deadline, HANG_GUARD)
    st = await state_of(mgr, rid)
    assert st["phase"] == "showdown"
    hands = st["round"]["hands"]
    assert not hands[p0.key]["auto"]
    assert (hands[p0.key]["head"], hands[p0.key]["middle"]) == (mine["head"], mine["middle"])
    assert hands[p1.key]["auto"] and hands[p1.key]["done"]
    # Both unfinished hands of the snapshot were arranged ahead; P1's was used.
    assert sorted(held_auto_arrange.calls) == sorted([tuple(HAND0), tuple(HAND1)])


async def test_a_join_while_the_ai_seats_are_dealt_for_is_in_the_deal(
    repo, clock, held_ai_arrange: Gate
) -> None:
    """The deal with AI seats is worked out on a snapshot; someone who sat
    down meanwhile changed the room, so the deal is made again with them."""
    mgr, _ = make_manager(repo, clock)
    rid, (p0,) = await open_table(mgr, 1, ais=1)
    starting = asyncio.create_task(act(mgr, p0, Verb.START, room_id=rid))
    await held_ai_arrange.until_reached()
    p1 = human(1)
    joined = await asyncio.wait_for(act(mgr, p1, Verb.JOIN, room_id=rid), HANG_GUARD)
    assert joined.ok, joined.reply

    held_ai_arrange.release.set()
    started = await asyncio.wait_for(starting, HANG_GUARD)
    assert started.ok, started.reply
    st = await state_of(mgr, rid)
    assert p1.key in st["round"]["seats"] and len(st["round"]["seats"]) == 3
    ai = next(k for k in st["round"]["seats"] if k.startswith("ai:"))
    # Dealt twice (the first deal, made before the join, was never stored).
    assert len(held_ai_arrange.calls) == 2
    assert held_ai_arrange.calls[-1] == tuple(st["round"]["hands"][ai]["cards"])
    assert st["round_no"] == 1
