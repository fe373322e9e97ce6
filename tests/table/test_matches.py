"""Matches (局数): a 4-round match to its 大结算, rematch, restart mid-match,
closing early, and the option's validation."""

from __future__ import annotations

from bot.core.room import Room
from bot.table import match
from bot.table.actions import Verb
from bot.views.model import Audience
from bot.views.render_common import signed

from .helpers import act, make_manager, ok, open_table, play_round, state_of


def finals(views):
    return [v for v in views if v.meta.final]


async def test_four_round_match_to_its_final(any_repo, clock):
    repo = any_repo
    mgr, sink = make_manager(repo, clock)
    rid, actors = await open_table(mgr, 3, 1, options=["rounds=4"])
    before = dict((await state_of(mgr, rid))["totals"])
    assert before == {}
    for k in range(1, 5):
        st = await play_round(mgr, clock, rid, actors)
        assert match.position(Room.from_json(st)) == (k, 4)
        assert finals(sink.views) == ([] if k < 4 else finals(sink.views))
    st = await state_of(mgr, rid)
    assert match.is_over(Room.from_json(st))
    [final] = finals(sink.views)
    assert final.audience is Audience.GROUP and final.fresh
    records = await repo.room_settlements(rid, 1, 4)
    assert [r.round_no for r in records] == [1, 2, 3, 4]
    # totals equal the sum of the rounds' ledgers (and the room's totals)
    sums: dict[str, int] = {}
    for r in records:
        for e in r.entries:
            sums[e.player_key] = sums.get(e.player_key, 0) + e.points
    assert sums == st["totals"]
    from bot.table.final import summary

    room = Room.from_json(st)
    s = summary(room, room.match, records)
    assert {p.key: p.total for p in s.players} == sums
    totals = [p.total for p in s.players]
    assert totals == sorted(totals, reverse=True)
    assert s.players[0].rank == 1
    for p in s.players:
        # rank = 1 + number of players strictly ahead
        assert p.rank == 1 + sum(q.total > p.total for q in s.players)
        assert p.rounds == 4
        keyed = [e for r in records for e in r.entries if e.player_key == p.key]
        assert p.scoops == sum(e.scoops for e in keyed)
        assert p.home_runs == sum(e.home_run for e in keyed)
        assert p.specials == sum(e.special is not None for e in keyed)
        assert p.fouls == 0  # the table refuses a fouled arrangement
        assert p.best_lane is not None
    biggest = max(e.points for r in records for e in r.entries)
    if biggest > 0:
        assert s.biggest is not None and s.biggest.points == biggest
        assert any(f"+{biggest}" in line for line in final.lines)
    # the view shows every player's total
    for p in s.players:
        assert any(p.name in line and signed(p.total) in line for line in final.lines)
    # the lobby (the last settlement) offers a rematch; the rematch is the
    # same players and settings
    table = next(v for v in reversed(sink.views) if v.key == f"settle:{rid}:4")
    labels = [b.label for row in table.buttons for b in row]
    assert "再来一场" in labels
    players_before = [p["key"] for p in st["players"]]
    await ok(mgr, actors[0], Verb.START)
    st2 = await state_of(mgr, rid)
    assert st2["match"] == {"seq": 2, "start": 4, "rounds": 4, "over": False}
    assert [p["key"] for p in st2["players"]] == players_before
    assert st2["options"] == st["options"]
    assert match.position(Room.from_json(st2)) == (1, 4)


async def test_restart_mid_match_keeps_the_match(any_repo, clock):
    repo = any_repo
    mgr1, _ = make_manager(repo, clock)
    await mgr1.start()
    rid, actors = await open_table(mgr1, 2, options=["rounds=2"])
    await play_round(mgr1, clock, rid, actors)
    await ok(mgr1, actors[0], Verb.START)
    await mgr1.stop()
    mgr2, sink2 = make_manager(repo, clock)
    await mgr2.start()
    st = await state_of(mgr2, rid)
    assert match.position(Room.from_json(st)) == (2, 2) and not match.is_over(Room.from_json(st))
    await clock.advance(500)  # the deadline passes: auto-arranged, showdown, paid
    st = await state_of(mgr2, rid)
    assert match.is_over(Room.from_json(st))
    [final] = finals(sink2.views)
    records = await repo.room_settlements(rid, 1, 2)
    assert len(records) == 2
    assert final.key == f"final:{rid}:1"


async def test_close_mid_match_posts_the_rounds_played(repo, clock):
    mgr, _ = make_manager(repo, clock)
    rid, actors = await open_table(mgr, 2, options=["rounds=8"])
    await play_round(mgr, clock, rid, actors)
    out = await ok(mgr, actors[0], Verb.CANCEL)
    [final] = finals(out.views)
    assert any("1/8" in line for line in final.lines)
    assert not final.buttons  # the room is closed: no rematch


async def test_open_ended_room_has_no_match(repo, clock):
    mgr, sink = make_manager(repo, clock)
    rid, actors = await open_table(mgr, 2)
    for _ in range(2):
        st = await play_round(mgr, clock, rid, actors)
    assert match.current(Room.from_json(st)) is None and not finals(sink.views)


async def test_rounds_option_values(repo, clock):
    mgr, _ = make_manager(repo, clock)
    rid, actors = await open_table(mgr, 2)
    for bad in ("0x3", "100", "-1", "²", "abc"):
        out = await act(mgr, actors[0], Verb.SET_OPTION, f"rounds={bad}")
        assert not out.ok and out.reply
    await ok(mgr, actors[0], Verb.SET_OPTION, "rounds=3")
    await play_round(mgr, clock, rid, actors)
    await play_round(mgr, clock, rid, actors)
    # two played: the match cannot be cut to 2, but can be made longer
    assert not (await act(mgr, actors[0], Verb.SET_OPTION, "rounds=2")).ok
    await ok(mgr, actors[0], Verb.SET_OPTION, "rounds=5")
    st = await state_of(mgr, rid)
    assert st["match"]["rounds"] == 5
    table_lines = " ".join((await ok(mgr, actors[0], Verb.SET_OPTION, "rounds=6")).views[0].lines)
    assert "3/6" in table_lines
    # off: open-ended again, no final
    await ok(mgr, actors[0], Verb.SET_OPTION, "rounds=off")
    assert match.current(Room.from_json(await state_of(mgr, rid))) is None
    # only the owner
    assert not (await act(mgr, actors[1], Verb.SET_OPTION, "rounds=8")).ok


async def test_table_shows_round_k_of_n(repo, clock):
    mgr, _ = make_manager(repo, clock)
    rid, actors = await open_table(mgr, 2, options=["rounds=10"])
    out = await ok(mgr, actors[0], Verb.START)
    table = next(v for v in out.views if v.key == f"table:{rid}")
    assert "第 1/10 局" in table.lines


async def test_leaving_mid_match_escapes_and_still_counts(repo, clock):
    mgr, sink = make_manager(repo, clock)
    rid, actors = await open_table(mgr, 3, options=["rounds=2", "escape=on"])
    await play_round(mgr, clock, rid, actors)
    await ok(mgr, actors[0], Verb.START)
    await ok(mgr, actors[2], Verb.LEAVE)  # after the deal: an escape
    st = await state_of(mgr, rid)
    assert actors[2].key in st["round"]["escaped"]
    await clock.advance(500)  # deadline, showdown, paid: the match's last round
    st = await state_of(mgr, rid)
    assert match.is_over(Room.from_json(st)) and actors[2].key not in [
        p["key"] for p in st["players"]
    ]
    [final] = finals(sink.views)
    records = await repo.room_settlements(rid, 1, 2)
    from bot.table.final import summary

    room = Room.from_json(st)
    s = summary(room, room.match, records)
    gone = next(p for p in s.players if p.key == actors[2].key)
    assert gone.rounds == 2
    assert gone.total == sum(
        e.points for r in records for e in r.entries if e.player_key == actors[2].key
    )
    assert any(actors[2].name in line for line in final.lines)
