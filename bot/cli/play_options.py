"""``thirteen play``'s arguments: the argparse parser, with each number
checked against its range, and the checks of the room options given with
``-o NAME=VALUE``.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from bot.cli import add_language, command_parser
from bot.config import MAX_ARRANGE_SECONDS, MIN_ARRANGE_SECONDS, check_database_url
from bot.i18n import normalize_language, t
from bot.i18n.languages import is_language
from bot.rules.options import OptionError
from bot.table import match
from bot.table.options import RULE_OPTIONS, TABLE_OPTIONS, parse_assignment
from bot.views.render_common import option_reason

MAX_MATCH = match.MAX_ROUNDS  # --rounds: a match (局数) with its 大结算
OPTION_NAMES = (*RULE_OPTIONS, *TABLE_OPTIONS)


def _bounded(kind: type[int] | type[float], low: float, high: float, what: str) -> Any:
    """An argparse type: a number from ``low`` to ``high``."""

    def convert(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what}, not {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{what}, not {text!r}")
        return value

    return convert


def _database(text: str) -> str:
    try:
        return check_database_url(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def parser() -> argparse.ArgumentParser:
    p = command_parser(
        "thirteen play", "Thirteen Water in the terminal against AI seats (no token needed)."
    )
    p.add_argument(
        "--players",
        type=_bounded(int, 2, 5, "a whole number from 2 to 5"),
        default=4,
        help="seats at the table, 2-5, you included (default 4)",
    )
    p.add_argument(
        "--preset",
        default="classic",
        choices=["classic", "extended"],
        help="the rules the table plays: classic or extended (default classic)",
    )
    p.add_argument("--jokers", type=int, choices=[0, 1, 2], default=None, help="0, 1 or 2")
    add_language(p, "words at the table")
    p.add_argument("--seed", type=int, default=None, help="reproducible deals (not secret!)")
    p.add_argument(
        "--ai",
        default="normal",
        choices=["easy", "normal", "strong"],
        help="the AI seats' strength (default normal)",
    )
    p.add_argument(
        "--time",
        type=_bounded(
            int,
            MIN_ARRANGE_SECONDS,
            MAX_ARRANGE_SECONDS,
            f"a whole number of seconds from {MIN_ARRANGE_SECONDS} to {MAX_ARRANGE_SECONDS}",
        ),
        default=120,
        help=f"arranging seconds ({MIN_ARRANGE_SECONDS}-{MAX_ARRANGE_SECONDS}, default 120)",
    )
    p.add_argument(
        "--step",
        type=_bounded(float, 0, 60, "a number of seconds from 0 to 60"),
        default=1.5,
        help="seconds between showdown steps (0-60, default 1.5)",
    )
    p.add_argument(
        "--option",
        "-o",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a room option, as often as needed (-o jokers=1 -o wheel=low); the names: "
        + ", ".join(OPTION_NAMES),
    )
    p.add_argument(
        "--auto",
        action="store_true",
        help="AI seats only: print each showdown (and with --rounds, the final results)",
    )
    p.add_argument(
        "--rounds",
        type=_bounded(int, 1, MAX_MATCH, f"a whole number from 1 to {MAX_MATCH}"),
        default=None,
        help=f"play a match of N rounds (1-{MAX_MATCH}): a review after each round, the final "
        "results after the last (default: round after round until you quit; with --auto, "
        "one round)",
    )
    p.add_argument("--db", type=_database, default=None, help="database URL (default: in memory)")
    return p


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    return parser().parse_args(list(argv))


def option_problem(lang: str, option: str) -> str | None:
    """Why ``-o option`` cannot be set (naming the options there are); None
    when its name is known (its value is the table's to judge)."""
    try:
        parse_assignment(option)
    except OptionError as e:
        if e.key == "unknown_option":
            return t(
                lang,
                "cli.unknown_option",
                name=str(e.params.get("name", option))[:24],
                names=", ".join(OPTION_NAMES),
            )
        return t(lang, "err.option", reason=option_reason(lang, e))
    return None


def _language_of(args: argparse.Namespace) -> None:
    """``-o language=X`` is ``--language X``: the console speaks it too."""
    for o in args.option:
        try:
            name, value = parse_assignment(o)
        except OptionError:
            continue
        if name == "language" and is_language(value):
            args.language = normalize_language(value)
