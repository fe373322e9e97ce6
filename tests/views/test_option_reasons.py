"""Refused options are explained in the room's language, never in raw English."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.i18n import LANGUAGES, catalog
from bot.rules.options import OptionError, make_rules
from bot.views.render_common import option_reason

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [ROOT / "bot/rules/options.py", ROOT / "bot/table/options.py"]


def raised_keys() -> set[str]:
    keys = set()
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        for call in re.findall(r"OptionError\((.*?)\)\s*(?:from None)?\n", text, flags=re.S):
            found = re.findall(r'",\s*"([a-z_]+)"', call)
            keys.update(found)
    return keys


def test_every_raised_key_is_in_every_catalog():
    keys = raised_keys()
    assert len(keys) >= 25  # the scan itself works
    for lang in LANGUAGES:
        missing = {k for k in keys if f"opterr.{k}" not in catalog(lang)}
        assert not missing, (lang, missing)


@pytest.mark.parametrize(
    ("players", "options", "zh"),
    [
        (3, {"banker": True}, "坐庄必须正好 4 人"),
        (4, {"jokers": 1, "wild_rank": "6"}, "鬼牌和百变不能同时使用"),
        (4, {"jokers": 7}, "不能是 7"),
        (5, {}, "加一色"),
    ],
)
def test_reasons_are_localized(players, options, zh):
    with pytest.raises(OptionError) as info:
        make_rules("classic", players, options)
    assert zh in option_reason("zh-Hans", info.value)
    assert option_reason("en", info.value) != option_reason("zh-Hans", info.value)
    assert option_reason("zh-Hant", info.value) != option_reason("zh-Hans", info.value)


def test_echoed_values_are_clipped():
    err = OptionError("x", "jokers", value="9" * 500)
    assert len(option_reason("en", err)) < 80
