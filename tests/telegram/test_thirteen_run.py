"""``thirteen run`` end to end: settings -> SQLite -> manager -> Telegram polling."""

from __future__ import annotations

import asyncio

from bot.cli.run import serve
from bot.config import Settings
from storage.sql import SqlRepository
from tests.telegram.fakebotapi import FakeBotAPI
from tests.telegram.harness import GROUP_ID, TOKEN
from tests.telegram.play import USERS, newgame_update, until_group_message


async def test_run_serves_telegram_and_stores_the_room(api: FakeBotAPI, tmp_path) -> None:
    url = f"sqlite:///{tmp_path / 'bot.db'}"
    settings = Settings(
        telegram_token=TOKEN,
        telegram_base_url=api.base_url,
        database_url=url,
        discord_token=None,
        telegram_webhook_url=None,
    )
    stop = asyncio.Event()
    task = asyncio.create_task(serve(settings, stop))
    for _ in range(600):  # a hang guard, not a speed limit (the solver warms up first)
        if api.calls_of("getUpdates"):
            break
        if task.done():
            raise AssertionError(f"serve returned early: {task.result()}")
        await asyncio.sleep(0.05)
    api.inject(newgame_update(api, USERS[0]))
    await until_group_message(api)
    stop.set()
    assert await task == 0
    table = api.chat_messages(GROUP_ID)[0]
    assert table.reply_markup  # the lobby's buttons (join, start, …)
    repo = SqlRepository(url)
    await repo.init()
    try:
        room = await repo.open_room_for_chat("telegram", str(GROUP_ID))
    finally:
        await repo.close()
    assert room is not None and room.state["players"]


async def test_run_without_any_token_explains_and_exits_2(capsys) -> None:
    assert await serve(Settings(telegram_token=None, discord_token=None)) == 2
    assert "TELEGRAM_TOKEN" in capsys.readouterr().err
