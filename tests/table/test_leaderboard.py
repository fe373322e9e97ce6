"""Leaderboards count rounds by the table's clock, per period."""

from __future__ import annotations

from bot.table.actions import Verb

from .helpers import make_manager, ok, open_table, play_round


def board_lines(out):
    (view,) = [v for v in out.views if v.key.startswith("leaderboard:")]
    return [line for line in view.lines if line[:1].isdigit()]


async def test_week_and_month_boards_follow_the_clock(repo, clock):
    mgr, _ = make_manager(repo, clock)
    rid, actors = await open_table(mgr, 2)
    await play_round(mgr, clock, rid, actors)
    week = board_lines(await ok(mgr, actors[0], Verb.LEADERBOARD, "week"))
    assert len(week) == 2  # both players, just now
    await clock.advance(8 * 86400)
    assert board_lines(await ok(mgr, actors[0], Verb.LEADERBOARD, "week")) == []
    assert len(board_lines(await ok(mgr, actors[0], Verb.LEADERBOARD, "month"))) == 2
    assert len(board_lines(await ok(mgr, actors[0], Verb.LEADERBOARD, "all"))) == 2
