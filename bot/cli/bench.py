"""``thirteen bench [name] [args…]``: run a benchmark script of ``bench/``.

The scripts live in the source tree (not the installed package), so run this
from a checkout: ``thirteen bench rules_bench --n 100000``. Without a name, list them.
"""

from __future__ import annotations

import runpy
import sys
from collections.abc import Sequence
from pathlib import Path

BENCH_DIR = Path.cwd() / "bench"


def main(argv: Sequence[str] | None = None) -> int:
    args = list(argv or [])
    scripts = sorted(p.stem for p in BENCH_DIR.glob("*.py") if not p.stem.startswith("_"))
    if not args or args[0] in ("-h", "--help"):
        print("benchmarks:", ", ".join(scripts) or f"none found in {BENCH_DIR}")
        return 0
    name, rest = args[0], args[1:]
    path = next(
        (p for p in (BENCH_DIR / f"{name}.py", BENCH_DIR / f"{name}_bench.py") if p.exists()), None
    )
    if path is None:
        print(f"no benchmark {name!r}; have: {', '.join(scripts)}", file=sys.stderr)
        return 2
    sys.argv = [str(path), *rest]
    sys.path.insert(0, str(BENCH_DIR.parent))
    runpy.run_path(str(path), run_name="__main__")
    return 0
