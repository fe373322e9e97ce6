"""Command line: ``thirteen <command>`` (= ``python -m bot <command>``).

Each command has its own ``--help``; ``thirteen --version`` prints the version.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from bot.cli import command_parser

COMMANDS = {
    "run": ("bot.cli.run", "start the chat bots whose tokens are set (Telegram, Discord)"),
    "play": ("bot.cli.play", "play in the terminal against AI seats (no token needed)"),
    "judge": ("bot.cli.judge", "settle rounds: JSON Lines in, JSON Lines out (docs/judge.md)"),
    "arrange": (
        "bot.cli.arrange",
        "suggest arrangements: JSON Lines in, JSON Lines out (docs/judge.md)",
    ),
    "bench": ("bot.cli.bench", "run a benchmark of bench/ (from a source checkout)"),
    "picture": ("bot.cli.picture", "draw a judged round (one judge line in) as a PNG: --out FILE"),
}


def parser() -> argparse.ArgumentParser:
    p = command_parser(
        "thirteen",
        "Thirteen Water (十三水) for Telegram and Discord group chats, and in the terminal.",
        "commands:\n"
        + "\n".join(f"  {name:<9} {help_}" for name, (_, help_) in COMMANDS.items())
        + "\n\n`thirteen <command> --help` shows a command's options.",
    )
    p.add_argument("command", choices=list(COMMANDS), metavar="command", help="see below")
    p.add_argument("args", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] == "help":
        parser().print_help()
        return 0 if args else 2
    ns = parser().parse_args(args)  # --help, --version, an unknown command: exits here
    module = importlib.import_module(COMMANDS[ns.command][0])
    return int(module.main(ns.args) or 0)


if __name__ == "__main__":
    sys.exit(main())
