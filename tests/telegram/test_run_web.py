"""``thirteen run``'s one web server: the addresses it listens on (equal
ones are one socket), a port asked for on two addresses (stopped at start,
before the database is opened), a port already in use (exit 1, and the
webhook is never registered with Telegram)."""

from __future__ import annotations

import asyncio
import logging
import socket

import pytest

from bot.cli.run import _web_places, serve
from bot.config import Settings
from tests.procs.botproc import free_port
from tests.telegram.fakebotapi import FakeBotAPI
from tests.telegram.harness import TOKEN

HOOK = "https://bot.example.org/tg-hook"


def _settings(**overrides: object) -> Settings:
    values: dict[str, object] = {
        "telegram_token": TOKEN,
        "discord_token": None,
        "telegram_webhook_url": None,
        "webapp_url": None,
        "metrics_port": None,
    }
    values.update(overrides)
    return Settings(**values)  # type: ignore[arg-type]


def test_equal_addresses_are_one_socket() -> None:
    one = {"listen": "127.0.0.1", "port": 8080}
    settings = _settings(
        webapp_url="https://bot.example.org",
        webapp_listen=one["listen"],
        webapp_port=one["port"],
        telegram_webhook_url=HOOK,
        telegram_webhook_listen=one["listen"],
        telegram_webhook_port=one["port"],
        metrics_listen=one["listen"],
        metrics_port=one["port"],
    )
    assert _web_places(settings) == [("127.0.0.1", 8080)]
    apart = _web_places(settings.model_copy(update={"telegram_webhook_port": 8443}))
    assert apart == [("127.0.0.1", 8080), ("127.0.0.1", 8443)]


def test_only_what_is_on_is_listened_on() -> None:
    assert _web_places(_settings()) == []  # polling, no page, no metrics: no server
    assert _web_places(_settings(metrics_port=9100)) == [("127.0.0.1", 9100)]
    hook = _settings(telegram_webhook_url=HOOK, telegram_webhook_port=8443)
    assert _web_places(hook) == [("0.0.0.0", 8443)]
    # Without a Telegram token there is no webhook to serve.
    assert _web_places(hook.model_copy(update={"telegram_token": None})) == []


async def test_one_port_on_two_addresses_stops_at_start(tmp_path, capsys) -> None:
    database = tmp_path / "bot.db"
    settings = _settings(
        database_url=f"sqlite:///{database}",
        webapp_url="https://bot.example.org",
        webapp_listen="127.0.0.1",
        webapp_port=8080,
        telegram_webhook_url=HOOK,
        telegram_webhook_listen="0.0.0.0",
        telegram_webhook_port=8080,
    )
    assert await serve(settings) == 2
    err = capsys.readouterr().err
    assert "TELEGRAM_WEBHOOK_PORT=8080 is also WEBAPP_PORT" in err
    assert "TELEGRAM_WEBHOOK_LISTEN='0.0.0.0'" in err and "WEBAPP_LISTEN='127.0.0.1'" in err
    assert not database.exists()  # stopped before anything was created


async def test_a_port_in_use_stops_the_process(
    api: FakeBotAPI, tmp_path, caplog: pytest.LogCaptureFixture
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", free_port()))
        taken.listen()
        port = int(taken.getsockname()[1])
        settings = _settings(
            telegram_base_url=api.base_url,
            database_url=f"sqlite:///{tmp_path / 'bot.db'}",
            telegram_webhook_url=HOOK,
            telegram_webhook_listen="127.0.0.1",
            telegram_webhook_port=port,
        )
        with caplog.at_level(logging.ERROR, logger="thirteen"):
            code = await asyncio.wait_for(serve(settings, asyncio.Event()), 120)  # a hang guard
    assert code == 1
    assert "the web server could not listen" in caplog.text
    assert not api.calls_of("setWebhook")  # Telegram never told to post where nothing listens
