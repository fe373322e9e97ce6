"""The ``thirteen`` commands (``bot/__main__.py`` dispatches to them).

Every command parses its arguments with :func:`command_parser`, so each has
``--help`` and ``--version`` and refuses an unknown argument with exit
status 2.
"""

from __future__ import annotations

import argparse
from importlib.metadata import PackageNotFoundError, version

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
