"""README.md and docs/ say what the program does: their examples are run or
checked against the program (docs/judge.md's JSON examples have their own
module, test_judge_doc.py).

- README's ``echo … | thirteen arrange`` line runs as written, in a shell;
- every ``thirteen <command> --option`` written in README or docs/ names a
  command that exists and options its ``--help`` lists;
- README's command lists are the commands the bots register (Telegram's
  menu, Discord's ``/thirteen`` subcommands);
- every ``SETTING=value`` line of a configuration example in docs/ names a
  setting of .env.example;
- docs/discord.md's permission integer is the sum of the permissions it
  lists (discord.py's own values), and the invite link uses it.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import discord
import pytest

from bot.platforms.telegram.menu import GROUP_COMMANDS

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
COMMANDS = ("run", "play", "judge", "arrange", "picture", "bench")
CODE_BLOCK = re.compile(r"^```[^\n]*\n(.*?)^```$", re.M | re.S)
CODE_SPAN = re.compile(r"`([^`\n]+)`")
# "thirteen <word>" as a command line, not "/thirteen new" (Discord) or a folder name
INVOCATION = re.compile(r"(?<![/\w@-])thirteen ([a-z]+)([^\n|&;<>#]*)")


def _code(path: Path) -> list[str]:
    """The lines of the file's code blocks and its code spans."""
    text = path.read_text(encoding="utf-8")
    lines = [line for block in CODE_BLOCK.findall(text) for line in block.splitlines()]
    prose = CODE_BLOCK.sub("", text)
    return lines + CODE_SPAN.findall(prose)


def _invocations() -> list[tuple[str, str, list[str]]]:
    """(file, command, its arguments) of every command line in the documents."""
    found = []
    for path in [README, *DOCS]:
        for code in _code(path):
            for command, rest in INVOCATION.findall(code):
                try:
                    args = shlex.split(rest)
                except ValueError:
                    args = rest.split()
                found.append((path.name, command, args))
    return found


@functools.cache
def _help(command: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "bot", command, "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=True,
    )
    return done.stdout


def test_the_documents_name_only_commands_and_options_that_exist() -> None:
    calls = _invocations()
    assert {command for _, command, _ in calls} >= {"run", "play", "judge", "arrange"}
    for where, command, args in calls:
        assert command in COMMANDS, f"{where}: thirteen {command}"
        options = {a.strip("[]").split("=")[0] for a in args if a.strip("[]").startswith("--")}
        for option in options:
            assert re.search(rf"(?<![\w-]){re.escape(option)}\b", _help(command)), (
                f"{where}: thirteen {command} {option} is not an option of that command"
            )


def test_readmes_arrange_example_runs_as_written() -> None:
    (line,) = [c for c in _code(README) if c.startswith("echo ") and "| thirteen arrange" in c]
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    done = subprocess.run(
        ["sh", "-c", line], capture_output=True, text=True, cwd=ROOT, env=env, timeout=300
    )
    assert done.returncode == 0, done.stderr
    (answer,) = [json.loads(out) for out in done.stdout.splitlines()]
    assert answer["ok"] and answer["special"] is None and len(answer["suggestions"]) == 3


def _readme_paragraph(start: str) -> str:
    text = README.read_text(encoding="utf-8")
    at = text.index(start)
    return text[at : text.index("\n\n", at)]


def test_readme_lists_every_group_command_of_both_bots() -> None:
    chat = _readme_paragraph("In a group chat:")
    telegram, _, discord_part = chat.partition("Discord")
    listed = set(re.findall(r"`/(\w+)", telegram))
    assert listed == set(GROUP_COMMANDS), listed ^ set(GROUP_COMMANDS)
    (subcommands,) = re.findall(r"`/thirteen ([\w|]+)`", discord_part)
    catalog: dict[str, str] = {}
    for part in sorted((ROOT / "bot/i18n/locales/en").glob("*.json")):
        catalog.update(json.loads(part.read_text("utf-8")))
    names = {
        value
        for key, value in catalog.items()
        if re.fullmatch(r"dc\.cmd\.\w+\.name", key) and key != "dc.cmd.thirteen.name"
    }
    assert set(subcommands.split("|")) == names, set(subcommands.split("|")) ^ names


def _settings() -> set[str]:
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    return set(re.findall(r"^([A-Z][A-Z0-9_]+)=", text, re.M))


@pytest.mark.parametrize("doc", [p.name for p in DOCS])
def test_configuration_examples_name_real_settings(doc: str) -> None:
    known = _settings()
    text = (ROOT / "docs" / doc).read_text(encoding="utf-8")
    for block in CODE_BLOCK.findall(text):
        for line in block.splitlines():
            line = line.strip().removeprefix("Environment=")
            for name in re.findall(r"(?:^|\s{2,})([A-Z][A-Z0-9_]{2,})=", line):
                assert name in known, f"docs/{doc}: {name} is not a setting of .env.example"


def _flag(name: str) -> str:
    """discord.py's name of a permission as Discord's settings show it."""
    return name.strip().lower().replace(" ", "_").replace("view_channels", "view_channel")


def test_discords_permission_integer_is_the_permissions_it_lists() -> None:
    text = (ROOT / "docs" / "discord.md").read_text(encoding="utf-8")
    (stated,) = set(re.findall(r"Permission integer for exactly these: `(\d+)`", text))
    # the sum written out: "View Channels 1024 + Send Messages 2048 + …"
    terms = {_flag(n): int(v) for n, v in re.findall(r"([A-Z][A-Za-z ]+?) (\d+)(?= \+|`\))", text)}
    for name, value in terms.items():
        assert getattr(discord.Permissions, name).flag == value, name
    assert sum(terms.values()) == int(stated)
    assert "attach_files" in terms  # the showdown's and the settlement's pictures
    bullets = {_flag(n) for n in re.findall(r"^   - ([A-Z][\w ]+?)(?: \(|$)", text, re.M)}
    assert bullets and bullets <= set(terms), bullets - set(terms)
    links = re.findall(r"permissions=(\d+)", text)
    assert links and set(links) == {stated}
