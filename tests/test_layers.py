"""Arrows one way: the table uses the views, the views use ``bot.core``,
and ``bot.rules`` uses nothing of the bot above it. Every import in the
package's source (also one inside a function) is read from its syntax tree."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

BOT = Path(__file__).resolve().parent.parent / "bot"

# package -> packages of the bot it must never import
FORBIDDEN = {
    "rules": (
        "bot.core",
        "bot.views",
        "bot.table",
        "bot.platforms",
        "bot.pictures",
        "bot.solver",
        "bot.cli",
        "bot.config",
        "storage",
    ),
    "core": (
        "bot.views",
        "bot.table",
        "bot.platforms",
        "bot.pictures",
        "bot.solver",
        "bot.cli",
        "storage",
    ),
    "views": ("bot.table", "bot.platforms", "bot.solver", "bot.cli", "storage"),
}


def imports_of(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
    return found


def crossing(package: str) -> list[str]:
    bad = []
    for path in sorted((BOT / package).rglob("*.py")):
        for line, module in imports_of(path):
            if any(module == f or module.startswith(f + ".") for f in FORBIDDEN[package]):
                bad.append(f"{path.relative_to(BOT.parent)}:{line} imports {module}")
    return bad


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_no_import_points_up(package: str) -> None:
    assert crossing(package) == []


def test_the_check_sees_an_upward_import(tmp_path: Path) -> None:
    """The scanner itself finds a lazy import inside a function."""
    source = tmp_path.joinpath("upward").with_suffix(".py")
    source.write_text("def f():\n    from bot.table import hand\n    import bot.views.i18n\n")
    assert [m for _, m in imports_of(source)] == ["bot.table", "bot.views.i18n"]


def _local_graph(package: Path, dotted: str) -> dict[str, set[str]]:
    """Module -> modules of the same package it imports (relative or absolute)."""
    graph: dict[str, set[str]] = {}
    for path in package.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        edges: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                if node.level == 1 and node.module:
                    edges.add(node.module.split(".")[0])
                elif node.level == 0 and (node.module or "").startswith(dotted + "."):
                    edges.add((node.module or "")[len(dotted) + 1 :].split(".")[0])
        graph[path.stem] = edges - {path.stem}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


@pytest.mark.parametrize("platform", ["discord", "telegram"])
def test_platform_modules_import_in_one_direction(platform: str) -> None:
    """No import circle among a platform's modules (type-only imports count)."""
    graph = _local_graph(BOT / "platforms" / platform, f"bot.platforms.{platform}")
    graph.pop("__init__", None)
    assert _cycle(graph) is None


def test_the_cycle_check_sees_a_circle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None
