"""Deadline, reminder, auto-arrange and escape, on the fake clock."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.rules.cards import parse_cards
from bot.table.actions import Verb
from bot.views.model import ViewKind
from storage.api import Period

from .helpers import make_manager, ok, open_table, press_arrangement, state_of


async def test_reminder_then_deadline_auto_arranges(repo, clock):
    mgr, sink = make_manager(repo, clock, arrange_seconds=120, reminder_seconds=30)
    await mgr.start()
    rid, actors = await open_table(mgr, 3)
    await ok(mgr, actors[0], Verb.START)
    await press_arrangement(mgr, rid, actors[0])
    # a half-arranged hand: two cards placed
    await ok(mgr, actors[1], Verb.PICK, "0", room_id=rid, round_no=1)
    await ok(mgr, actors[1], Verb.PICK, "1", room_id=rid, round_no=1)
    await clock.advance(89)
    assert not any(v.kind is ViewKind.NOTICE for v in sink.views)
    await clock.advance(1)  # 30 s before the deadline
    notices = [v for v in sink.views if v.kind is ViewKind.NOTICE]
    assert len(notices) == 1
    assert "30" in notices[0].text and "P1" in notices[0].text and "P0" not in notices[0].text
    # the waiting players' private hands show the time left (the minute's
    # step, then the reminder's warning); the finished one is not touched
    hands = [v for v in sink.views if v.kind is ViewKind.HAND]
    assert {v.user_id for v in hands} == {actors[1].user_id, actors[2].user_id}
    assert all("⏱ 还剩 1 分钟" in v.text for v in hands[:2])
    assert all("⏰ 还剩 30 秒！" in v.text for v in hands[2:]) and len(hands) == 4
    st = await state_of(mgr, rid)
    assert st["phase"] == "arranging" and st["round"]["reminded"]
    await clock.advance(29.5)
    assert (await state_of(mgr, rid))["phase"] == "arranging"
    await clock.advance(0.5)  # the deadline
    st = await state_of(mgr, rid)
    assert st["phase"] == "showdown"
    hands = st["round"]["hands"]
    assert not hands[actors[0].key]["auto"]
    assert hands[actors[1].key]["auto"] and hands[actors[2].key]["auto"]
    from bot.core.hand import Hand
    from bot.core.round import rules_of
    from bot.rules.foul import check_foul

    rules = rules_of(st["round"]["rules"])
    for key in (actors[1].key, actors[2].key):
        assert (
            check_foul(Hand.from_json(hands[key]).arrangement(), rules) is None
        )  # auto-arrange is legal
    # the auto-arranged players got their hand views, through the sink
    assert {v.key for v in sink.views if v.kind is ViewKind.HAND} == {
        f"hand:{rid}:{actors[1].key}",
        f"hand:{rid}:{actors[2].key}",
    }
    await clock.advance(20)
    st = await state_of(mgr, rid)
    assert st["phase"] == "lobby"
    assert await repo.has_settlement(rid, 1)
    assert mgr.clock.pending == 0  # nothing left armed


async def test_escape_after_deal_pays_penalty(repo, clock):
    mgr, sink = make_manager(repo, clock)
    rid, actors = await open_table(mgr, 3, 1, preset="extended")  # escape penalty on
    await ok(mgr, actors[0], Verb.START)
    out = await ok(mgr, actors[2], Verb.LEAVE)
    assert out.reply
    st = await state_of(mgr, rid)
    assert st["round"]["escaped"] == [actors[2].key]
    assert st["round"]["hands"][actors[2].key]["auto"]
    await press_arrangement(mgr, rid, actors[0])
    await press_arrangement(mgr, rid, actors[1])
    await clock.advance(20)
    st = await state_of(mgr, rid)
    assert st["phase"] == "lobby"
    assert actors[2].key not in [p["key"] for p in st["players"]]  # the leaver is gone
    # the table's totals are those of bot.rules.settle with the leaver escaped
    from bot.core.hand import Hand
    from bot.core.round import rules_of
    from bot.rules.settlement import settle
    from bot.rules.settlement_types import PlayerHand
    from bot.rules.types import Arrangement

    rnd = st["round"]
    hands = []
    for key in rnd["seats"]:
        tok = Hand.from_json(rnd["hands"][key]).arrangement_tokens()
        hands.append(
            PlayerHand(
                key, Arrangement.of(*(parse_cards(tok[x]) for x in ("head", "middle", "tail")))
            )
        )
    expected = settle(hands, rules_of(rnd["rules"]), escaped=(actors[2].key,)).totals
    assert rnd["result"]["settlement"]["totals"] == expected
    assert sum(expected.values()) < 0  # the penalty leaves the table
    lb = await repo.leaderboard("telegram", "chat-1", Period.ALL, datetime.now(UTC))
    assert {r.player_key: r.points for r in lb}[actors[2].key] == expected[actors[2].key]


async def test_owner_leaving_passes_ownership(repo, clock):
    mgr, _ = make_manager(repo, clock)
    rid, actors = await open_table(mgr, 3)
    await ok(mgr, actors[0], Verb.LEAVE)
    st = await state_of(mgr, rid)
    assert st["owner"] == actors[1].key
    await ok(mgr, actors[1], Verb.LEAVE)
    await ok(mgr, actors[2], Verb.LEAVE)
    rec = await repo.load_room(rid)
    assert rec.status.value == "closed"  # the last one out closes the room


async def test_a_deadline_that_fails_to_store_is_retried(repo, clock, monkeypatch):
    mgr, _ = make_manager(repo, clock)
    rid, actors = await open_table(mgr, 2)
    await ok(mgr, actors[0], Verb.START)
    real_save = repo.save_room

    async def down(*a, **k):
        raise RuntimeError("database down")

    monkeypatch.setattr(repo, "save_room", down)
    await clock.advance(120)  # the deadline fires, the write fails
    assert (await repo.load_room(rid)).state["phase"] == "arranging"
    monkeypatch.setattr(repo, "save_room", real_save)
    await clock.advance(5)  # retried
    assert (await state_of(mgr, rid))["phase"] == "showdown"
