"""Command line: ``thirteen <command>`` (= ``python -m bot <command>``).

run       start the chat bots whose tokens are set (Telegram, Discord)
play      play in the terminal against AI seats
judge     settle rounds: JSON Lines in, JSON Lines out (JUDGE.md)
arrange   suggest arrangements: JSON Lines in, JSON Lines out (JUDGE.md)
bench     run the benchmarks of bench/
picture   draw a judged round (one judge line in) as a PNG: --out FILE
"""

from __future__ import annotations

import importlib
import sys

COMMANDS = {
    "run": "bot.cli.run",
    "play": "bot.cli.play",
    "judge": "bot.cli.judge",
    "arrange": "bot.cli.arrange",
    "bench": "bot.cli.bench",
    "picture": "bot.cli.picture",
}


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help", "help"):
        print(__doc__.strip())
        return 0
    name, rest = args[0], args[1:]
    if name not in COMMANDS:
        print(f"unknown command {name!r}; try: {', '.join(COMMANDS)}", file=sys.stderr)
        return 2
    module = importlib.import_module(COMMANDS[name])
    return int(module.main(rest) or 0)


if __name__ == "__main__":
    sys.exit(main())
