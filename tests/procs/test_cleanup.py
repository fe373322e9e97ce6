"""The clean-up of old delivery records in a running `thirteen run`
process: once a room is closed its message ids go (after
DELIVERY_RETENTION_DAYS, here about a second), while an open room's stay
and its table is still edited in place (docs/delivery.md §7)."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select

from storage.models import messages
from storage.sql import SqlRepository
from tests.procs.botproc import ANN, BO, BotProcess, Players, bot_env
from tests.procs.game import Fleet, Script
from tests.telegram.fakebotapi import FakeBotAPI
from tests.telegram.harness import GROUP_ID


async def stored_keys(url: str) -> set[str]:
    repo = SqlRepository(url)
    await repo.init()
    try:
        with repo._conns.read() as conn:  # a look at the table, as an operator would
            return {r.view_key for r in conn.execute(select(messages.c.view_key))}
    finally:
        await repo.close()


async def open_room_id(url: str) -> str:
    repo = SqlRepository(url)
    await repo.init()
    try:
        room = await repo.open_room_for_chat("telegram", str(GROUP_ID))
        assert room is not None
        return room.room_id
    finally:
        await repo.close()


async def until(check, what: str) -> None:  # type: ignore[no-untyped-def]
    for _ in range(600):  # a hang guard, not a speed limit
        if await check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"never happened: {what}")


async def clean_up_in_a_running_bot(api: FakeBotAPI, url: str, tmp_path) -> None:
    api.opened |= {ANN.id, BO.id}
    env = bot_env(api, url, DELIVERY_RETENTION_DAYS="0.00001")  # 0.86 s
    fleet = Fleet(api, [BotProcess(env, tmp_path)])
    players = Players(api)
    await fleet.start_all()
    try:
        await Script(players, fleet).play_first_round([ANN, BO])
        first = await open_room_id(url)
        keys = await stored_keys(url)
        assert {f"table:{first}", f"settle:{first}:1", f"hand:{first}:telegram:{ANN.id}"} <= keys
        players.command(ANN, "/cancel")  # the owner closes the room
        await until(lambda: _no_open_room(url), "the room is closed")
        players.newgame(ANN)
        await until(lambda: _open_room(url), "a new room")
        second = await open_room_id(url)
        await until(
            lambda: _keys_gone(url, first),
            "the closed room's message ids are cleaned up",
        )
        assert f"table:{second}" in await stored_keys(url)
        await asyncio.sleep(2.0)  # older than the retention now, and kept: the room is open
        assert f"table:{second}" in await stored_keys(url)
        [table] = [m for m in players.tables() if second in str(m.buttons)]
        edits = table.edits
        players.join(BO)
        await until(lambda: _edited(table, edits), "Bo's join shows on the same table")
        assert "Bo" in table.text
    finally:
        codes = await fleet.stop_all()
    log = fleet.log_text()
    assert codes == [0], log[-3000:]
    assert "cleaned up" in log and "Traceback" not in log, log[-3000:]


async def _no_open_room(url: str) -> bool:
    repo = SqlRepository(url)
    await repo.init()
    try:
        return await repo.open_room_for_chat("telegram", str(GROUP_ID)) is None
    finally:
        await repo.close()


async def _open_room(url: str) -> bool:
    return not await _no_open_room(url)


async def _keys_gone(url: str, room_id: str) -> bool:
    return not any(room_id in key for key in await stored_keys(url))


async def _edited(message, edits: int) -> bool:  # type: ignore[no-untyped-def]
    return bool(message.edits > edits)


async def test_clean_up_on_sqlite(api: FakeBotAPI, tmp_path) -> None:
    await clean_up_in_a_running_bot(api, f"sqlite:///{tmp_path / 'bot.db'}", tmp_path)


@pytest.mark.postgres
async def test_clean_up_on_postgres(api: FakeBotAPI, tmp_path, pg_schema_url) -> None:
    await clean_up_in_a_running_bot(api, pg_schema_url(), tmp_path)
