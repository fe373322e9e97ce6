"""The redaction filter (bot/logsafe.py) masks every configured secret
wherever a record carries it, and ``explain_stop`` turns a platform's
failure into one line naming the setting."""

from __future__ import annotations

import io
import logging
import sys
import threading
from collections.abc import Iterator
from urllib.parse import quote

import pytest

from bot.cli.platform_errors import FAILED, SETTING_WRONG, explain_stop
from bot.config import Settings
from bot.logsafe import MASK, Redact, install, secrets_of

TOKEN = "987654321:AAHkeyOfTheBot_0123456789-abcdefghij"
DISCORD = "MTAxMjM0NTY3ODkwMTIzNDU2Nw.GabcDE.abcdefghijklmnopqrstuvwxyz0123456789"
HOOK, PAGE, DB = "hook-Secret-4f1c9e", "page-Secret-77ab1d", "p@ss:w/rd-5e2"


def settings() -> Settings:
    return Settings(  # type: ignore[call-arg]
        _env_file=None,
        telegram_token=TOKEN,
        discord_token=DISCORD,
        telegram_webhook_secret=HOOK,
        webapp_secret=PAGE,
        database_url=f"postgresql+psycopg://thirteen:{quote(DB, safe='')}@db.example/thirteen",
    )


@pytest.fixture
def logged() -> Iterator[io.StringIO]:
    """A logger whose one handler writes to a string, with the filter installed."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    hooks = sys.excepthook, threading.excepthook
    try:
        install(settings())
        yield out
    finally:  # the test process's logging as it was
        root.removeHandler(handler)
        sys.excepthook, threading.excepthook = hooks
        logging.captureWarnings(False)
        for logger in [root, *logging.Logger.manager.loggerDict.values()]:
            for h in getattr(logger, "handlers", []):
                for f in [f for f in h.filters if isinstance(f, Redact)]:
                    h.removeFilter(f)


def test_every_secret_is_among_the_masked() -> None:
    found = secrets_of(settings())
    for secret in (TOKEN, TOKEN.partition(":")[2], DISCORD, HOOK, PAGE, DB, quote(DB, safe="")):
        assert secret in found
    assert "987654321" not in found  # the bot's number is public


def test_message_arguments_tracebacks_and_stacks_are_masked(logged: io.StringIO) -> None:
    log = logging.getLogger("some.library")
    log.warning("calling https://api.telegram.org/bot%s/getMe", TOKEN)
    log.warning(f"url postgresql://thirteen:{quote(DB, safe='')}@db/x and {HOOK}")
    log.warning("page key %r", PAGE, stack_info=True)
    try:
        raise RuntimeError(f"The token `{TOKEN}` was rejected; discord {DISCORD}; pw {DB}")
    except RuntimeError:
        log.exception("failed")
    text = logged.getvalue()
    for secret in (TOKEN, TOKEN.partition(":")[2], DISCORD, HOOK, PAGE, DB, quote(DB, safe="")):
        assert secret not in text
    assert f"/bot{MASK}/getMe" in text and f"The token `{MASK}` was rejected" in text
    assert "Traceback" in text and "RuntimeError" in text  # the traceback stays, masked
    assert "Stack (most recent call last)" in text


def test_every_handler_gets_the_filter(logged: io.StringIO) -> None:
    root = logging.getLogger()
    assert root.handlers
    for handler in root.handlers:
        assert sum(isinstance(f, Redact) for f in handler.filters) == 1
    install(settings())  # again: still one each
    for handler in root.handlers:
        assert sum(isinstance(f, Redact) for f in handler.filters) == 1


def test_an_uncaught_exception_goes_through_the_filter(logged: io.StringIO) -> None:
    try:
        raise ValueError(f"boom {HOOK}")
    except ValueError as e:
        sys.excepthook(type(e), e, e.__traceback__)
    text = logged.getvalue()
    assert "uncaught exception" in text and "ValueError: boom ***" in text
    assert HOOK not in text


def test_discord_failures_name_the_setting() -> None:
    import aiohttp
    import discord

    refused = explain_stop(discord.LoginFailure("Improper token has been passed."), settings())
    assert refused.status == SETTING_WRONG and refused.line.startswith("DISCORD_TOKEN was rejected")
    key = type("Key", (), {"host": "discord.com", "port": 443, "ssl": True})()
    error = aiohttp.ClientConnectorError(key, OSError(-2, "Name or service not known"))  # type: ignore[arg-type]
    unreachable = explain_stop(error, settings())
    assert unreachable.status == FAILED
    assert "Discord cannot be reached at discord.com:443" in unreachable.line
    assert "DISCORD_TOKEN" in unreachable.line and "Name or service not known" in unreachable.line
