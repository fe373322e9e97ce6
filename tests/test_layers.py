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
    # the card pictures are drawn from the typed room and the catalogs
    "pictures": ("bot.views", "bot.table", "bot.platforms", "bot.web", "bot.cli", "storage"),
    "solver": (
        "bot.core",
        "bot.views",
        "bot.table",
        "bot.platforms",
        "bot.pictures",
        "bot.web",
        "bot.delivery",
        "bot.i18n",
        "bot.cli",
        "bot.config",
        "storage",
    ),
    "delivery": ("bot.table", "bot.platforms", "bot.web", "bot.solver", "bot.cli", "bot.config"),
    "table": ("bot.platforms", "bot.web", "bot.pictures", "bot.cli"),
    # the arranging page's server: the table's client, as a platform is
    "web": ("bot.platforms", "bot.delivery", "bot.pictures", "bot.solver", "bot.cli", "storage"),
    "platforms": ("bot.cli", "bot.solver", "bot.rules"),
    # the message catalogs: read by views, pictures, platforms and the page
    "i18n": (
        "bot.rules",
        "bot.core",
        "bot.views",
        "bot.table",
        "bot.platforms",
        "bot.pictures",
        "bot.solver",
        "bot.web",
        "bot.delivery",
        "bot.cli",
        "bot.config",
        "storage",
    ),
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
    source.write_text("def f():\n    from bot.table import hand\n    import bot.i18n\n")
    assert [m for _, m in imports_of(source)] == ["bot.table", "bot.i18n"]


ROOT = BOT.parent


def _dotted(path: Path) -> str:
    """``bot/table/round.py`` -> ``bot.table.round``; a package's __init__ -> the package."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(path: Path, package: str) -> set[str]:
    """Every module ``path`` (a module of ``package``) imports, absolute,
    with each name of a ``from X import a, b`` also taken as a possible
    module ``X.a``."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - (node.level - 1)])
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


INIT = "__init__"


def _local_graph(package: Path, dotted: str | None = None) -> dict[str, set[str]]:
    """Module -> modules of the same package it imports (relative or absolute,
    at the top, inside a function or only for type checking). A subpackage
    is one node, with the imports of all its modules. The package's own
    ``__init__`` is a node too: a name imported from the package that is not
    one of its modules (``from pkg import Y``) is an edge to it, since it
    must have been defined there by then; a module imported from it is not."""
    dotted = dotted or _dotted(package / "__init__.py")
    members: dict[str, list[Path]] = {INIT: [package / "__init__.py"]}
    for path in sorted(package.iterdir()):
        if path.suffix == ".py" and path.name != "__init__.py":
            members[path.stem] = [path]
        elif path.is_dir() and (path / "__init__.py").exists():
            members[path.name] = sorted(path.rglob("*.py"))
    graph: dict[str, set[str]] = {}
    for name, paths in members.items():
        edges = set()
        for path in paths:
            inside = path.parent.relative_to(package).parts
            for module in _imported(path, ".".join((dotted, *inside))):
                if module.startswith(dotted + "."):
                    head = module[len(dotted) + 1 :].split(".")[0]
                    edges.add(head if head in members else INIT)
        graph[name] = (edges & members.keys()) - {name}
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


def test_storage_knows_nothing_of_the_bot() -> None:
    """The repository stores what the table gives it; it imports no bot code."""
    bad = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in sorted(STORAGE.rglob("*.py"))
        for line, module in imports_of(path)
        if module == "bot" or module.startswith("bot.")
    ]
    assert bad == []


PLATFORMS = sorted(p.parent.name for p in (BOT / "platforms").glob("*/__init__.py"))


def test_every_platform_is_served_and_declares_its_traits() -> None:
    """Each package under bot/platforms has its entry in ``ENTRIES`` (so
    ``thirteen run`` can serve it), under the name its traits declare."""
    from bot.core.traits import declared
    from bot.platforms.registry import ENTRIES

    assert PLATFORMS and sorted(entry.name for entry in ENTRIES) == PLATFORMS
    assert set(PLATFORMS) <= set(declared())


@pytest.mark.parametrize("platform", PLATFORMS)
def test_platform_modules_import_in_one_direction(platform: str) -> None:
    """No import circle among a platform's modules (type-only imports count)."""
    graph = _local_graph(BOT / "platforms" / platform, f"bot.platforms.{platform}")
    graph.pop("__init__", None)
    assert _cycle(graph) is None


STORAGE = ROOT / "storage"
PACKAGES = sorted(path.parent for top in (BOT, STORAGE) for path in top.rglob("__init__.py"))


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: _dotted(p / "__init__.py"))
def test_no_import_circle_inside_a_package(package: Path) -> None:
    """No circle among the modules (and subpackages) of any package, with
    type-only and function-level imports counted."""
    assert _cycle(_local_graph(package)) is None


def test_the_graph_reads_every_kind_of_import(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    # (module names built, not written out: no file of ours has these names)
    (package / "a").with_suffix(".py").write_text("from . import b\n")
    (package / "b").with_suffix(".py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .c import X\n"
    )
    (package / "c").with_suffix(".py").write_text("def f():\n    import pkg.a\n")
    graph = _local_graph(package, "pkg")
    assert graph == {"__init__": set(), "a": {"b"}, "b": {"c"}, "c": {"a"}}
    assert _cycle(graph) == ["a", "b", "c", "a"]


def test_the_graph_sees_a_circle_through_the_package_s_init(tmp_path: Path) -> None:
    """``__init__`` imports b, b imports a, and a takes a name ``__init__``
    defines after that import: ``import pkg`` fails, and the check says so.
    A module taken from the package (``from pkg import c``) is no such edge."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("from . import b\nY = 1\n")
    (package / "a").with_suffix(".py").write_text("from pkg import Y\n")
    (package / "b").with_suffix(".py").write_text("from . import a\n")
    graph = _local_graph(package, "pkg")
    assert graph == {"__init__": {"b"}, "a": {"__init__"}, "b": {"a"}}
    assert _cycle(graph) == ["__init__", "b", "a", "__init__"]
    (package / "c").with_suffix(".py").write_text("")
    (package / "a").with_suffix(".py").write_text("from pkg import c\n")
    graph = _local_graph(package, "pkg")
    assert graph["a"] == {"c"} and _cycle(graph) is None


def test_the_cycle_check_sees_a_circle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


# The neutral layers name no platform: what a platform can do is asked of
# its declared traits (bot/core/traits.py), never tested by its name.
NEUTRAL = ("core", "table", "views")
PLATFORM_NAMES = ("telegram", "discord")


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the module's, classes' and functions' docstring nodes
    (prose may say which platform a rule came from)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def platform_names_in(path: Path) -> list[str]:
    """Each place in ``path``'s code (imports, names, attributes, string
    literals; not comments or docstrings) that names a platform."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    prose = _docstrings(tree)
    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
    bad = []
    for node in ast.walk(tree):
        words: list[str] = []
        if isinstance(node, ast.Import):
            words = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            words = [node.module or "", *(alias.name for alias in node.names)]
        elif isinstance(node, ast.Name):
            words = [node.id]
        elif isinstance(node, ast.Attribute):
            words = [node.attr]
        elif isinstance(node, ast.arg):
            words = [node.arg]
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            words = [node.name]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            words = [] if id(node) in prose else [node.value]
        for word in words:
            if any(name in word.lower() for name in PLATFORM_NAMES):
                bad.append(f"{where}:{getattr(node, 'lineno', 0)} {word!r}")
    return bad


@pytest.mark.parametrize("package", NEUTRAL)
def test_neutral_layers_name_no_platform(package: str) -> None:
    assert [
        bad for p in sorted((BOT / package).rglob("*.py")) for bad in platform_names_in(p)
    ] == []


def test_the_check_sees_a_platform_named(tmp_path: Path) -> None:
    """A name, an attribute, a string and an import are seen; the
    docstring and the comment are not."""
    source = tmp_path.joinpath("leaky").with_suffix(".py")
    source.write_text(
        '"""Discord has timestamps."""\n'
        "# Telegram: no timestamps\n"
        "import telegram\n"
        "def f(room):\n"
        '    """On Telegram."""\n'
        "    if room.platform == 'discord':\n"
        "        return room.discord_id + TELEGRAM_LIMIT\n"
    )
    found = [line.split(" ", 1)[1] for line in platform_names_in(source)]
    assert sorted(found) == sorted(["'telegram'", "'discord'", "'discord_id'", "'TELEGRAM_LIMIT'"])
