"""Rooms stored by the code before the typed room (issue 21), at every phase
(rooms_before_typed.json: a lobby, a round being arranged with a hand half
placed, a showdown between its steps, a round just paid, a closed room),
read back unchanged by ``Room.from_json`` and played on by a new manager."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from bot.core.room import Room
from bot.rules.options import OptionError, Preset, RuleOverrides, Rules, Wheel
from bot.table.actions import Verb
from bot.table.clock import FakeClock
from storage.memory import MemoryRepository

from .helpers import act, human, make_manager, play_round, state_of

STORED: dict[str, dict[str, Any]] = json.loads(
    (Path(__file__).parent / "rooms_before_typed.json").read_text(encoding="utf-8")
)


@pytest.mark.parametrize("phase", sorted(STORED))
def test_a_room_stored_before_reads_back_unchanged(phase: str) -> None:
    data = copy.deepcopy(STORED[phase])
    assert Room.from_json(data).to_json() == STORED[phase]
    assert data == STORED[phase]  # read, never changed


@pytest.mark.parametrize("phase", sorted(STORED))
async def test_a_room_stored_before_plays_on(
    repo: MemoryRepository, clock: FakeClock, phase: str
) -> None:
    stored = {k: v for k, v in STORED[phase].items() if k != "room_id"}
    rec = await repo.create_room(stored["platform"], stored["chat_id"], stored)
    rid = rec.room_id
    mgr, _ = make_manager(repo, clock)
    await mgr.start()  # re-arms the stored deadline or showdown step
    actors = [human(0), human(1)]
    if phase == "closed":
        assert not (await act(mgr, actors[0], Verb.START, room_id=rid)).ok
        await mgr.stop()
        return
    await clock.advance(150)  # a deadline arranges the rest; a showdown runs on
    await clock.advance(30)
    st = await state_of(mgr, rid)
    assert st["phase"] == "lobby" and st["round_no"] == (0 if phase == "lobby" else 1)
    st = await play_round(mgr, clock, rid, actors)  # the next round
    assert st["round_no"] == (1 if phase == "lobby" else 2)
    await mgr.stop()


def test_the_rules_read_typed_and_written_back_as_stored() -> None:
    """A room's overrides read as RuleOverrides and its round's rules as
    Rules; both are written back exactly as stored, also a round stored
    before an option existed (no ``extra_three`` key: the preset's)."""
    data = copy.deepcopy(STORED["arranging"])
    data["options"]["rules"] = {"jokers": 1, "wild_rank": "Q", "added_suit": None}
    del data["round"]["rules"]["extra_three"]
    data["round"]["rules"]["wheel"] = "low"
    room = Room.from_json(copy.deepcopy(data))
    assert isinstance(room.options.rules, RuleOverrides)
    assert room.options.rules.get("jokers") == 1 and "banker" not in room.options.rules
    rules = room.rnd.rules
    assert isinstance(rules, Rules) and rules.wheel is Wheel.LOW and not rules.extra_three
    assert rules.players == 3 and rules.preset is Preset.CLASSIC
    assert Room.from_json(copy.deepcopy(data)).to_json() == data
    # An override set is a new value; the stored one is unchanged.
    changed = room.options.rules.set("banker", True).unset("jokers")
    assert dict(changed) == {"wild_rank": "Q", "added_suit": None, "banker": True}
    assert room.options.to_json()["rules"] == data["options"]["rules"]
    with pytest.raises(OptionError):
        room.options.rules.set("colour", 1)
