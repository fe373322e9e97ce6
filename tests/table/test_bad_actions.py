"""Every kind of bad action is refused with a reason and changes nothing."""

from __future__ import annotations

import pytest

from bot.table.actions import Action, Actor, Verb
from bot.views.model import ViewKind
from tests.stored import cached_json

from .helpers import (
    CHAT,
    RiggedRandom,
    act,
    human,
    make_manager,
    ok,
    open_table,
    refused,
    state_of,
)

TRIPS_HAND = ["As", "Ah", "Ad", "2c", "4d", "6h", "8s", "Tc", "Qd", "3h", "5c", "7d", "9h"]
OTHER_HAND = ["Ks", "Kh", "Kd", "Kc", "Qs", "Qh", "Js", "Jh", "Jd", "9s", "9c", "8d", "8h"]


@pytest.fixture
async def dealt(repo, clock):
    mgr, _ = make_manager(repo, clock, RiggedRandom([TRIPS_HAND, OTHER_HAND]))
    rid, actors = await open_table(mgr, 2)
    await ok(mgr, actors[0], Verb.START)
    return mgr, rid, actors


async def test_lobby_refusals(repo, clock):
    mgr, _ = make_manager(repo, clock)
    rid, actors = await open_table(mgr, 2)
    owner, guest = actors
    stranger = human(9)
    await refused(mgr, repo, rid, guest, Verb.SET_OPTION, "jokers=1")  # options by a non-owner
    await refused(mgr, repo, rid, guest, Verb.START)
    await refused(mgr, repo, rid, guest, Verb.ADD_AI, "easy")
    await refused(mgr, repo, rid, guest, Verb.CANCEL)
    await refused(mgr, repo, rid, guest, Verb.LANGUAGE, "en")
    await refused(mgr, repo, rid, guest, Verb.JOIN)  # already joined
    await refused(mgr, repo, rid, stranger, Verb.LEAVE)  # not a player
    await refused(mgr, repo, rid, owner, Verb.SET_OPTION, "jokers=7")
    await refused(mgr, repo, rid, owner, Verb.SET_OPTION, "nonsense=1")
    await refused(mgr, repo, rid, owner, Verb.SET_OPTION, "no-equals-sign")
    await refused(mgr, repo, rid, owner, Verb.SET_OPTION, "time=5")
    await refused(mgr, repo, rid, owner, Verb.LANGUAGE, "fr")
    await refused(mgr, repo, rid, owner, Verb.ADD_AI, "godlike")
    await refused(mgr, repo, rid, owner, Verb.REMOVE_AI)  # there is none
    await refused(mgr, repo, rid, owner, Verb.PICK, "0")  # nothing dealt
    await refused(mgr, repo, rid, owner, Verb.SORT, "rank")
    # a forbidden combination: the OptionError's reason, in the room's language
    await ok(mgr, owner, Verb.SET_OPTION, "jokers=2")
    out = await refused(mgr, repo, rid, owner, Verb.SET_OPTION, "banker=on")
    assert "鬼牌" in out.reply and "坐庄" in out.reply
    out = await refused(mgr, repo, rid, owner, Verb.SET_OPTION, "wild=6")
    assert "百变" in out.reply
    # the room is open already in this chat
    out = await act(mgr, stranger, Verb.NEW, "classic")
    assert not out.ok
    # a button for a room that does not exist
    out = await act(mgr, owner, Verb.JOIN, room_id="nosuch", round_no=0)
    assert not out.ok


async def test_start_needs_valid_table(repo, clock):
    mgr, _ = make_manager(repo, clock)
    rid, actors = await open_table(mgr, 1)
    await refused(mgr, repo, rid, actors[0], Verb.START)  # one player
    await ok(mgr, actors[0], Verb.SET_OPTION, "banker=on")  # allowed for a table of 4
    await ok(mgr, actors[0], Verb.ADD_AI)
    out = await refused(mgr, repo, rid, actors[0], Verb.START)
    assert "4" in out.reply  # banker needs exactly 4 players


async def test_arranging_refusals(repo, dealt):
    mgr, rid, (p0, p1) = dealt
    stranger = human(9)
    kw = {"room_id": rid, "round_no": 1}
    await refused(mgr, repo, rid, p0, Verb.PICK, "0", room_id=rid, round_no=0)  # stale round
    await refused(mgr, repo, rid, p0, Verb.PICK, "0", room_id=rid, round_no=2)  # future round
    await refused(mgr, repo, rid, stranger, Verb.PICK, "0", **kw)  # not in the round
    await refused(mgr, repo, rid, stranger, Verb.SHOW_HAND, **kw)
    for bad in ("13", "99", "-1", "x", None):
        await refused(mgr, repo, rid, p0, Verb.PICK, bad, **kw)  # card index out of range
    other_platform = Actor("discord", p0.user_id, "P0")
    await refused(mgr, repo, rid, other_platform, Verb.PICK, "0", **kw)
    await refused(mgr, repo, rid, p0, Verb.UNDO, **kw)  # nothing to undo
    await refused(mgr, repo, rid, p0, Verb.RESET, **kw)
    await refused(mgr, repo, rid, p0, Verb.SORT, "bogus", **kw)
    await refused(mgr, repo, rid, p0, Verb.APPLY, "0", **kw)  # no suggestions yet
    await refused(mgr, repo, rid, p0, Verb.DECLARE, **kw)  # not a special hand
    await refused(mgr, repo, rid, p0, Verb.CONFIRM, **kw)  # incomplete
    await refused(mgr, repo, rid, p0, Verb.JOIN, **kw)  # round running
    await refused(mgr, repo, rid, stranger, Verb.JOIN, **kw)
    await refused(
        mgr, repo, rid, p0, Verb.SET_OPTION, "jokers=1", **kw
    )  # options only in the lobby
    await refused(mgr, repo, rid, p0, Verb.START, **kw)
    await refused(
        mgr, repo, rid, p0, Verb.VERIFY, "1", **kw
    )  # the deck is secret until the showdown
    bogus = Action(p0, "zz", room_id=rid, round_no=1)  # type: ignore[arg-type]
    out = await mgr.handle(bogus)
    assert not out.ok


async def test_fouled_arrangement_is_refused_with_lanes(repo, dealt):
    mgr, rid, (p0, _) = dealt
    kw = {"room_id": rid, "round_no": 1}
    st = await state_of(mgr, rid)
    cards = st["round"]["hands"][p0.key]["cards"]
    # trips of aces in the head, high cards in the middle: head > middle
    order = [cards.index(t) for t in ("As", "Ah", "Ad", "2c", "4d", "6h", "8s", "Tc")]
    for n, i in enumerate(order):
        tapped = await ok(mgr, p0, Verb.PICK, str(i), **kw)
        shown = next(v for v in tapped.views if v.kind is ViewKind.HAND)
        # the warning appears with the tap that completes the split, not before
        assert any("⚠️" in line for line in shown.lines) is (n == len(order) - 1)
    out = await refused(mgr, repo, rid, p0, Verb.CONFIRM, **kw)
    assert "相公" in out.reply and "头道" in out.reply and "中道" in out.reply
    hand_views = [v for v in out.views if v.kind is ViewKind.HAND]
    assert hand_views and "⚠️" in hand_views[0].lines[-1]
    # the refusal shows what the last tap showed already: nothing to edit
    assert hand_views[0].lines == shown.lines and hand_views[0].buttons == shown.buttons
    # the time left stays on the hand after a refused foul
    assert any(line.startswith("⏱ 还剩") for line in hand_views[0].lines)
    # taking a card back clears the warning, a tail card ("the rest") too
    tail_card = cards.index("Qd")
    taken = await ok(mgr, p0, Verb.PICK, str(tail_card), **kw)
    shown = next(v for v in taken.views if v.kind is ViewKind.HAND)
    assert not any("⚠️" in line for line in shown.lines)
    assert any(line.startswith("尾道（4/5）") for line in shown.lines)
    # undone: the fouled split and its warning are back
    undone = await ok(mgr, p0, Verb.UNDO, **kw)
    shown = next(v for v in undone.views if v.kind is ViewKind.HAND)
    assert any("⚠️" in line for line in shown.lines)


async def test_closed_room_refuses_buttons(repo, dealt):
    mgr, rid, (p0, p1) = dealt
    await ok(mgr, p0, Verb.CANCEL, "yes")
    rec = await repo.load_room(rid)
    out = await act(mgr, p1, Verb.PICK, "0", room_id=rid, round_no=1)
    assert not out.ok
    assert (await repo.load_room(rid)).version == rec.version
    out = await act(mgr, p1, Verb.JOIN)  # no open room in the chat any more
    assert not out.ok
    # a new room can be opened in the chat now
    out = await act(mgr, p1, Verb.NEW, "extended")
    assert out.ok and out.room_id != rid


async def test_confirmed_hand_is_locked(repo, dealt):
    mgr, rid, (p0, p1) = dealt
    kw = {"room_id": rid, "round_no": 1}
    await ok(mgr, p0, Verb.SUGGEST, **kw)
    await ok(mgr, p0, Verb.APPLY, "0", **kw)
    await ok(mgr, p0, Verb.CONFIRM, **kw)
    for verb, arg in (
        (Verb.PICK, "0"),
        (Verb.UNDO, None),
        (Verb.RESET, None),
        (Verb.CONFIRM, None),
        (Verb.APPLY, "0"),
        (Verb.SUGGEST, None),
    ):
        await refused(mgr, repo, rid, p0, verb, arg, **kw)


async def test_command_without_room(repo, clock):
    mgr, _ = make_manager(repo, clock)
    out = await mgr.handle(Action(human(1), Verb.JOIN, chat_id=CHAT))
    assert not out.ok and out.reply
    out = await mgr.handle(Action(human(1), Verb.NEW))  # no chat
    assert not out.ok
    out = await mgr.handle(Action(human(1), Verb.NEW, chat_id=CHAT, arg="poker"))
    assert not out.ok  # unknown preset
    assert await repo.open_room_for_chat("telegram", CHAT) is None


async def test_old_button_of_a_closed_room_does_not_hide_the_new_room(repo, clock):
    mgr, _ = make_manager(repo, clock)
    rid, (p0, p1) = await open_table(mgr, 2)
    await ok(mgr, p0, Verb.CANCEL)
    new = await ok(mgr, p1, Verb.NEW)
    mgr2, _ = make_manager(repo, clock)  # a manager that never saw the old room
    for m in (mgr, mgr2):
        assert not (await act(m, p0, Verb.JOIN, room_id=rid, round_no=0)).ok
        out = await act(m, p0, Verb.JOIN) if m is mgr else await act(m, human(5), Verb.JOIN)
        assert out.ok and out.room_id == new.room_id


async def test_a_failing_store_changes_nothing_and_says_so(repo, clock, monkeypatch):
    mgr, _ = make_manager(repo, clock)
    rid, (p0, p1) = await open_table(mgr, 2)
    before = await repo.load_room(rid)

    async def broken(*a, **k):
        raise RuntimeError("database down")

    monkeypatch.setattr(repo, "save_room", broken)
    out = await act(mgr, p0, Verb.ADD_AI)
    assert not out.ok and out.reply
    monkeypatch.undo()
    assert (await repo.load_room(rid)).version == before.version
    assert (
        len(cached_json(mgr, rid)["players"]) == 2
    )  # the cache did not take the failed change either
    assert len((await state_of(mgr, rid))["players"]) == 2
