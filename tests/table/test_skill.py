"""Skill and luck in /stats and the "best arrangers" board, read from the
reviews stored with the settlements (on every repository)."""

from __future__ import annotations

import pytest

from bot.table import history
from bot.table.actions import Verb

from .helpers import make_manager, ok, open_table, play_round


async def test_stats_and_best_arrangers(any_repo, clock, monkeypatch):
    repo = any_repo
    mgr, _ = make_manager(repo, clock)
    rid, actors = await open_table(mgr, 2, 1)
    for _ in range(3):
        await play_round(mgr, clock, rid, actors)
    records = await repo.settlement_details("telegram", player_key=actors[0].key)
    assert len(records) == 3 and all(not r.entries for r in records)
    reviews = [r.detail["review"][actors[0].key] for r in records]
    skill = history.skill_of(records, actors[0].key)
    assert skill.rounds == 3
    assert skill.given_up == pytest.approx(sum(v["given_up"] for v in reviews) / 3)
    assert skill.luck == pytest.approx(sum(v["best_ev"] for v in reviews) / 3)
    assert skill.fouls_100 == 0.0
    assert skill.specials_100 == pytest.approx(100 * sum(bool(v["declared"]) for v in reviews) / 3)
    # /stats shows the figures (privately)
    out = await ok(mgr, actors[0], Verb.STATS)
    text = "\n".join(out.views[0].lines)
    assert f"{skill.given_up:.2f}" in text and "3 局复盘" in text
    # best arrangers: nobody has 20 rounds yet; with a lower bar both show
    out = await ok(mgr, actors[1], Verb.LEADERBOARD, "skill")
    assert any("20" in line for line in out.views[0].lines)
    assert not any(actors[0].name in line for line in out.views[0].lines)
    monkeypatch.setattr(history, "ARRANGERS_MIN_ROUNDS", 3)
    out = await ok(mgr, actors[1], Verb.LEADERBOARD, "skill")
    lines = out.views[0].lines
    rows = history.arrangers(await repo.settlement_details("telegram", chat_id="chat-1"), 3)
    assert [r.key for r in rows] == sorted(
        (a.key for a in actors), key=lambda k: next(r.given_up for r in rows if r.key == k)
    )
    assert all(any(r.name in line for line in lines) for r in rows)
    # another chat's board is its own
    assert await repo.settlement_details("telegram", chat_id="chat-2") == []


async def test_no_reviewed_rounds_yet(repo, clock):
    mgr, _ = make_manager(repo, clock)
    _rid, actors = await open_table(mgr, 2)
    out = await ok(mgr, actors[0], Verb.STATS)
    assert any("复盘" in line for line in out.views[0].lines)
