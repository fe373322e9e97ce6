"""Every language is listed once: in bot/i18n/languages.py. A language code
(``zh-Hant``, ``en``, a prefix ``zh``, a Discord locale ``en-GB``) written
as a string anywhere else in bot/ — Python's string constants (docstrings
and f-strings too) and the page's JavaScript and HTML — fails here; the
catalogs (bot/i18n/locales) may name languages in their words.

``python -m tests.test_languages [root]`` prints the findings of a tree
(``root`` holding ``bot/``), to count them before and after a change."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

from bot.i18n import languages
from bot.i18n.languages import (
    BY_CODE,
    DEFAULT_LANGUAGE,
    LANGUAGES,
    REGISTRY,
    is_language,
    normalize_language,
)

ROOT = Path(__file__).resolve().parent.parent
REGISTRY_FILE = Path("bot/i18n/languages.py")
CATALOGS = Path("bot/i18n/locales")
VENDOR = Path("bot/web/static/files/vendor")


def codes() -> set[str]:
    """What names a language: codes, prefixes, Discord locales."""
    found = set(LANGUAGES)
    for language in REGISTRY:
        found |= {language.prefix, *language.discord_locales}
    return found


def _pattern(words: set[str]) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    # A code as a word: not inside "often" or "zh-Hans-ish", any case.
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])", re.IGNORECASE)


def strings_of(path: Path) -> list[tuple[int, str]]:
    """(line, text) of each string literal of a Python, JavaScript or HTML file."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        return [
            (node.lineno, node.value)
            for node in ast.walk(ast.parse(text))
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
        ]
    quoted = re.compile(r"\"((?:[^\"\\\n]|\\.)*)\"|'((?:[^'\\\n]|\\.)*)'|`([^`]*)`")
    return [
        (text.count("\n", 0, m.start()) + 1, next(g for g in m.groups() if g is not None))
        for m in quoted.finditer(text)
    ]


def offenders(root: Path = ROOT) -> list[str]:
    """``path:line: 'text'`` of each string outside the registry and the
    catalogs that names a language."""
    pattern = _pattern(codes())
    found = []
    for path in sorted((root / "bot").rglob("*")):
        relative = path.relative_to(root)
        if path.suffix not in (".py", ".js", ".html") or relative == REGISTRY_FILE:
            continue
        if relative.is_relative_to(CATALOGS) or relative.is_relative_to(VENDOR):
            continue
        for line, text in sorted(strings_of(path)):
            if pattern.search(text):
                found.append(f"{relative}:{line}: {text[:60]!r}")
    return found


def test_no_language_code_is_written_outside_the_registry() -> None:
    bad = offenders()
    assert bad == [], "name languages through bot/i18n/languages.py:\n" + "\n".join(bad)


def test_the_scan_sees_a_code_in_each_form(tmp_path: Path) -> None:
    (tmp_path / "bot" / "i18n" / "locales" / "en").mkdir(parents=True)
    (tmp_path / "bot" / "web").mkdir()
    (tmp_path / "bot" / "config.py").write_text(
        'A = "zh-Hant"\nB = x.startswith(("en", "zh"))\nC = f"{a}: zh-Hans or en"\n'
        'D = "often zhen en-route"\n',
        encoding="utf-8",
    )
    (tmp_path / "bot" / "web" / "app.js").write_text(
        "var L = ['en-GB'];\nvar ok = \"men\";\n", encoding="utf-8"
    )
    (tmp_path / "bot" / "i18n" / "locales" / "en" / "t.json").write_text('{"k": "zh-Hans"}')
    (tmp_path / "bot" / "i18n" / "languages.py").write_text('X = "zh-Hans"\n', encoding="utf-8")
    assert offenders(tmp_path) == [
        "bot/config.py:1: 'zh-Hant'",
        "bot/config.py:2: 'en'",
        "bot/config.py:2: 'zh'",
        "bot/config.py:3: ': zh-Hans or en'",
        "bot/web/app.js:1: 'en-GB'",
    ]


def test_each_language_is_listed_once_with_a_catalog() -> None:
    assert len(set(LANGUAGES)) == len(REGISTRY)
    assert DEFAULT_LANGUAGE in BY_CODE
    assert all(code in BY_CODE for code in languages.FALLBACKS)
    assert languages.COMMAND_LANGUAGE in BY_CODE
    for language in REGISTRY:
        assert (ROOT / CATALOGS / language.code).is_dir(), language.code
        assert normalize_language(language.code) == language.code
        assert is_language(language.code)
    # A prefix has exactly one language without markers: the rest of its codes.
    prefixes = {language.prefix for language in REGISTRY}
    for prefix in prefixes:
        plain = [x for x in REGISTRY if x.prefix == prefix and not x.markers]
        assert len(plain) == 1, prefix
    locales = [locale for language in REGISTRY for locale in language.discord_locales]
    assert len(locales) == len(set(locales))


@pytest.mark.parametrize(
    ("client", "language"),
    [
        (None, "zh-Hans"),
        ("", "zh-Hans"),
        ("zh", "zh-Hans"),
        ("zh-CN", "zh-Hans"),
        ("zh_SG", "zh-Hans"),
        ("zh-hans", "zh-Hans"),
        ("zh-Hans-TW", "zh-Hant"),
        ("zh-TW", "zh-Hant"),
        ("zh_HK", "zh-Hant"),
        ("zh-mo", "zh-Hant"),
        ("zh-Hant", "zh-Hant"),
        ("en", "en"),
        ("en-US", "en"),
        ("EN_gb", "en"),
        ("fr-FR", "zh-Hans"),
        ("ko", "zh-Hans"),
    ],
)
def test_a_clients_code_is_read_as_before(client: str | None, language: str) -> None:
    assert normalize_language(client) == language
    assert is_language(client or "") == ((client or "x")[:2].lower() in ("zh", "en"))


if __name__ == "__main__":
    found = offenders(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT)
    print("\n".join(found))
    print(len(found), "language code literals outside the registry and the catalogs")
