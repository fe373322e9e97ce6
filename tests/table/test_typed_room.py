"""The typed room (bot/core/room.py) reads and writes exactly what the table
stores: every state a room passed through, stored by the real TableManager
(lobby, arranging with partial lanes, suggestions, an undo and a refused
foul, a declared special, each showdown step, paid, a match finished and
one turned off, 多三张, 百变, banker, escapes, closed), round-trips through
``Room.from_json(x).to_json() == x``."""

from __future__ import annotations

import json
from typing import Any

from bot.core.room import Room
from bot.core.state import Phase
from bot.table.actions import Verb
from bot.table.clock import FakeClock
from storage.memory import MemoryRepository

from .helpers import RiggedRandom, act, make_manager, ok, open_table, press_arrangement, state_of

DRAGON = ["As", "Kd", "Qh", "Jc", "Ts", "9d", "8h", "7c", "6s", "5d", "4h", "3c", "2s"]
TRIPS = ["As", "Ah", "Ad", "2c", "4d", "6h", "8s", "Tc", "Qd", "3h", "5c", "7d", "9h"]
KINGS = ["Ks", "Kh", "Kd", "Kc", "Qs", "Qh", "Js", "Jh", "Jd", "9s", "9c", "8d", "8h"]
LOWS = ["3s", "3h", "4s", "4d", "5s", "5h", "6d", "6h", "7s", "7d", "8s", "8d", "9s"]
FACES = ["Ah", "Ad", "Ac", "Kh", "Ks", "Kc", "Qs", "Qd", "Qc", "Js", "Jh", "Jd", "2h"]
SMALL = ["2s", "2h", "2d", "3s", "3c", "4s", "4c", "5s", "5h", "6s", "6c", "7s", "7c"]


class Recording(MemoryRepository):
    """Keeps every room state stored, as JSON read back."""

    def __init__(self) -> None:
        super().__init__()
        self.states: list[dict[str, Any]] = []

    def _keep(self, state: dict[str, Any]) -> None:
        self.states.append(json.loads(json.dumps(state)))

    async def create_room(self, platform, chat_id, state, **kw):  # type: ignore[no-untyped-def]
        rec = await super().create_room(platform, chat_id, state, **kw)
        self._keep(rec.state)
        return rec

    async def save_room(self, room_id, state, expected_version, **kw):  # type: ignore[no-untyped-def]
        version = await super().save_room(room_id, state, expected_version, **kw)
        self._keep(state)
        return version


def check_all(states: list[dict[str, Any]]) -> set[str]:
    seen = set()
    for x in states:
        room = Room.from_json(x)
        assert room.to_json() == x
        again = room.to_json()
        assert Room.from_json(again).to_json() == x  # no aliasing: a second read is the same
        seen.add(x["phase"])
    return seen


async def test_a_match_with_specials_suggestions_and_every_showdown_step(clock: FakeClock) -> None:
    repo = Recording()
    await repo.init()
    mgr, _ = make_manager(repo, clock, RiggedRandom([DRAGON, FACES, LOWS]))
    await mgr.start()
    rid, actors = await open_table(mgr, 3, options=["rounds=2", "pics=off"])
    p0, p1, p2 = actors
    for no in (1, 2):
        await ok(mgr, p0, Verb.START)
        kw = {"room_id": rid, "round_no": no}
        await ok(mgr, p0, Verb.DECLARE, **kw)
        await ok(mgr, p1, Verb.SUGGEST, **kw)
        await ok(mgr, p1, Verb.SORT, "suit", **kw)
        await ok(mgr, p1, Verb.PICK, "0", **kw)
        await ok(mgr, p1, Verb.UNDO, **kw)
        await ok(mgr, p1, Verb.APPLY, "0", **kw)
        await ok(mgr, p1, Verb.CONFIRM, **kw)
        await press_arrangement(mgr, rid, p2)
        for _ in range(6):
            await clock.advance(2)  # one showdown step at a time
        assert (await state_of(mgr, rid))["phase"] == Phase.LOBBY
    st = await state_of(mgr, rid)
    assert st["match"]["over"]
    await ok(mgr, p0, Verb.SET_OPTION, "rounds=3")
    await ok(mgr, p0, Verb.START)  # a rematch
    await press_arrangement(mgr, rid, p1)
    await clock.advance(150)  # the deadline arranges the rest
    await clock.advance(30)
    await ok(mgr, p0, Verb.SET_OPTION, "rounds=off")  # the match turned off: "match": null
    assert "match" in (await state_of(mgr, rid)) and (await state_of(mgr, rid))["match"] is None
    await ok(mgr, p0, Verb.CANCEL, room_id=rid)
    await mgr.stop()
    assert check_all(repo.states) == {"lobby", "arranging", "showdown", "closed"}
    assert any(s["round"] and s["round"].get("review") for s in repo.states)
    hands = [h for s in repo.states if s["round"] for h in s["round"]["hands"].values()]
    assert any(h["suggestions"] for h in hands) and any(h["declared"] for h in hands)
    assert any(h["undo"] for h in hands)


async def test_fouls_escapes_and_a_closed_round(clock: FakeClock) -> None:
    repo = Recording()
    await repo.init()
    mgr, _ = make_manager(repo, clock, RiggedRandom([TRIPS, KINGS, SMALL]))
    await mgr.start()
    rid, actors = await open_table(mgr, 3, options=["escape=on"])
    p0, p1, p2 = actors
    await ok(mgr, p0, Verb.START)
    kw = {"room_id": rid, "round_no": 1}
    cards = (await state_of(mgr, rid))["round"]["hands"][p0.key]["cards"]
    for tok in ("As", "Ah", "Ad", "2c", "4d", "6h", "8s", "Tc"):
        await ok(mgr, p0, Verb.PICK, str(cards.index(tok)), **kw)  # a foul: marked on the hand
    assert not (await act(mgr, p0, Verb.CONFIRM, **kw)).ok
    await ok(mgr, p2, Verb.LEAVE, room_id=rid)  # escaped
    await ok(mgr, p0, Verb.RESET, **kw)
    await press_arrangement(mgr, rid, p0)
    await press_arrangement(mgr, rid, p1)
    await ok(mgr, p1, Verb.LEAVE, room_id=rid)  # leaving during the showdown
    await clock.advance(30)
    await ok(mgr, p1, Verb.JOIN)
    await ok(mgr, p2, Verb.JOIN)
    await ok(mgr, p0, Verb.START)
    await ok(mgr, p0, Verb.CANCEL, "yes", room_id=rid)  # a round thrown away
    await mgr.stop()
    assert check_all(repo.states) >= {"lobby", "arranging", "showdown", "closed"}
    rounds = [s["round"] for s in repo.states if s["round"]]
    assert any(r["escaped"] for r in rounds) and any(r["leaving"] for r in rounds)
    assert any(h["refused"] for r in rounds for h in r["hands"].values())


async def test_extra_cards_wild_rank_banker_and_ai(clock: FakeClock) -> None:
    repo = Recording()
    await repo.init()
    mgr, _ = make_manager(repo, clock)
    await mgr.start()
    tables = [(2, 1, ["extra3=on", "wild=random", "deal=three"]), (3, 1, ["banker=on"])]
    for humans, ais, options in tables:
        rid, actors = await open_table(mgr, humans, ais, options=options, ai_level="easy")
        await ok(mgr, actors[0], Verb.START)
        await press_arrangement(mgr, rid, actors[0])
        await clock.advance(150)
        await clock.advance(30)
        await ok(mgr, actors[0], Verb.CANCEL, room_id=rid)
    await mgr.stop()
    assert check_all(repo.states) == {"lobby", "arranging", "showdown", "closed"}
    rounds = [s["round"] for s in repo.states if s["round"]]
    assert any(r["wild_rank"] for r in rounds) and any(r["banker"] for r in rounds)
    assert any(len(h["cards"]) == 16 for r in rounds for h in r["hands"].values())


async def test_an_old_room_is_upgraded_by_from_json(
    repo: MemoryRepository, clock: FakeClock
) -> None:
    mgr, _ = make_manager(repo, clock)
    rid, _actors = await open_table(mgr, 2, 1)
    data = await state_of(mgr, rid)
    old = {k: v for k, v in data.items() if k not in ("v", "timezone", "names", "ai_seq")}
    assert Room.from_json(old).to_json() == data
