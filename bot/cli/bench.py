"""``thirteen bench [name] [args…]``: run a benchmark script of ``bench/``.

The scripts live in the source tree (not the installed package), so run this
from a checkout: ``thirteen bench rules_bench --n 100000``. Without a name, list them.
"""

from __future__ import annotations

import argparse
import ast
import runpy
import sys
from collections.abc import Sequence
from pathlib import Path

from . import command_parser

BENCH_DIR = Path.cwd() / "bench"
_NO_CHECKOUT = (
    "benchmarks run from a source checkout of the repository (they are not "
    "installed with the package): cd into the checkout and run this again "
    "(there is no {} here)"
)


def summary(path: Path, room: int = 60) -> str:
    """What a benchmark measures: its docstring's first sentence, cut to
    ``room`` characters."""
    try:
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    except (OSError, SyntaxError, ValueError):
        doc = ""
    text = " ".join(doc.split("\n\n")[0].replace("``", "").split())
    text = text.split(". ")[0].rstrip(".")
    return text if len(text) <= room else text[: room - 1].rsplit(" ", 1)[0].rstrip(",:;") + "…"


def listing(scripts: Sequence[str]) -> str:
    """The benchmarks, one a line with what each measures."""
    wide = max(map(len, scripts))
    lines = [f"  {name:<{wide}}  {summary(BENCH_DIR / f'{name}.py')}".rstrip() for name in scripts]
    return "benchmarks (thirteen bench NAME [its own arguments]):\n" + "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    scripts = sorted(p.stem for p in BENCH_DIR.glob("*.py") if not p.stem.startswith("_"))
    parser = command_parser(
        "thirteen bench",
        (__doc__ or "").replace("``", ""),
        "benchmarks here: " + (", ".join(scripts) or "none (run from a source checkout)"),
    )
    parser.add_argument("name", nargs="?", help="the benchmark to run; without it, list them")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="the benchmark's own arguments")
    ns = parser.parse_args(list(argv or []))
    if ns.name is None:
        print(listing(scripts) if scripts else _NO_CHECKOUT.format(BENCH_DIR))
        return 0
    name, rest = ns.name, ns.args
    path = next(
        (p for p in (BENCH_DIR / f"{name}.py", BENCH_DIR / f"{name}_bench.py") if p.exists()), None
    )
    if path is None:
        if scripts:
            print(
                f"thirteen bench: no benchmark {name!r}; the benchmarks: {', '.join(scripts)}",
                file=sys.stderr,
            )
        else:
            print(f"thirteen bench: {_NO_CHECKOUT.format(BENCH_DIR)}", file=sys.stderr)
        return 2
    sys.argv = [str(path), *rest]
    sys.path.insert(0, str(BENCH_DIR.parent))
    runpy.run_path(str(path), run_name="__main__")
    return 0
