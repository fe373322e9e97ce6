"""Message catalogs (one per language of ``languages.py``) and the lookup function.

Every user-facing string lives in ``locales/<language>/<area>.json``
(``table.json``, ``telegram.json``, ``discord.json``, …): flat objects of
``"key": "text with {placeholders}"``. All files of a language are merged;
a key missing in a language falls back to ``languages.FALLBACKS``. A catalog test
checks that every language has every key with the same placeholders.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from .languages import DEFAULT_LANGUAGE, FALLBACKS, LANGUAGES, normalize_language

__all__ = ["DEFAULT_LANGUAGE", "LANGUAGES", "catalog", "normalize_language", "t"]

_LOCALES = Path(__file__).with_name("locales")


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
    for source in (lang, *FALLBACKS):
        text = catalog(source).get(key)
        if text is not None:
            return text.format(**params) if params else text
    raise KeyError(f"no catalog text for {key!r}")
