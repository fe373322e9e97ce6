"""Restarts: a new manager on the same repository continues every room, on
the in-memory repository and on SQLite."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.table.actions import Action, Verb
from bot.table.deal import verify
from bot.views.model import ViewKind
from storage.api import Period

from .helpers import make_manager, ok, open_table, press_arrangement, state_of


async def test_restart_while_arranging_keeps_cards_and_deadline(any_repo, clock):
    repo = any_repo
    mgr1, _ = make_manager(repo, clock)
    await mgr1.start()
    rid, actors = await open_table(mgr1, 3)
    await ok(mgr1, actors[0], Verb.START)
    await ok(mgr1, actors[1], Verb.PICK, "4", room_id=rid, round_no=1)
    before = await state_of(mgr1, rid)
    await clock.advance(50)
    await mgr1.stop()
    assert clock.pending == 0

    mgr2, sink2 = make_manager(repo, clock)
    await mgr2.start()
    after = await state_of(mgr2, rid)
    assert after["round"]["hands"] == before["round"]["hands"]  # same cards, same taps
    record = await repo.get_round(rid, 1)
    assert list(record.deck) == after["round"]["deck"]
    assert verify(record.deck, record.salt, record.deck_hash)
    assert clock.pending == 1  # the reminder/deadline re-armed
    # the round goes on in the new manager
    await press_arrangement(mgr2, rid, actors[0])
    await clock.advance(40)  # reminder at 90 s
    assert any(v.kind is ViewKind.NOTICE for v in sink2.views)
    await clock.advance(30)  # deadline at 120 s
    st = await state_of(mgr2, rid)
    assert st["phase"] == "showdown"
    await clock.advance(20)
    assert (await state_of(mgr2, rid))["phase"] == "lobby"
    assert await repo.has_settlement(rid, 1)


async def test_deadline_passed_while_down_fires_at_once(any_repo, clock):
    repo = any_repo
    mgr1, _ = make_manager(repo, clock)
    rid, actors = await open_table(mgr1, 2)
    await ok(mgr1, actors[0], Verb.START)
    await mgr1.stop()
    await clock.advance(500)  # the bot is down past the deadline
    mgr2, sink = make_manager(repo, clock)
    await mgr2.start()
    await clock.advance(0)
    st = await state_of(mgr2, rid)
    assert st["phase"] == "showdown"
    assert all(h["auto"] for h in st["round"]["hands"].values())
    assert not any(v.kind is ViewKind.NOTICE for v in sink.views)  # no stale reminder
    await clock.advance(20)
    assert await repo.has_settlement(rid, 1)


async def test_restart_during_showdown_settles_once(any_repo, clock):
    repo = any_repo
    mgr1, _ = make_manager(repo, clock)
    rid, actors = await open_table(mgr1, 2, 1)
    await ok(mgr1, actors[0], Verb.START)
    for a in actors:
        await press_arrangement(mgr1, rid, a)
    await clock.advance(2)  # the middle is revealed
    mid = await state_of(mgr1, rid)
    assert mid["phase"] == "showdown" and mid["round"]["step"] == 1
    await mgr1.stop()
    mgr2, sink = make_manager(repo, clock)
    await mgr2.start()
    await clock.advance(60)
    st = await state_of(mgr2, rid)
    assert st["phase"] == "lobby"
    assert st["round"]["result"] == mid["round"]["result"]  # the same settlement
    settles = [v for v in sink.views if v.kind is ViewKind.SETTLEMENT]
    assert len(settles) == 1
    totals = st["round"]["result"]["settlement"]["totals"]
    assert st["totals"] == totals
    rows = await repo.leaderboard("telegram", "chat-1", Period.ALL, datetime.now(UTC))
    humans = {r.player_key: r.points for r in rows if not r.player_key.startswith("ai:")}
    assert humans == {k: v for k, v in totals.items() if not k.startswith("ai:")}
    assert all(r.rounds == 1 for r in rows)


async def test_two_managers_settle_once(any_repo, clock):
    """Two bot processes on one database: both have the room's timers armed;
    the settlement is paid once and the totals are not doubled."""
    repo = any_repo
    mgr1, sink1 = make_manager(repo, clock)
    rid, actors = await open_table(mgr1, 2)
    await ok(mgr1, actors[0], Verb.START)
    mgr2, sink2 = make_manager(repo, clock)
    await mgr2.start()
    # players' presses land on either manager; stale caches are retried
    await press_arrangement(mgr2, rid, actors[0])
    await press_arrangement(mgr1, rid, actors[1])
    await clock.advance(60)
    st = await state_of(mgr1, rid)
    assert st["phase"] == "lobby"
    totals = st["round"]["result"]["settlement"]["totals"]
    assert st["totals"] == totals
    settles = [v for v in sink1.views + sink2.views if v.kind is ViewKind.SETTLEMENT]
    assert len(settles) == 1
    rows = await repo.leaderboard("telegram", "chat-1", Period.ALL, datetime.now(UTC))
    assert {r.player_key: r.points for r in rows} == totals
    assert all(r.rounds == 1 for r in rows)


async def test_stale_cache_refusal_is_rechecked(any_repo, clock):
    """Manager 1 has the lobby cached; manager 2 starts the round. A press on
    manager 1 must see the new round, not refuse from its stale cache."""
    repo = any_repo
    mgr1, _ = make_manager(repo, clock)
    rid, actors = await open_table(mgr1, 2)
    mgr2, _ = make_manager(repo, clock)
    await mgr2.start()
    await ok(mgr2, actors[0], Verb.START)
    out = await mgr1.handle(Action(actors[1], Verb.PICK, room_id=rid, round_no=1, arg="0"))
    assert out.ok
    await mgr1.stop()
    await mgr2.stop()
