"""The repository stands on its own: nothing in it points outside it.

Walks README.md, docs/ and every other text file of the repository — for
Python files every comment and every string literal (docstrings, help texts,
argparse descriptions) — plus the ``--help`` text of every command and the
package description, and fails on:

- a relative path that climbs out of the repository (``../x`` from a file
  whose directory is too shallow for it);
- an absolute filesystem path (``/home/...``, ``~/...``, ``C:\\...``);
- a file name (``*.md``, ``*.py``, ``*.toml``, …) that no file of the
  repository answers to, such as a specification kept elsewhere;
- a ``shared/`` folder, which is not part of the repository;
- a Markdown link whose target is not a file of the repository.

This module holds the forbidden examples of its own self-test, so its own
string literals are not scanned (its comments are).
"""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
import tokenize
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
THIS = Path(__file__).resolve()

TEXT_SUFFIXES = {".md", ".py", ".toml", ".json", ".txt", ".ini", ".cfg", ".mako", ".example", ""}
SKIP_DIRS = {".git", ".venv", ".ci-venv", "__pycache__", ".pytest_cache", ".ruff_cache",
             ".mypy_cache", ".hypothesis", "build", "dist"}  # fmt: skip

# Names a reader would look for in the repository: documents, code, configuration.
# (Data and asset names — round.png, line.json, a font — are often a command's
# example input or output, not a reference.)
FILE_EXTENSIONS = "md|rst|txt|py|toml|ini|cfg|mako"
# A file name, not a template's tail ("{name}_bench.py", "<area>.json", "test_*.py").
FILE_NAME = re.compile(
    rf"(?<![\w./{{}}<>*-])((?:[\w-]+/)*[\w-]+(?:\.[\w-]+)*\.(?:{FILE_EXTENSIONS}))\b"
)
# Names that look like files of ours but are not meant to be.
NOT_OUR_FILES = {
    "discord.py": "the Discord library's name",
    "alembic.ini": "named only to say there is none",
    "bench/NAME.py": "a placeholder for a benchmark's name",
    "user.py": "a scratch file tests/test_test_layout.py writes under tmp_path",
}
CLIMB = re.compile(r"(?<![\w./-])((?:\./)?(?:\.\./)+[\w./-]*)")
ABSOLUTE = re.compile(
    r"(?<![\w./:<>{}-])((?:/(?:home|Users|work|tmp|opt|usr|etc|var|root|mnt|srv|private)"
    r"|~)/[\w./-]+|[A-Za-z]:\\[\w\\.-]+)"
)
# Where docs/deploy.md's recipe installs the bot on a host (Debian's own
# layout): places the recipe makes, not files the repository relies on.
HOST_PLACES = (
    "/opt/thirteen",
    "/var/lib/thirteen",
    "/var/cache/thirteen",
    "/etc/caddy/",
    "/etc/systemd/system/",
    "/usr/sbin/nologin",
)
SHARED = re.compile(r"(?<![\w./-])shared/")
MD_LINK = re.compile(r"\]\(([^)\s]+)\)")


def repository_files() -> list[Path]:
    """Tracked and new (not ignored) files; a plain walk outside a git checkout."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        files = [ROOT / line for line in out.splitlines() if line]
    except (OSError, subprocess.CalledProcessError):
        files = [
            p
            for p in ROOT.rglob("*")
            if p.is_file() and not SKIP_DIRS & set(p.relative_to(ROOT).parts)
        ]
    return sorted(p for p in files if p.is_file() and p.suffix in TEXT_SUFFIXES)


FILES = repository_files()
# Untracked files count (a generated picture), but not a virtual environment's:
# a name found only among installed packages is no file of ours.
NAMES = {p.name for p in FILES} | {
    p.name
    for p in ROOT.rglob("*")
    if p.is_file() and not SKIP_DIRS & set(p.relative_to(ROOT).parts)
}


def python_texts(path: Path) -> Iterator[tuple[int, str]]:
    """(line, text) of every comment and string literal of a Python file."""
    with path.open("rb") as f:
        for tok in tokenize.tokenize(f.readline):
            literal = tok.type in (tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", -1))
            if tok.type == tokenize.COMMENT or (literal and path != THIS):
                yield tok.start[0], tok.string


def texts_of(path: Path) -> Iterator[tuple[int, str]]:
    if path.suffix == ".py":
        yield from python_texts(path)
        return
    for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if no == 1 and line.startswith("#!"):
            continue  # the interpreter of a script, not a reference
        yield no, line


def _exists(name: str, base: Path) -> bool:
    """A file of the repository answers to ``name``: a path from the file's
    folder or from the root, or a bare file name found anywhere in it."""
    name = name.split("#")[0]
    if not name:
        return True
    for start in (base, ROOT):
        target = (start / name).resolve()
        if target.is_relative_to(ROOT) and target.exists():
            return True
    if "/" in name:  # a path named from a folder deeper in the tree
        return not name.startswith("../") and any(p.as_posix().endswith("/" + name) for p in FILES)
    return name in NAMES


def problems(text: str, base: Path) -> list[str]:
    """What in ``text`` (found in a file in folder ``base``) leaves the repository."""
    found = []
    for m in CLIMB.finditer(text):
        target = (base / m.group(1)).resolve()
        if not target.is_relative_to(ROOT):
            found.append(f"climbs out of the repository: {m.group(1)}")
    for m in ABSOLUTE.finditer(text):
        place = m.group(1)
        if not any(place == p.rstrip("/") or place.startswith(p) for p in HOST_PLACES):
            found.append(f"absolute path: {place}")
    if SHARED.search(text):
        found.append("a shared/ folder, which is not part of the repository")
    for m in FILE_NAME.finditer(text):
        if m.group(1) not in NOT_OUR_FILES and not _exists(m.group(1), base):
            found.append(f"no such file in the repository: {m.group(1)}")
    return found


def link_problems(text: str, base: Path) -> list[str]:
    found = []
    for m in MD_LINK.finditer(text):
        target = m.group(1)
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue  # a URL, mailto: or an anchor in the same page
        if not _exists(target, base):
            found.append(f"link to a file that is not in the repository: {target}")
    return found


def test_the_walk_sees_the_documents_and_the_code() -> None:
    rel = {p.relative_to(ROOT).as_posix() for p in FILES}
    assert {"README.md", "docs/rules.md", "docs/judge.md", "docs/architecture.md"} <= rel
    assert {"bot/__main__.py", "bot/rules/lanes.py", "pyproject.toml"} <= rel


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_nothing_points_outside_the_repository(path: Path) -> None:
    bad = []
    for no, text in texts_of(path):
        for problem in problems(text, path.parent):
            bad.append(f"{path.relative_to(ROOT)}:{no}: {problem}")
        if path.suffix == ".md":
            for problem in link_problems(text, path.parent):
                bad.append(f"{path.relative_to(ROOT)}:{no}: {problem}")
    assert not bad, "\n".join(bad)


def _help_of(argv: list[str]) -> str:
    from bot.__main__ import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        main(argv)
    return out.getvalue()


def test_help_texts_and_package_description_stay_inside() -> None:
    from bot.__main__ import COMMANDS

    texts = {"thirteen --help": _help_of(["--help"])}
    for name in COMMANDS:
        texts[f"thirteen {name} --help"] = _help_of([name, "--help"])
    assert texts["thirteen --help"].strip()
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    texts["package description"] = project["description"]
    bad = [f"{where}: {p}" for where, text in texts.items() for p in problems(text, ROOT)]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize(
    "text",
    [
        "the rules are in [the spec](../shared/RULES.md)",
        "see ../../shared/JUDGE.md for the format",
        "see shared/RULES.md §4",
        "as RULES.md §5 says",
        "(JUDGE.md)",
        "from /work/shared/seeds",
        "under ~/notes/rules.txt",
        "see fonts/NOTES.md",
        r"in C:\\rules\\RULES.md",
    ],
)
def test_the_checker_catches_paths_outside(text: str) -> None:
    assert problems(text, ROOT / "docs") or link_problems(text, ROOT / "docs")


@pytest.mark.parametrize(
    "text",
    [
        "see [the rules](rules.md#4-settlement-比牌与计分) and [README](../README.md)",
        "docs/rules.md §4, bot/rules/lanes.py and BENCHMARKS.md",
        "https://t.me/<bot>?start=j<room> and /start j<room>",
        "head/middle/tail, zh-Hans/zh-Hant, on/off",
        "locales/<language>/<area>.json",
    ],
)
def test_the_checker_accepts_paths_inside(text: str) -> None:
    assert problems(text, ROOT / "docs") == []
    assert link_problems(text, ROOT / "docs") == []


def test_the_licence_is_stated_and_shipped() -> None:
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT"  # an SPDX expression
    assert project["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
