"""Telegram's webhook route (bot/platforms/telegram/webhook.py) on an aiohttp
server: what it queues for the Application and what it refuses (a forged
or missing secret, an oversized body, a body that is not an update, a bot
that is stopping), each refusal with nothing queued."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from telegram import Update
from telegram.ext import Application

from bot.config import Settings
from bot.delivery.http import serve_http
from bot.platforms.telegram.app import build_application, webhook_of
from bot.platforms.telegram.webhook import MAX_UPDATE_BYTES, SECRET_HEADER, TelegramWebhook
from tests.fakes import FakeManager
from tests.procs.botproc import free_port
from tests.telegram.fakebotapi import FakeBotAPI
from tests.telegram.harness import TOKEN, TgUser
from tests.telegram.play import newgame_update

ANN = TgUser(31, "Ann")
SECRET = "s3cret-token_1"
GOOD = {SECRET_HEADER: SECRET}


def _application(api: FakeBotAPI, secret: str | None = SECRET) -> Application:
    settings = Settings(
        telegram_token=TOKEN,
        telegram_base_url=api.base_url,
        telegram_webhook_url="https://bot.example.org/tg-hook",
        telegram_webhook_secret=secret,
    )
    return build_application(settings, FakeManager())


class Served:
    def __init__(self, application: Application, port: int) -> None:
        self.application = application
        webhook = webhook_of(application)
        assert webhook is not None
        self.webhook: TelegramWebhook = webhook
        self.url = f"http://127.0.0.1:{port}/tg-hook"

    def queued(self) -> list[Any]:
        queue = self.application.update_queue
        return [queue.get_nowait() for _ in range(queue.qsize())]


async def _serve(application: Application) -> AsyncIterator[Served]:
    port = free_port()
    served = Served(application, port)
    root = web.Application()
    served.webhook.add_routes(root)
    runner = await serve_http(root, [("127.0.0.1", port)])
    try:
        yield served
    finally:
        await runner.cleanup()


@pytest.fixture
async def hook(api: FakeBotAPI) -> AsyncIterator[Served]:
    async for served in _serve(_application(api)):
        yield served


async def _post(url: str, **kwargs: Any) -> int:
    async with aiohttp.ClientSession() as session, session.post(url, **kwargs) as answer:
        return answer.status


def test_webhook_mode_has_no_updater(api: FakeBotAPI) -> None:
    application = _application(api)
    assert application.updater is None and webhook_of(application) is not None
    polling = build_application(
        Settings(telegram_token=TOKEN, telegram_base_url=api.base_url, telegram_webhook_url=None),
        FakeManager(),
    )
    assert polling.updater is not None and webhook_of(polling) is None


async def test_an_update_with_the_secret_is_queued(api: FakeBotAPI, hook: Served) -> None:
    update = newgame_update(api, ANN)
    assert await _post(hook.url, json=update, headers=GOOD) == 200
    (queued,) = hook.queued()
    assert isinstance(queued, Update) and queued.update_id == update["update_id"]
    assert queued.message is not None and queued.message.text == "/newgame"


@pytest.mark.parametrize(
    "headers",
    [{}, {SECRET_HEADER: "wrong"}, {SECRET_HEADER: SECRET + "x"}, {SECRET_HEADER: SECRET[:-1]}],
    ids=["missing", "forged", "longer", "shorter"],
)
async def test_a_missing_or_forged_secret_is_refused(
    api: FakeBotAPI, hook: Served, headers: dict[str, str]
) -> None:
    assert await _post(hook.url, json=newgame_update(api, ANN), headers=headers) == 403
    assert hook.queued() == []


async def test_without_a_secret_setting_any_request_is_taken(api: FakeBotAPI) -> None:
    async for served in _serve(_application(api, secret=None)):
        assert await _post(served.url, json=newgame_update(api, ANN)) == 200
        assert len(served.queued()) == 1


async def test_an_oversized_body_is_refused(api: FakeBotAPI, hook: Served) -> None:
    update = newgame_update(api, ANN)
    update["message"]["text"] = "/newgame " + "x" * MAX_UPDATE_BYTES
    body = json.dumps(update).encode()
    headers = {**GOOD, "Content-Type": "application/json"}
    assert await _post(hook.url, data=body, headers=headers) == 413  # Content-Length says so

    async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: counted as it comes
        for i in range(0, len(body), 65536):
            yield body[i : i + 65536]

    assert await _post(hook.url, data=chunks(), headers=headers) == 413
    assert hook.queued() == []


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        (b'{"update_id": 1, "message": ', "application/json"),  # cut short
        (b"\xff\xfe not text", "application/json"),
        (b"[1, 2]", "application/json"),  # JSON, not an object
        (b'{"message": {"text": "no update id"}}', "application/json"),
        (b'{"update_id": 5}', "text/plain"),
        (b"update_id=5", "application/x-www-form-urlencoded"),
    ],
    ids=["truncated", "not-utf8", "array", "no-update-id", "text-plain", "form"],
)
async def test_a_body_that_is_not_an_update_is_refused(
    hook: Served, body: bytes, content_type: str
) -> None:
    headers = {**GOOD, "Content-Type": content_type}
    assert await _post(hook.url, data=body, headers=headers) == 400
    assert hook.queued() == []


async def test_only_post_on_the_webhook_path(api: FakeBotAPI, hook: Served) -> None:
    async with aiohttp.ClientSession() as session:
        async with session.get(hook.url, headers=GOOD) as answer:
            assert answer.status == 405
        other = hook.url.replace("/tg-hook", "/tg-hook2")
        async with session.post(other, json=newgame_update(api, ANN), headers=GOOD) as answer:
            assert answer.status == 404
    assert hook.queued() == []


async def test_a_closed_webhook_takes_nothing(api: FakeBotAPI, hook: Served) -> None:
    hook.webhook.close()
    assert await _post(hook.url, json=newgame_update(api, ANN), headers=GOOD) == 503
    assert hook.queued() == []


async def test_register_sends_what_start_webhook_sent(api: FakeBotAPI) -> None:
    application = _application(api)
    webhook = webhook_of(application)
    assert webhook is not None
    async with application:
        await webhook.register(["message", "callback_query"])
    assert api.webhook is not None
    assert api.webhook["url"] == "https://bot.example.org/tg-hook"
    assert api.webhook["secret_token"] == SECRET
    assert api.webhook["allowed_updates"] == ["message", "callback_query"]
    assert str(api.webhook["max_connections"]) == "40"
