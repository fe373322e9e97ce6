"""TELEGRAM_WEBHOOK_SECRET is checked at start, as Telegram checks it when
the webhook is registered, and the way .env.example and docs/telegram.md
say to make one makes a good one."""

from __future__ import annotations

import re
import secrets
from pathlib import Path

import pytest

from bot.config import SettingsError, load_settings

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("secret", ["a+b/c=", "has space", "x" * 257, "ünïcode"])
def test_a_secret_telegram_would_refuse_is_one_line_that_hides_it(secret: str) -> None:
    with pytest.raises(SettingsError) as caught:
        load_settings(_env_file=None, telegram_webhook_secret=secret)
    (line,) = str(caught.value).splitlines()
    assert line.startswith("TELEGRAM_WEBHOOK_SECRET=(hidden): must be 1 to 256 characters")
    assert secret not in line


def test_the_documented_way_makes_a_good_secret() -> None:
    for doc in (ROOT / ".env.example", ROOT / "docs" / "telegram.md"):
        assert "secrets.token_urlsafe(32)" in doc.read_text(encoding="utf-8")
    made = secrets.token_urlsafe(32)
    settings = load_settings(_env_file=None, telegram_webhook_secret=made)
    assert settings.telegram_webhook_secret is not None
    assert settings.telegram_webhook_secret.get_secret_value() == made
    assert re.fullmatch(r"[0-9a-f]{64}", secrets.token_hex(32))  # openssl rand -hex 32's kind
    load_settings(_env_file=None, telegram_webhook_secret=secrets.token_hex(32))
