"""What a host meets when a token is wrong or the network is missing:
``thirteen run`` as its own process says so in one line that names the
setting, ends with a status the systemd unit does (or does not) restart on,
and no configured secret reaches its log, tracebacks at DEBUG included."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from bot.cli.platform_errors import FAILED, SETTING_WRONG
from bot.logsafe import MASK
from tests.procs.botproc import HANG_GUARD, BotProcess, bot_env
from tests.telegram.fakebotapi import FakeBotAPI

# Real shapes, so nothing but the server can tell them apart from good ones.
TOKEN = "987654321:AAHfakeKEYthatTelegramRejects_0123-xyz"
SECRETS = {
    "TELEGRAM_WEBHOOK_SECRET": "hook-Secret-4f1c9e",
    "WEBAPP_SECRET": "page-Secret-77ab1d",
}
DB_PASSWORD = "db-Pass-w0rd-5e2"


async def _finished(bot: BotProcess) -> int:
    assert bot.proc is not None
    for _ in range(int(HANG_GUARD * 10)):
        if bot.proc.poll() is not None:
            return bot.proc.returncode
        await asyncio.sleep(0.1)
    bot.kill()
    raise AssertionError(f"the bot did not stop by itself; log: {bot.log_text()[-2000:]}")


def _errors(log: str) -> list[str]:
    return [line for line in log.splitlines() if " ERROR " in line or " CRITICAL " in line]


def _assert_no_secret(log: str, *secrets: str) -> None:
    for secret in secrets:
        assert secret not in log, f"a secret is in the log: {secret[:4]}…"


@pytest.mark.parametrize("level", ["INFO", "DEBUG"])
async def test_a_rejected_token_is_one_line_and_no_secret_is_logged(
    api: FakeBotAPI, tmp_path: Path, pg_schema_url: Callable[[], str], level: str
) -> None:
    api.rejected_tokens.add(TOKEN)
    url = make_url(pg_schema_url()).set(password=DB_PASSWORD)  # trust auth: any password
    env = bot_env(
        api,
        url.render_as_string(hide_password=False),
        TELEGRAM_TOKEN=TOKEN,
        LOG_LEVEL=level,
        WEBAPP_URL="http://127.0.0.1:1",
        **SECRETS,
    )
    bot = BotProcess(env, tmp_path)
    bot.start()
    assert await _finished(bot) == SETTING_WRONG
    log = bot.log_text()
    (line,) = _errors(log)
    assert "TELEGRAM_TOKEN was rejected by Telegram's Bot API at 127.0.0.1" in line, line
    assert "401 Unauthorized" in line and "@BotFather" in line, line
    assert api.calls_of("getMe") and all(c.status == 401 for c in api.calls)
    _assert_no_secret(log, TOKEN, TOKEN.partition(":")[2], DB_PASSWORD, *SECRETS.values())
    assert "thirteen: serving" not in log  # nothing was served
    if level == "DEBUG":
        # The library's own exception, which carries the token, is in the
        # traceback, masked; the Bot API's URLs (the token in their path) too.
        assert "Traceback" in log and "InvalidToken" in log
        assert f"The token `{MASK}` was rejected" in log
        assert f"/bot{MASK}/getMe" in log
    else:
        assert "Traceback" not in log


def _without_network() -> list[str]:
    """``unshare -n``, a network namespace with nothing in it, where this
    machine allows it (as root): the bot's host then cannot be looked up at
    all, as on a machine without network. Else the name below cannot be
    found (``.invalid`` is never a real domain)."""
    unshare = shutil.which("unshare")
    if unshare and subprocess.run([unshare, "-n", "true"], check=False).returncode == 0:
        return [unshare, "-n"]
    return []


async def test_no_network_names_the_host_and_the_setting(tmp_path: Path) -> None:
    base = "http://api.telegram.invalid/bot"
    env = dict(os.environ)
    env.update(
        TELEGRAM_TOKEN=TOKEN,
        TELEGRAM_BASE_URL=base,
        DATABASE_URL=f"sqlite:///{tmp_path / 'bot.db'}",
        LOG_LEVEL="DEBUG",
        THIRTEEN_SOLVER_CACHE="off",
        THIRTEEN_SOLVER_MODEL_HANDS="50",
        THIRTEEN_SOLVER_POOL_HANDS="50",
        **SECRETS,
    )
    done = await asyncio.to_thread(
        subprocess.run,
        [*_without_network(), sys.executable, "-m", "bot", "run"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    log = done.stdout + done.stderr
    assert done.returncode == FAILED, log[-2000:]  # the unit restarts it: the network may come back
    (line,) = _errors(log)
    assert "Telegram's Bot API cannot be reached at api.telegram.invalid" in line, line
    assert f"(TELEGRAM_BASE_URL={base})" in line, line
    assert "NetworkError" not in line and "httpx" not in line, line
    _assert_no_secret(log, TOKEN, TOKEN.partition(":")[2], *SECRETS.values())
    assert "Traceback" in log  # at DEBUG, masked


@pytest.mark.parametrize(
    ("setting", "value"),
    [
        ("TELEGRAM_TOKEN", "notatoken"),
        ("TELEGRAM_TOKEN", f"bot{TOKEN}"),
        ("TELEGRAM_TOKEN", f"{TOKEN} "),
        ("DISCORD_TOKEN", "a-client-secret-not-the-bot-token"),
    ],
    ids=["no-colon", "bot-prefix", "trailing-space", "discord-one-part"],
)
def test_a_token_of_the_wrong_shape_is_refused_before_anything_is_created(
    tmp_path: Path, setting: str, value: str
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "DISCORD_"))}
    env.pop("DATABASE_URL", None)  # the default: thirteen.db in the working folder
    env[setting] = value
    done = subprocess.run(
        [sys.executable, "-m", "bot", "run"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == SETTING_WRONG
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"thirteen: {setting}=(hidden): must be "), line
    assert value.strip() not in done.stdout + done.stderr
    assert list(tmp_path.iterdir()) == []  # no thirteen.db, nothing else
