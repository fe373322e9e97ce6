"""run_telegram: the real update paths, polling (getUpdates) and webhook."""

from __future__ import annotations

import asyncio
import socket

import aiohttp

from bot.config import Settings
from bot.platforms.telegram.app import run_telegram
from tests.fakes import FakeManager
from tests.telegram.fakebotapi import FakeBotAPI
from tests.telegram.harness import GROUP_ID, TOKEN, TgUser
from tests.telegram.play import newgame_update, until_group_message

ANN = TgUser(31, "Ann")


async def _started(task: asyncio.Task[None], ready: asyncio.Event) -> None:
    """Wait until the bot is up, surfacing a crash of the runner instead of hanging."""
    waiter = asyncio.create_task(ready.wait())
    done, _ = await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
    if task in done:
        waiter.cancel()
        task.result()
        raise AssertionError("run_telegram returned before it was ready")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_polling_by_default(api: FakeBotAPI) -> None:
    settings = Settings(
        telegram_token=TOKEN, telegram_base_url=api.base_url, telegram_webhook_url=None
    )
    manager = FakeManager()
    stop, ready = asyncio.Event(), asyncio.Event()
    task = asyncio.create_task(run_telegram(settings, manager, stop, ready=ready))
    await _started(task, ready)
    assert manager.sink is not None  # timer views reach this bot
    api.inject(newgame_update(api, ANN))
    await until_group_message(api)
    stop.set()
    await task
    assert api.chat_messages(GROUP_ID)[0].text.startswith("Room r1")
    assert api.calls_of("getUpdates") and api.webhook is None


async def test_webhook_when_a_url_is_set(api: FakeBotAPI) -> None:
    port = _free_port()
    url = f"http://127.0.0.1:{port}/tg-hook"
    settings = Settings(
        telegram_token=TOKEN,
        telegram_base_url=api.base_url,
        telegram_webhook_url=url,
        telegram_webhook_listen="127.0.0.1",
        telegram_webhook_port=port,
        telegram_webhook_secret="s3cret",
    )
    stop, ready = asyncio.Event(), asyncio.Event()
    task = asyncio.create_task(run_telegram(settings, FakeManager(), stop, ready=ready))
    await _started(task, ready)
    assert api.webhook is not None and api.webhook["url"] == url
    assert api.webhook["secret_token"] == "s3cret"
    async with aiohttp.ClientSession() as session:
        async with session.post(url, json=newgame_update(api, ANN)) as forged:
            assert forged.status == 403  # no secret header: refused
        headers = {"X-Telegram-Bot-Api-Secret-Token": "s3cret"}
        async with session.post(url, json=newgame_update(api, ANN), headers=headers) as real:
            assert real.status == 200
    await until_group_message(api)
    stop.set()
    await task
    assert len(api.chat_messages(GROUP_ID)) == 1
    assert not api.calls_of("getUpdates")
