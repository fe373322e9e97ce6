"""Every language has every key, with the same placeholders."""

from __future__ import annotations

import json
import string
from pathlib import Path

import pytest

from bot.i18n import LANGUAGES

LOCALES = Path(__file__).resolve().parents[2] / "bot" / "i18n" / "locales"
AREAS = sorted({p.name for lang in LANGUAGES for p in (LOCALES / lang).glob("*.json")})


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("area", AREAS)
def test_every_language_has_every_key_with_the_same_placeholders(area):
    catalogs = {}
    for lang in LANGUAGES:
        path = LOCALES / lang / area
        assert path.is_file(), f"{lang} lacks {area}"
        catalogs[lang] = json.loads(path.read_text(encoding="utf-8"))
    keys = set().union(*catalogs.values())
    for lang, cat in catalogs.items():
        assert not keys - set(cat), f"{lang}/{area} lacks {sorted(keys - set(cat))}"
    for key in keys:
        shapes = {lang: placeholders(cat[key]) for lang, cat in catalogs.items()}
        assert len({frozenset(s) for s in shapes.values()}) == 1, (area, key, shapes)


def test_table_catalog_is_not_empty_and_translated():
    cats = {
        lang: json.loads((LOCALES / lang / "table.json").read_text(encoding="utf-8"))
        for lang in LANGUAGES
    }
    assert len(cats["en"]) > 150
    # the Chinese catalogs are translations, not copies of the English one
    same = [
        k
        for k in cats["en"]
        if cats["en"][k] == cats["zh-Hans"][k] and any(c.isalpha() for c in cats["en"][k])
    ]
    assert len(same) < 10, same
    differ = [k for k in cats["zh-Hans"] if cats["zh-Hans"][k] != cats["zh-Hant"][k]]
    assert len(differ) > 50
