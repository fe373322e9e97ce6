"""The versioned boundary of a stored room (bot/table/state.py): rooms the
current code stored, at every phase, load unchanged and play on in a new
manager; a room without ``"v"`` is upgraded; a newer one is refused."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from bot.core.state import Phase
from bot.table.actions import Verb
from bot.table.clock import FakeClock
from bot.table.state import STATE_VERSION, StoredRoomError, room_from_json, room_to_json
from storage.memory import MemoryRepository

from .helpers import act, make_manager, ok, open_table, play_round, press_arrangement, state_of

PHASES = ["lobby", "arranging", "showdown", "settled", "closed"]


async def stored(repo: MemoryRepository, rid: str) -> dict[str, Any]:
    rec = await repo.load_room(rid)
    assert rec is not None
    return json.loads(json.dumps(rec.state))  # exactly the stored JSON


async def drive_to(phase: str, repo: MemoryRepository, clock: FakeClock) -> tuple[str, list[Any]]:
    """A room of two people and an AI, left at ``phase`` by the current code."""
    mgr, _ = make_manager(repo, clock)
    await mgr.start()
    rid, actors = await open_table(mgr, 2, 1)
    if phase in ("arranging", "showdown", "settled"):
        await ok(mgr, actors[0], Verb.START)
        await press_arrangement(mgr, rid, actors[0])  # a hand confirmed
    if phase == "arranging":
        await ok(mgr, actors[1], Verb.PICK, "4", room_id=rid, round_no=1)  # a card placed
    if phase in ("showdown", "settled"):
        await press_arrangement(mgr, rid, actors[1])
        await clock.advance(2)  # the middle is revealed
    if phase == "settled":
        await clock.advance(30)
    if phase == "closed":
        await ok(mgr, actors[0], Verb.CANCEL, room_id=rid)
    st = await state_of(mgr, rid) if phase != "closed" else await stored(repo, rid)
    expected = {"settled": "lobby"}.get(phase, phase)
    assert st["phase"] == expected
    if phase == "showdown":
        assert st["round"]["step"] == 1  # mid-steps
    if phase == "arranging":
        hands = st["round"]["hands"]
        assert hands[actors[0].key]["done"] and not hands[actors[1].key]["done"]
    await mgr.stop()
    return rid, actors


@pytest.mark.parametrize("phase", PHASES)
async def test_a_room_stored_today_loads_unchanged_and_plays_on(repo, clock, phase) -> None:
    rid, actors = await drive_to(phase, repo, clock)
    data = await stored(repo, rid)
    assert data["v"] == STATE_VERSION
    before = copy.deepcopy(data)
    room = room_from_json(data)
    assert room is data and room == before  # today's format: not even copied
    assert room_to_json(room) == before

    mgr, _ = make_manager(repo, clock)
    await mgr.start()  # every open room goes through room_from_json
    if phase == "closed":
        out = await act(mgr, actors[0], Verb.START, room_id=rid)
        assert not out.ok  # refused: the room is closed
        # A closed room stays closed; the chat opens a new one.
        rid2, actors = await open_table(mgr, 2, 1)
        assert rid2 != rid
        rid = rid2
    elif phase == "arranging":
        await clock.advance(150)  # the deadline arranges the rest; the showdown runs
    elif phase == "showdown":
        await clock.advance(30)
    st = await state_of(mgr, rid)
    assert st["phase"] == "lobby"
    done = st["round_no"]
    st = await play_round(mgr, clock, rid, actors)  # the next round
    assert st["round_no"] == done + 1
    assert (await stored(repo, rid))["v"] == STATE_VERSION
    await mgr.stop()


async def test_a_room_without_a_version_is_upgraded(repo, clock) -> None:
    """No ``"v"``: stored before the field existed; what is missing is filled."""
    rid, actors = await drive_to("lobby", repo, clock)
    data = await stored(repo, rid)
    old = {k: v for k, v in data.items() if k not in ("v", "timezone", "names", "ai_seq")}
    room = room_from_json(old)
    assert room == data
    assert "v" not in old  # the record as read is left alone


async def test_a_room_from_newer_code_is_refused(repo, clock) -> None:
    rid, actors = await drive_to("lobby", repo, clock)
    data = await stored(repo, rid)
    with pytest.raises(StoredRoomError, match=f"v{STATE_VERSION + 1}"):
        room_from_json({**data, "v": STATE_VERSION + 1})
    with pytest.raises(StoredRoomError, match="phase"):
        room_from_json({**data, "phase": "dealing"})
    with pytest.raises(StoredRoomError):
        room_from_json({**data, "v": "1"})

    # Stored so by a newer process: this manager leaves it as stored.
    rec = await repo.load_room(rid)
    assert rec is not None
    await repo.save_room(rid, {**data, "v": STATE_VERSION + 1}, rec.version)
    mgr, _ = make_manager(repo, clock)
    await mgr.start()  # logged and skipped, the others go on
    with pytest.raises(StoredRoomError):
        await mgr.rooms.load(rid)
    after = await repo.load_room(rid)
    assert after is not None and after.state["v"] == STATE_VERSION + 1
    await mgr.stop()


def test_phase_compares_with_the_stored_strings() -> None:
    assert [p.value for p in Phase] == ["lobby", "arranging", "showdown", "closed"]
    assert json.dumps({"phase": Phase.SHOWDOWN}) == '{"phase": "showdown"}'
