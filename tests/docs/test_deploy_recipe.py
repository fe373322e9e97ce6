"""docs/deploy.md's recipe, line by line: every command of its ``sh`` blocks
is one the program or the Debian package it names accepts. Where a command
can run here without changing the machine it runs, on copies (the Caddyfile
as the recipe edits it, validated by Caddy; the backup, made by sqlite3;
the bot's version; apt's install, simulated); every other command's options
are checked against the program's own ``--help``. The unit file is checked
by ``systemd-analyze verify``. A program that is not installed here is
skipped, except under CI (.ci/run installs them)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli.platform_errors import SETTING_WRONG

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "docs" / "deploy.md"
OPT = "/opt/thirteen"  # where the recipe installs the checkout
VENV_BIN = f"{OPT}/.venv/bin/"


def recipe() -> list[str]:
    """The command lines of deploy.md's ``sh`` blocks (continuations joined)."""
    lines: list[str] = []
    for block in re.findall(r"```sh\n(.*?)```", DEPLOY.read_text(encoding="utf-8"), re.S):
        for line in block.replace("\\\n", " ").splitlines():
            if line.strip() and not line.lstrip().startswith("#"):
                lines.append(line.strip())
    return lines


def need(program: str) -> str:
    path = shutil.which(program)
    if path is None:
        if os.environ.get("CI"):
            pytest.fail(f"{program} is missing under CI: .ci/run installs it")
        pytest.skip(f"{program} is not installed here")
    return path


def help_text(*command: str) -> str:
    done = subprocess.run(
        [need(command[0]), *command[1:]], capture_output=True, text=True, check=False
    )
    return done.stdout + done.stderr


def options_of(words: list[str]) -> list[str]:
    """The options a command line gives (``--name`` without its ``=value``),
    up to a ``--`` that ends them."""
    found = []
    for word in words:
        if word == "--":
            break
        if word.startswith("-") and len(word) > 1:
            found.append(word.split("=", 1)[0])
    return found


def assert_options_known(words: list[str], helped: str) -> None:
    for option in options_of(words):
        assert re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", helped), (
            f"{option} is not an option of {words[0]}"
        )


def run_here(line: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """``line`` through a shell with the recipe's places mapped to copies:
    the checkout to this one, /etc/caddy and /var/lib/thirteen to folders of
    ``tmp_path``."""
    for folder in ("caddy", "state"):
        (tmp_path / folder).mkdir(exist_ok=True)
    mapped = (
        line.replace(VENV_BIN + "thirteen", f"{sys.executable} -m bot")
        .replace(OPT, str(ROOT))
        .replace("/etc/caddy", str(tmp_path / "caddy"))
        .replace("/var/lib/thirteen", str(tmp_path / "state"))
    )
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path))
    return subprocess.run(
        ["bash", "-c", mapped], capture_output=True, text=True, check=False, env=env, cwd=tmp_path
    )


def check(line: str, tmp_path: Path) -> None:
    """One command line of the recipe, checked as far as it can be here."""
    words = shlex.split(line.split(" > ")[0].split(" | ")[0])
    program, rest = words[0], words[1:]
    if program == "runuser":
        assert_options_known(words[: words.index("--")], help_text("runuser", "--help"))
        inner = words[words.index("--") + 1 :]
        if inner[0] == VENV_BIN + "thirteen":
            done = run_here(shlex.join(inner), tmp_path)
            assert done.returncode == 0 and done.stdout.strip(), done.stderr
        elif inner[0] == "sqlite3":
            need("sqlite3")
            db = tmp_path / "state" / "thirteen.db"
            db.parent.mkdir(exist_ok=True)
            subprocess.run(["sqlite3", str(db), "CREATE TABLE t(x); INSERT INTO t VALUES (13);"])
            done = run_here(line.split(" -- ", 1)[1], tmp_path)
            assert done.returncode == 0, done.stderr
            (copy,) = [p for p in (tmp_path / "state").glob("thirteen-*.db")]
            assert (
                subprocess.run(
                    ["sqlite3", str(copy), "SELECT x FROM t"], capture_output=True, text=True
                ).stdout.strip()
                == "13"
            )
        else:
            pytest.fail(f"no check for {inner[0]} under runuser")
    elif program == "apt":
        if rest[0] == "install":
            apt_get = need("apt-get")
            done = subprocess.run(
                [apt_get, "install", "--simulate", *rest[1:]], capture_output=True, text=True
            )
            if "Unable to locate package" in done.stderr and not os.environ.get("CI"):
                pytest.skip("apt's package lists are not here (apt update)")
            assert done.returncode == 0, done.stderr
        else:
            assert rest == ["update"] and "update" in help_text("apt", "--help")
    elif program == "sed":
        done = run_here(line, tmp_path)
        assert done.returncode == 0, done.stderr
        written = (tmp_path / "caddy" / "Caddyfile").read_text()
        assert "play.example.com {" in written and "thirteen.example.org" not in written
    elif program == "caddy":
        assert rest[0] == "validate"
        need("caddy")
        (edit,) = [x for x in LINES if x.startswith("sed ") and "/etc/caddy/Caddyfile" in x]
        assert run_here(edit, tmp_path).returncode == 0  # the Caddyfile as the recipe makes it
        done = run_here(line, tmp_path)
        assert done.returncode == 0 and "Valid configuration" in done.stdout + done.stderr, (
            done.stderr[-2000:]
        )
    elif program == "git":
        if rest[0] == "-C":
            assert_options_known(["git", "-C"], help_text("git", "--help"))
            rest = rest[2:]
        assert_options_known([program, *rest], help_text("git", rest[0], "-h"))
    elif program == "systemctl":
        helped = help_text("systemctl", "--help")
        assert re.search(rf"^\s+{re.escape(rest[0])}\b", helped, re.M), rest[0]
        assert_options_known(words, helped)
    elif program.startswith(VENV_BIN):
        tool = program.removeprefix(VENV_BIN)
        assert tool == "pip" and rest[0] == "install"
        helped = subprocess.run(
            [sys.executable, "-m", "pip", "install", "--help"], capture_output=True, text=True
        ).stdout
        assert_options_known(words, helped)
        assert Path(rest[-1].replace(OPT, str(ROOT)), "pyproject.toml").exists()
    elif program in ("useradd", "install", "cp", "journalctl", "python3"):
        assert_options_known(words, help_text(program, "--help"))
        if program == "python3" and rest[:2] == ["-m", "venv"]:
            assert_options_known(rest[1:], help_text("python3", "-m", "venv", "--help"))
    else:
        pytest.fail(f"no check for the recipe's command {program}: add one")


LINES = recipe()


def test_the_recipe_is_there() -> None:
    programs = {shlex.split(line)[0] for line in LINES}
    for program in ("apt", "useradd", "git", "systemctl", "caddy", "sed", "runuser"):
        assert program in programs


@pytest.mark.parametrize("line", LINES)
def test_each_command_of_the_recipe(line: str, tmp_path: Path) -> None:
    check(line, tmp_path)


def test_the_unit_file_verifies(tmp_path: Path) -> None:
    """deploy/thirteen.service as systemd reads it, the program's path
    pointed at this checkout's; and its restart rule spares a wrong setting."""
    analyze = need("systemd-analyze")
    text = (ROOT / "deploy" / "thirteen.service").read_text()
    assert f"ExecStart={VENV_BIN}thirteen run" in text
    assert f"RestartPreventExitStatus={SETTING_WRONG}" in text
    thirteen = Path(sys.executable).with_name("thirteen")
    if not thirteen.exists():
        pytest.skip("the thirteen command is not installed in this environment")
    unit = tmp_path / "thirteen.service"
    unit.write_text(text.replace(f"{VENV_BIN}thirteen", str(thirteen)))
    done = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True)
    assert done.returncode == 0 and done.stderr == "", done.stderr
