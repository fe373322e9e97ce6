"""Settings are checked when a command starts, before anything is created:
a bad value is one line naming the setting and the values allowed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import Settings, SettingsError, load_settings

BAD = [
    ("DISCORD_GUILD_ID", "abc", "DISCORD_GUILD_ID='abc': must be a server id"),
    ("TELEGRAM_WEBHOOK_PORT", "http", "TELEGRAM_WEBHOOK_PORT='http': must be a port number"),
    ("TELEGRAM_WEBHOOK_PORT", "70000", "from 1 to 65535"),
    ("LOG_LEVEL", "verbose", "LOG_LEVEL='verbose': must be one of DEBUG, INFO, WARNING"),
    ("DEFAULT_PRESET", "weird", "DEFAULT_PRESET='weird': must be one of classic, extended"),
    ("DEFAULT_LANGUAGE", "fr", "DEFAULT_LANGUAGE='fr': must be one of zh-Hans, zh-Hant, en"),
    ("ARRANGE_SECONDS", "5", "ARRANGE_SECONDS='5': must be a whole number of seconds from 15"),
    ("ARRANGE_SECONDS", "１２０", "must be a whole number of seconds"),  # not ASCII digits
    ("REMINDER_SECONDS", "-1", "REMINDER_SECONDS='-1'"),
    ("SHOWDOWN_STEP_SECONDS", "nan", "SHOWDOWN_STEP_SECONDS='nan': must be a number"),
    ("THIRTEEN_SOLVER_MODEL_HANDS", "lots", "THIRTEEN_SOLVER_MODEL_HANDS='lots'"),
    ("DATABASE_URL", "bogus://user:hunter2@x/db", "DATABASE_URL=bogus://…: must be sqlite"),
    ("TELEGRAM_WEBHOOK_URL", "ftp://x", "must be an http:// or https:// URL"),
    ("PICTURES", "maybe", "PICTURES='maybe': must be true or false"),
    ("TIMEZONE", "Mars/Olympus", "TIMEZONE='Mars/Olympus': must be a time zone name"),
    ("TIMEZONE", "../../etc/passwd", "must be a time zone name such as Asia/Shanghai"),
]


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No setting from this machine's environment or a .env of the checkout."""
    for name in list(os.environ):
        if name.upper() in {f.upper() for f in Settings.model_fields} | {
            "THIRTEEN_SOLVER_MODEL_HANDS"
        }:
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize(("name", "value", "words"), BAD)
def test_a_bad_setting_is_one_line_naming_it(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch, name: str, value: str, words: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError) as error:
        load_settings()
    message = str(error.value)
    assert words in message
    assert len(message.splitlines()) == 1
    assert "hunter2" not in message  # a database password is never repeated


def test_good_settings_and_the_solver_knob_from_dotenv(clean_env: Path) -> None:
    (clean_env / ".env").write_text(
        "THIRTEEN_SOLVER_MODEL_HANDS=300\nLOG_LEVEL=debug\nDEFAULT_LANGUAGE=EN\n"
        "DISCORD_GUILD_ID=123456789012345678\nARRANGE_SECONDS=15\n",
        encoding="utf-8",
    )
    s = load_settings()
    assert (s.solver_model_hands, s.log_level, s.default_language) == (300, "DEBUG", "en")
    assert s.discord_guild_id == 123456789012345678 and s.arrange_seconds == 15


def test_several_bad_settings_are_one_line_each(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LOG_LEVEL", "verbose")
    monkeypatch.setenv("ARRANGE_SECONDS", "5")
    with pytest.raises(SettingsError) as error:
        load_settings()
    assert sorted(line.split("=")[0] for line in str(error.value).splitlines()) == [
        "ARRANGE_SECONDS",
        "LOG_LEVEL",
    ]


def _thirteen(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "PYTHONPATH")}
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**keep, **env},
        timeout=60,
        check=False,
    )


def test_run_refuses_a_bad_setting_before_creating_the_database(tmp_path: Path) -> None:
    db = tmp_path / "thirteen.db"
    proc = _thirteen(
        tmp_path,
        "run",
        DATABASE_URL=f"sqlite:///{db}",
        TELEGRAM_TOKEN="123:abc",
        DEFAULT_PRESET="weird",
    )
    assert proc.returncode == 2
    assert proc.stderr.strip() == (
        "thirteen: DEFAULT_PRESET='weird': must be one of classic, extended "
        "(.env.example lists every setting)"
    )
    assert not db.exists()


def test_run_without_a_token_says_how_to_start(tmp_path: Path) -> None:
    proc = _thirteen(tmp_path, "run", DATABASE_URL=f"sqlite:///{tmp_path / 'x.db'}")
    assert proc.returncode == 2
    assert "cp .env.example .env" in proc.stderr
    assert "thirteen play" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x.db").exists()


@pytest.mark.parametrize("command", ["run", "play", "bench", "picture"])
def test_every_command_has_help_and_version(tmp_path: Path, command: str) -> None:
    assert _thirteen(tmp_path, command, "--help").returncode == 0
    version = _thirteen(tmp_path, command, "--version")
    assert version.returncode == 0 and version.stdout.startswith("thirteen ")
    bad = _thirteen(tmp_path, command, "--bogus")
    assert bad.returncode == 2 and f"thirteen {command}: error:" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_top_level_version_help_and_unknown_command(tmp_path: Path) -> None:
    assert _thirteen(tmp_path, "--version").stdout.startswith("thirteen ")
    top = _thirteen(tmp_path, "--help")
    assert top.returncode == 0 and "judge" in top.stdout and "docs/judge.md" in top.stdout
    unknown = _thirteen(tmp_path, "nope")
    assert unknown.returncode == 2 and "invalid choice: 'nope'" in unknown.stderr
