"""Replays: ``/replay N`` shows round N of the chat's history, and its judge
line gives back the stored settlement exactly (through ``thirteen judge``)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bot.cli.judge import judge
from bot.table.actions import Verb
from bot.views.model import Audience

from .helpers import act, human, make_manager, ok, open_table, play_round

SETTLEMENT_KEYS = ("players", "pairs", "home_run", "totals")


@pytest.mark.parametrize(
    "options",
    [(), ("jokers=2", "scoop=off"), ("banker=on",), ("extra_three=on",), ("escape=on",)],
)
async def test_replay_judge_line_gives_back_the_stored_settlement(any_repo, clock, options):
    repo = any_repo
    mgr, _ = make_manager(repo, clock)
    humans, ais = (2, 1) if "extra_three=on" in options else (2, 2)
    rid, actors = await open_table(mgr, humans, ais, options=list(options))
    if "escape=on" in options:
        await ok(mgr, actors[0], Verb.START)
        await ok(mgr, actors[1], Verb.LEAVE)  # escapes: auto-arranged, penalty
        await clock.advance(500)
    else:
        await play_round(mgr, clock, rid, actors)
        await play_round(mgr, clock, rid, actors)
    n = 1
    out = await ok(mgr, actors[0], Verb.REPLAY, str(n))
    [view] = out.views
    assert view.audience is Audience.GROUP and view.chat_id == "chat-1"
    assert out.file is not None
    line = out.file.text.strip()
    assert out.file.name == "round-1.jsonl"
    assert line in view.lines
    [record] = await repo.room_settlements(rid, 1, 1)
    stored = {k: record.detail[k] for k in SETTLEMENT_KEYS}
    answer = judge(json.loads(line))
    assert {k: answer[k] for k in SETTLEMENT_KEYS} == stored
    # the hands as arranged are in the view
    for key, hand in record.detail["round"]["hands"].items():
        assert record.detail["round"]["names"][key] in " ".join(view.lines)
        assert len(hand["head"]) == 3


async def test_judge_command_reproduces_a_replayed_round(repo, clock, tmp_path):
    mgr, _ = make_manager(repo, clock)
    rid, actors = await open_table(mgr, 3, 1)
    await play_round(mgr, clock, rid, actors)
    out = await ok(mgr, actors[2], Verb.REPLAY, "1")
    assert out.file is not None
    path = tmp_path / out.file.name
    path.write_text(out.file.text, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "bot", "judge"],
        stdin=path.open("rb"),
        capture_output=True,
        check=True,
    )
    answer = json.loads(run.stdout)
    [record] = await repo.room_settlements(rid, 1, 1)
    assert answer["ok"] is True
    assert {k: answer[k] for k in SETTLEMENT_KEYS} == {k: record.detail[k] for k in SETTLEMENT_KEYS}


async def test_replay_numbers_and_refusals(repo, clock):
    mgr, _ = make_manager(repo, clock)
    out = await act(mgr, human(1), Verb.REPLAY, "1")
    assert not out.ok and "0" in out.reply  # nothing played yet in this chat
    rid, actors = await open_table(mgr, 2, 1)
    await play_round(mgr, clock, rid, actors)
    for bad in (None, "0", "x", "²"):
        out = await act(mgr, actors[0], Verb.REPLAY, bad)
        assert not out.ok and "/replay" in out.reply
    out = await act(mgr, actors[0], Verb.REPLAY, "2")
    assert not out.ok and "1" in out.reply
    # a private chat names no chat
    out = await act(mgr, actors[0], Verb.REPLAY, "1", chat_id="")
    assert not out.ok
    # another chat's history is its own
    out = await act(mgr, actors[0], Verb.REPLAY, "1", chat_id="chat-2")
    assert not out.ok
