"""kill -9 at seeded points of a round, then restart: every post of the
round appears exactly once, the round settles once, there is no second
table (docs/delivery.md §5)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n import t
from bot.table.actions import Verb
from storage.api import Period
from storage.sql import SqlRepository
from tests.procs.botproc import (
    ANN,
    BO,
    TABLE_TITLE,
    BotProcess,
    Players,
    bot_env,
    until_delivered,
)
from tests.procs.game import Fleet, KillAt, Script
from tests.telegram.fakebotapi import FakeBotAPI
from tests.telegram.harness import GROUP_ID


def _group(params: dict[str, Any]) -> bool:
    return str(params.get("chat_id")) == str(GROUP_ID)


def _private(params: dict[str, Any]) -> bool:
    return not str(params.get("chat_id", "-")).startswith("-")


def _has_verb(params: dict[str, Any], verb: Verb) -> bool:
    from tests.telegram.harness import button_verb

    rows = (params.get("reply_markup") or {}).get("inline_keyboard", [])
    return any(button_verb(b) is verb for row in rows for b in row)


def kill_points(players: Players) -> dict[str, KillAt]:
    def dealt() -> bool:
        return players.hand(ANN) is not None

    settle = t("en", "settle.title", round=1)
    return {
        # /newgame stored, its table not yet posted
        "lobby": KillAt(
            "lobby",
            lambda m, p: m == "sendMessage" and _group(p) and TABLE_TITLE in p["text"],
            before=True,
        ),
        # the deal stored (Start pressed), nothing of it delivered: killed
        # at the press's answer, which comes before the views are sent
        "deal": KillAt(
            "deal",
            lambda m, p: (
                m == "answerCallbackQuery"
                and players.pressed.get(p.get("callback_query_id", "")) is Verb.START
            ),
            before=True,
        ),
        # a suggestion being worked out (outside the room's lock), nothing
        # of it stored: killed at the press's answer, which a slow verb
        # sends before it runs
        "suggest": KillAt(
            "suggest",
            lambda m, p: (
                m == "answerCallbackQuery"
                and players.pressed.get(p.get("callback_query_id", "")) is Verb.SUGGEST
            ),
            before=True,
        ),
        # a hand edited (the suggestion shown), the bot never hears back
        "arranging": KillAt(
            "arranging",
            lambda m, p: m == "editMessageText" and _private(p),
            before=False,
            nth=2,
        ),
        # the table edited during the confirms and the showdown's steps
        "showdown": KillAt(
            "showdown",
            lambda m, p: m == "editMessageText" and _group(p) and dealt(),
            before=False,
            nth=3,
        ),
        # the settlement committed, nothing of it in the chat: its post (the
        # lobby, with Next round) is the round's last call and the first of
        # the settlement; Telegram makes nothing of it (429) and the process
        # dies while the post waits in the outbox for its retry
        "settled": KillAt(
            "settled",
            lambda m, p: (
                m == "sendMessage"
                and _group(p)
                and dealt()
                and p["text"].startswith(settle)
                and _has_verb(p, Verb.START)
            ),
            before=True,
            pending=3,
        ),
        # the settlement post reached Telegram, the bot never heard back
        "settle_post": KillAt(
            "settle_post",
            lambda m, p: m == "sendMessage" and _group(p) and p["text"].startswith(settle),
            before=False,
        ),
    }


async def crash_and_recover(api: FakeBotAPI, url: str, tmp_path, point: str) -> None:
    api.opened |= {ANN.id, BO.id}
    # The poller only matters at the restart here: a slow one keeps it from
    # waking a lane between the deal's commit and the kill at its answer.
    env = bot_env(api, url, DELIVERY_POLL_SECONDS="2")
    fleet = Fleet(api, [BotProcess(env, tmp_path)])
    players = Players(api)
    kill = kill_points(players)[point]
    kill.install(api, lambda: fleet.bots[0])
    await fleet.start_all()
    script = Script(players, fleet)
    try:
        await script.play_first_round([ANN, BO])
        await fleet.heal()  # killed at the very last call: restart all the same
        await until_delivered(url)
    finally:
        codes = await fleet.stop_all()
    log = fleet.log_text()
    assert kill.fired and fleet.restarts == 1, f"{point}: killed {kill.fired}, {fleet.restarts}"
    assert codes == [0], log[-3000:]
    # every post of the round exactly once, no second table
    assert len(players.settlements(1)) == 1, [m.text for m in players.group()]
    if kill.pending:  # refused (429) before the kill, posted once after it
        title = t("en", "settle.title", round=1)
        posts = [c for c in api.calls_of("sendMessage") if c.params["text"].startswith(title)]
        assert [c.status for c in posts] == [429, 200], [c.status for c in posts]
    # one table post for the lobby, one at the deal (the lobby's retired),
    # which became the showdown (no buttons); the settlement is the lobby:
    # the one message in the group whose buttons act
    shown = [(m.message_id, m.text[:60], m.reply_markup is not None) for m in players.group()]
    assert len(players.tables()) == 2, shown
    assert not players.live_tables(), shown
    assert players.live_messages() == players.settlements(1), shown
    for user in (ANN, BO):
        assert len(players.hands(user, 1)) == 1, [m.text for m in players.hand_messages(user)]
    assert "Traceback" not in log, log[-3000:]
    # the round settled once, zero-sum
    repo = SqlRepository(url)
    await repo.init()
    try:
        room = await repo.open_room_for_chat("telegram", str(GROUP_ID))
        assert room is not None and await repo.has_settlement(room.room_id, 1)
        assert await repo.has_settlement(room.room_id, 2) is False
        rows = await repo.leaderboard("telegram", str(GROUP_ID), Period.ALL, room_time())
        assert [r.rounds for r in rows] == [1, 1] and sum(r.points for r in rows) == 0
        stats = await repo.outbox_stats()
        assert stats.depth == 0 and stats.failed == 0
    finally:
        await repo.close()


def room_time():  # type: ignore[no-untyped-def]
    from datetime import UTC, datetime

    return datetime.now(UTC)


POINTS = ["lobby", "deal", "suggest", "arranging", "showdown", "settled", "settle_post"]


@pytest.mark.parametrize("point", POINTS)
async def test_kill_9_on_sqlite(api: FakeBotAPI, tmp_path, point: str) -> None:
    await crash_and_recover(api, f"sqlite:///{tmp_path / 'bot.db'}", tmp_path, point)


@pytest.mark.postgres
@pytest.mark.parametrize("point", ["deal", "settled"])
async def test_kill_9_on_postgres(api: FakeBotAPI, tmp_path, pg_schema_url, point: str) -> None:
    await crash_and_recover(api, pg_schema_url(), tmp_path, point)
