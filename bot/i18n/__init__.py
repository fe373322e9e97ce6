"""Message catalogs (zh-Hans, zh-Hant, en) and the lookup function.

Every user-facing string lives in ``locales/<language>/<area>.json``
(``table.json``, ``telegram.json``, ``discord.json``, …): flat objects of
``"key": "text with {placeholders}"``. All files of a language are merged;
a key missing in a language falls back to zh-Hans, then en. A catalog test
checks that every language has every key with the same placeholders.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

LANGUAGES: tuple[str, ...] = ("zh-Hans", "zh-Hant", "en")
DEFAULT_LANGUAGE = "zh-Hans"
_LOCALES = Path(__file__).with_name("locales")
_ALIASES = {
    "zh": "zh-Hans",
    "zh-cn": "zh-Hans",
    "zh-sg": "zh-Hans",
    "zh-hans": "zh-Hans",
    "zh-tw": "zh-Hant",
    "zh-hk": "zh-Hant",
    "zh-mo": "zh-Hant",
    "zh-hant": "zh-Hant",
    "en": "en",
}


def normalize_language(code: str | None) -> str:
    """Map a client language code (``zh-TW``, ``en-US``, ``zh_CN``) to a catalog."""
    if not code:
        return DEFAULT_LANGUAGE
    c = code.replace("_", "-").lower()
    if c in _ALIASES:
        return _ALIASES[c]
    if c.startswith("en"):
        return "en"
    if c.startswith("zh"):
        return "zh-Hant" if any(x in c for x in ("tw", "hk", "mo", "hant")) else "zh-Hans"
    return DEFAULT_LANGUAGE


@cache
def catalog(language: str) -> dict[str, str]:
    merged: dict[str, str] = {}
    folder = _LOCALES / language
    if folder.is_dir():
        for path in sorted(folder.glob("*.json")):
            merged.update(json.loads(path.read_text(encoding="utf-8")))
    return merged


def t(language: str | None, key: str, /, **params: object) -> str:
    """The text for ``key`` in ``language``, with ``{placeholders}`` filled."""
    lang = language if language in LANGUAGES else normalize_language(language)
    for source in (lang, DEFAULT_LANGUAGE, "en"):
        text = catalog(source).get(key)
        if text is not None:
            return text.format(**params) if params else text
    raise KeyError(f"no catalog text for {key!r}")
