"""``thirteen run`` as a person starts it: a database it cannot use stops it
with one line naming DATABASE_URL; a first start on a machine with an empty
solver cache answers players while the AI's full opponent pools are still
being built, and says so in its log (one line when it starts, one when it is
done); alembic's plugin lines stay out of the log."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.procs.botproc import ANN, BotProcess, Players, bot_env, until
from tests.telegram.fakebotapi import FakeBotAPI

BUILDING = "solver: building the AI's full opponent pools for classic in the background"
BUILT = re.compile(r"solver: the full opponent pools for classic are built \(\d+ s\)")


def run_bot(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "DISCORD_"))}
    base.update(THIRTEEN_SOLVER_CACHE="off", **env)
    return subprocess.run(
        [sys.executable, "-m", "bot", "run"],
        env=base,
        cwd=tmp_path,  # no .env of the checkout is read
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        (
            "sqlite:////nonexistent/x.db",
            "unable to open database file (the folder /nonexistent does not exist)",
        ),
        ("postgresql+psycopg://thirteen:s3cret@127.0.0.1:1/thirteen", "Connection refused"),
    ],
    ids=["sqlite-folder-missing", "postgresql-unreachable"],
)
def test_a_database_it_cannot_use_is_one_line(tmp_path: Path, url: str, reason: str) -> None:
    done = run_bot(tmp_path, DATABASE_URL=url, TELEGRAM_TOKEN="123456:abc")
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    assert done.returncode == 1, lines
    assert len(lines) == 1, lines
    (line,) = lines
    assert line.startswith("thirteen: DATABASE_URL="), line
    assert "the database cannot be used" in line and reason in line, line
    assert "s3cret" not in line


def test_a_bad_database_url_is_a_settings_line(tmp_path: Path) -> None:
    done = run_bot(tmp_path, DATABASE_URL="mysql://x@y/z", TELEGRAM_TOKEN="123456:abc")
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert line.startswith("thirteen: DATABASE_URL=mysql://…: must be sqlite:///")


async def test_a_first_start_answers_before_the_full_pools_are_built(
    api: FakeBotAPI, tmp_path: Path
) -> None:
    cache = tmp_path / "solver-cache"
    env = bot_env(
        api,
        f"sqlite:///{tmp_path / 'bot.db'}",
        # above the quick pool's 900 hands: a full build of about half a
        # minute of CPU on the test machine, which the first start must not wait for
        THIRTEEN_SOLVER_POOL_HANDS="1500",
        THIRTEEN_SOLVER_CACHE=str(cache),
    )
    players = Players(api)
    players.newgame(ANN)  # queued before the bot starts
    bot = BotProcess(env, tmp_path)
    bot.start()
    try:
        await until(players.live_tables, "the table of /newgame")
        assert not BUILT.search(bot.log_text())  # answered while the pools are built
        await until(lambda: BUILDING in bot.log_text(), "the log line of the build")
        assert str(cache) in bot.log_text()  # where they are kept
        serving = bot.log_text().index("thirteen: serving telegram")
        assert serving < bot.log_text().index(BUILDING)
    finally:
        assert await bot.terminate() == 0
    log = bot.log_text()
    assert "alembic.runtime.plugins" not in log
    assert "Running upgrade" in log  # the migrations are still logged
    assert "Traceback" not in log


async def test_a_database_of_a_newer_version_is_one_line(tmp_path: Path) -> None:
    import sqlite3

    from storage.sql import SqlRepository

    url = f"sqlite:///{tmp_path / 'bot.db'}"
    repo = SqlRepository(url)
    await repo.init()
    await repo.close()
    with sqlite3.connect(tmp_path / "bot.db") as db:  # as a newer version leaves it
        db.execute("UPDATE alembic_version SET version_num = '9999'")
    done = run_bot(tmp_path, DATABASE_URL=url, TELEGRAM_TOKEN="123456:abc")
    assert done.returncode == 1
    lines = [line for line in done.stderr.splitlines() if "INFO" not in line]
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert "its schema is at revision 9999, which this version of the bot does not know" in lines[0]
