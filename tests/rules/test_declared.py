"""Every room option is declared once, in ``bot/rules/room_options.py``
(issue 30): a second list of options anywhere in the bot, or an option name
read that is not declared, fails here. The code is read from its syntax
tree: the option names it reads are the string keys of a room's or a
round's rules and of the options shown, the names handed to
``option_name`` / ``option_value`` / ``make_rules``, the names an option's
parser compares against, and the catalog keys ``optname.*``."""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import pytest

from bot.i18n import catalog
from bot.rules.options import Rules
from bot.rules.room_options import (
    ALIASES,
    DECLARED,
    OPTIONS,
    RULE_NAMES,
    Preset,
    ReadBy,
)

BOT = Path(__file__).resolve().parents[2] / "bot"
HOME = BOT / "rules" / "room_options.py"
LANGUAGES = ("zh-Hans", "zh-Hant", "en")

# A ``Rules`` as stored also holds the table size next to its options.
RULE_FIELDS = frozenset(f.name for f in dataclasses.fields(Rules))
KNOWN = frozenset(OPTIONS) | RULE_FIELDS

# The stored JSON keys of a room's options, which are mostly option names
# (the storage format's list of its keys, not a list of options).
STORED_KEYS = {("bot/core/room.py", "_OPTION_KEYS")}

# What holds options by name: a room's overrides, a round's stored rules,
# the options as shown (``bot.core.options.summary``).
HOLDERS = re.compile(r"(^|\.)(rules|overrides|shown|options)$|^summary\(.*\)$")
READS = ("get", "set", "unset", "pop")
NAME_ARGS = {"option_name": 1, "option_value": 1}
OPTION_MODULES = (
    "bot.rules.options",
    "bot.rules.room_options",
    "bot.core.options",
    "bot.table.options",
)


def _text(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _call_reads(node: ast.Call) -> list[tuple[int, str]]:
    """The option names a call reads: ``rules.get("x")``, ``option_value(lang,
    "x", v)``, ``make_rules(preset, n, {"x": v})``."""
    found: list[tuple[int, str]] = []
    func, args = node.func, node.args
    if (
        isinstance(func, ast.Attribute)
        and func.attr in READS
        and args
        and HOLDERS.search(ast.unparse(func.value))
        and (key := _text(args[0]))
    ):
        found.append((node.lineno, key))
    called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
    at = NAME_ARGS.get(called)
    if at is not None and len(args) > at and (key := _text(args[at])):
        found.append((node.lineno, key))
    if called == "make_rules":
        given = [*args[2:3], *(k.value for k in node.keywords if k.arg == "options")]
        for d in given:
            if isinstance(d, ast.Dict):
                found += [(node.lineno, k) for k in map(_text, d.keys) if k]
    return found


def option_reads(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, name) of each option name the code reads. A module that
    works with options (imports one of the modules of options) compares a
    ``name`` or ``option`` with option names."""
    parses = any(
        isinstance(n, ast.ImportFrom) and n.module in OPTION_MODULES for n in ast.walk(tree)
    )
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if (text := _text(node)) and text.startswith("optname."):
            found.append((node.lineno, text.removeprefix("optname.")))
        elif isinstance(node, ast.Subscript) and HOLDERS.search(ast.unparse(node.value)):
            if key := _text(node.slice):
                found.append((node.lineno, key))
        elif isinstance(node, ast.Call):
            found += _call_reads(node)
        elif (
            parses
            and isinstance(node, ast.Compare)
            and isinstance(node.left, ast.Name)
            and node.left.id in ("name", "option")
        ):
            found += [(node.lineno, k) for k in map(_text, node.comparators) if k]
    return found


def second_lists(tree: ast.AST) -> list[tuple[int, str, list[str]]]:
    """(line, assigned name, names) of each literal collection of which
    three or more and at least half the strings are option names (or their
    aliases): a second list of options."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assign | ast.AnnAssign):
            continue
        target = node.targets[0] if isinstance(node, ast.Assign) else node.target
        label = ast.unparse(target)
        for inner in ast.walk(node.value) if node.value else ():
            if isinstance(inner, ast.Dict):
                items = [*inner.keys, *inner.values]
            elif isinstance(inner, ast.Tuple | ast.List | ast.Set):
                items = list(inner.elts)
            else:
                continue
            texts = [_text(i) for i in items if i is not None]
            names = {k for k in texts if k in OPTIONS or k in ALIASES}
            if len(names) >= 3 and 2 * len(names) >= len(texts):
                found.append((inner.lineno, label, sorted(names)))
    return found


def _sources() -> list[Path]:
    return [p for p in sorted(BOT.rglob("*.py")) if p != HOME]


def _where(path: Path) -> str:
    return str(path.relative_to(BOT.parent))


def test_every_option_is_declared_once() -> None:
    names = [o.name for o in DECLARED]
    assert len(names) == len(set(names))
    aliases = [a for o in DECLARED for a in o.aliases]
    assert len(aliases) == len(set(aliases)) and not set(aliases) & set(names)
    typed = [o.typed for o in DECLARED if o.owner_sets and o.panel is not None]
    assert len(typed) == len(set(typed))
    assert all(ALIASES.get(t, t) == o.name for o, t in zip(DECLARED, typed, strict=False))


def test_rules_has_a_field_for_every_option_the_settlement_reads() -> None:
    fields = [f for f in dataclasses.fields(Rules) if f.name not in ("preset", "players")]
    assert sorted(f.name for f in fields) == sorted(RULE_NAMES)
    classic = Rules()
    for f in fields:  # the classic preset's defaults, as declared
        assert getattr(classic, f.name) == OPTIONS[f.name].default_in(Preset.CLASSIC), f.name


def test_no_second_list_of_options() -> None:
    found = []
    for path in _sources():
        for line, label, names in second_lists(ast.parse(path.read_text(encoding="utf-8"))):
            if (_where(path), label) not in STORED_KEYS:
                found.append(f"{_where(path)}:{line} {label} lists {names}")
    assert found == [], "derive it from bot.rules.room_options.DECLARED"


def test_no_option_read_that_is_not_declared() -> None:
    found = []
    seen = set()
    for path in _sources():
        for line, name in option_reads(ast.parse(path.read_text(encoding="utf-8"))):
            seen.add(name)
            if name not in KNOWN:
                found.append(f"{_where(path)}:{line} reads option {name!r}")
    assert found == []
    # The scan reads what the bot reads: the rules' and the table's options.
    assert {"wild_rank", "added_suit", "preset", "language"} <= seen


def test_the_checks_see_an_undeclared_read_and_a_second_list() -> None:
    tree = ast.parse(
        "from bot.table.options import apply_option\n"
        "def f(room, lang, name):\n"
        "    room.options.rules.get('no_colour')\n"
        "    summary(room)['no_suit_colour']\n"
        "    option_value(lang, 'no_colours', 1)\n"
        "    make_rules('classic', 4, {'no_scoop_triple': True})\n"
        "    t(lang, 'optname.no_dragons')\n"
        "    if name == 'no_half_scoop': pass\n"
        "BOOLS = ('scoop_double', 'banker', 'escape')\n"
    )
    reads = {name for _, name in option_reads(tree)} - KNOWN
    assert reads == {
        "no_colour",
        "no_suit_colour",
        "no_colours",
        "no_scoop_triple",
        "no_dragons",
        "no_half_scoop",
    }
    assert [(label, names) for _, label, names in second_lists(tree)] == [
        ("BOOLS", ["banker", "escape", "scoop_double"])
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_catalogs_name_every_declared_option(lang: str) -> None:
    words = catalog(lang)
    for o in DECLARED:
        if o.owner_sets:
            assert o.label in words, (lang, o.label)
        if o.words:
            for value in o.values:
                assert o.words.format(value=value) in words, (lang, o.name, value)
    # and no name of an option that is not declared
    assert {k.removeprefix("optname.") for k in words if k.startswith("optname.")} <= set(OPTIONS)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_summary_lines_show_the_declared_options(lang: str) -> None:
    words = catalog(lang)
    lines = [words[f"table.options{n}"] for n in (1, 2, 3)]
    placeholders = {m for line in lines for m in re.findall(r"{(\w+)}", line)}
    assert placeholders == {o.shown_as for o in DECLARED if o.shown_as}


def test_who_reads_an_option_decides_where_it_is_kept() -> None:
    for o in DECLARED:
        assert (o.kept is None) == (o.reader is ReadBy.SETTLEMENT), o.name
