"""The ``thirteen`` commands (``bot/__main__.py`` dispatches to them).

Every command parses its arguments with :func:`command_parser`, so each has
``--help`` and ``--version`` and refuses an unknown argument with exit
status 2.
"""

from __future__ import annotations

import argparse
import sys
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.config import Settings

DISTRIBUTION = "thirteen-water-bot"


def package_version() -> str:
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "0+unknown"


def command_parser(
    prog: str, description: str, epilog: str | None = None
) -> argparse.ArgumentParser:
    """An argument parser for ``prog`` with ``--help`` and ``--version``."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description=description,
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"thirteen {package_version()}")
    return parser


def add_language(parser: argparse.ArgumentParser, words: str) -> None:
    """``--language`` / ``--lang``: the language of the command's ``words``
    ("words at the table", "words in the picture")."""
    from bot.i18n.languages import DEFAULT_LANGUAGE, LANGUAGES

    parser.add_argument(
        "--language",
        "--lang",
        dest="language",
        default=DEFAULT_LANGUAGE,
        choices=LANGUAGES,
        help=f"{words}: {', '.join(LANGUAGES)} (default {DEFAULT_LANGUAGE})",
    )


def settings_or_exit() -> Settings:
    """The validated settings; a bad one ends the command here, before
    anything is created, with one line per bad setting."""
    from bot.config import SettingsError, get_settings

    try:
        return get_settings()
    except SettingsError as e:
        for line in str(e).splitlines():
            print(f"thirteen: {line} (.env.example lists every setting)", file=sys.stderr)
        raise SystemExit(2) from None


def configure_solver(settings: Settings) -> None:
    """Hand the solver its settings (before it builds a model)."""
    from bot.solver import config

    config.configure(
        model_hands=settings.solver_model_hands,
        pool_hands=settings.solver_pool_hands,
        pool_hands_16=settings.solver_pool_hands_16,
        cache_dir=settings.solver_cache,
    )


def database_problem(url: str, error: BaseException) -> str:
    """One line saying why the database at ``url`` cannot be used (its
    password hidden), for a command that stops on it."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    cause = getattr(error.__cause__, "orig", None) or getattr(error, "orig", None) or error
    reason = str(cause).strip().splitlines()[0] if str(cause).strip() else type(cause).__name__
    reason = reason.removeprefix("database error: ")[:300]
    try:
        parsed = make_url(url)
        shown = parsed.render_as_string(hide_password=True)
    except ArgumentError:
        return f"DATABASE_URL cannot be used: {reason}"
    where = parsed.database or ""
    if parsed.get_backend_name() == "sqlite" and where and where != ":memory:":
        from pathlib import Path

        folder = Path(where).expanduser().resolve().parent
        if not folder.is_dir():
            reason += f" (the folder {folder} does not exist)"
    return f"DATABASE_URL={shown}: the database cannot be used: {reason}"
