"""No test module is a fixture library: what several test modules share
(fakes, drivers, example data) lives in a support module whose name does
not start with ``test_`` (tests/README.md says which), and no module under
tests/ or bench/ imports a ``test_*`` module. Every import is read from the
syntax tree, also one inside a function and a relative one."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _is_test_module(dotted: str) -> bool:
    """A ``test_*`` module of ours (not, say, aiohttp.test_utils)."""
    ours = dotted.startswith((".", "tests.", "bench."))
    return ours and dotted.rsplit(".", 1)[-1].startswith("test_")


def imports_of_tests(path: Path) -> list[tuple[int, str]]:
    """(line, module) of each import in ``path`` of a module named ``test_*``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if _is_test_module(a.name)]
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            if node.module and _is_test_module(module):
                found.append((node.lineno, module))
            else:  # from tests.telegram import test_runner / from . import test_runner
                dot = "" if module.endswith(".") else "."
                found += [
                    (node.lineno, f"{module}{dot}{a.name}")
                    for a in node.names
                    if _is_test_module(f"{module}{dot}{a.name}")
                ]
    return found


def offenders() -> list[str]:
    """``path imports module`` of each import of a test module."""
    bad = []
    for folder in ("tests", "bench"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for _line, module in imports_of_tests(path):
                bad.append(f"{path.relative_to(ROOT)} imports {module}")
    return bad


def test_no_test_module_imports_another() -> None:
    bad = offenders()
    assert bad == [], "move what is shared to a support module (tests/README.md): " + str(bad)


def test_the_check_sees_every_form_of_import(tmp_path: Path) -> None:
    source = tmp_path / "user.py"
    source.write_text(
        "import tests.rules.test_cards\n"
        "from tests.delivery.test_engine import Script\n"
        "from .test_e2e_game import USERS\n"
        "from tests.telegram import test_runner\n"
        "def f():\n"
        "    from . import test_judge_cli\n"
        "from tests.telegram.play import deal\n"
        "from tests.rules import examples\n"
        "from aiohttp.test_utils import TestServer\n"
    )
    assert [m for _, m in imports_of_tests(source)] == [
        "tests.rules.test_cards",
        "tests.delivery.test_engine",
        ".test_e2e_game",
        "tests.telegram.test_runner",
        ".test_judge_cli",
    ]
