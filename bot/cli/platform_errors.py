"""Why a chat platform stopped, in one line that names the setting to look at.

``thirteen run`` ends when a platform's task ends with an error. A token the
platform refuses will be refused again after any restart, so it ends with
:data:`SETTING_WRONG`, the status a bad setting ends with, which the
documented systemd unit does not restart on (``RestartPreventExitStatus``,
deploy/thirteen.service); a network failure may pass, so it ends with 1,
which the unit restarts on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from bot.config import Settings

SETTING_WRONG = 2  # a setting is wrong: restarting does not help
FAILED = 1  # anything else: a restart may help


@dataclass(frozen=True)
class Stopped:
    """One line for the log, and the exit status it calls for."""

    line: str
    status: int


def _where(url: str) -> str:
    parts = urlsplit(url)
    host = parts.hostname or url
    return f"{host}:{parts.port}" if parts.port else host


def _reason(error: BaseException) -> str:
    """The failure's own words, without the wrapping library's class name
    (``httpx.ConnectError: [Errno -2] Name or service not known`` → the
    part after the colon)."""
    text = str(error).strip() or type(error).__name__
    return re.sub(r"^[\w.]+(Error|Exception|Timeout): ", "", text.splitlines()[0])[:300]


def explain_stop(error: BaseException, settings: Settings) -> Stopped:
    """What to tell about a platform that stopped with ``error``."""
    import aiohttp
    import discord
    from telegram import error as tg

    if isinstance(error, tg.InvalidToken):
        return Stopped(
            f"TELEGRAM_TOKEN was rejected by Telegram's Bot API at "
            f"{_where(settings.telegram_base_url)} (401 Unauthorized): it is not the token "
            "of a bot that exists; copy it again from @BotFather (/token) into .env",
            SETTING_WRONG,
        )
    if isinstance(error, tg.NetworkError):
        return Stopped(
            f"Telegram's Bot API cannot be reached at {_where(settings.telegram_base_url)} "
            f"(TELEGRAM_BASE_URL={settings.telegram_base_url}): {_reason(error)}",
            FAILED,
        )
    if isinstance(error, discord.LoginFailure):
        return Stopped(
            "DISCORD_TOKEN was rejected by Discord (401 Unauthorized): copy it again from "
            "the Developer Portal (your application, Bot, Reset Token) into .env",
            SETTING_WRONG,
        )
    if isinstance(error, aiohttp.ClientConnectorError):
        return Stopped(
            f"Discord cannot be reached at {error.host}:{error.port} "
            f"(the bot connects there because DISCORD_TOKEN is set): {_reason(error.os_error)}",
            FAILED,
        )
    return Stopped(f"a platform stopped: {type(error).__name__}: {_reason(error)}", FAILED)
