"""Glyph coverage: every catalog string in every language, Chinese and
emoji names; characters no font has become a placeholder, never tofu."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from fontTools.ttLib import TTFont
from PIL import Image, ImageChops, ImageDraw

from bot.i18n import LANGUAGES, catalog
from bot.pictures import fonts

NAMES = [
    "张伟",
    "王秀英",
    "李娜",
    "刘洋",
    "陈静",
    "杨帆",
    "赵丽颖",
    "黄晓明",
    "周杰伦",
    "吴亦凡",
    "欧阳娜娜",
    "司马懿",
    "诸葛亮",
    "上官婉儿",
    "龙",
    "阿强",
    "老王",
    "小燕子",
    "陳家豪",
    "林志玲",
    "黃嘉欣",
    "鄧麗君",
    "張學友",
    "劉德華",
    "郭富城",
    "謝霆鋒",
    "蕭敬騰",
    "歐陽靖",
    "羅志祥",
    "蔡依林",
    "許瑋甯",
    "鄭秀文",
    "關之琳",
    "鍾楚紅",
    "Alice",
    "Zoë",
    "José",
    "Ñandú",
    "Дмитрий",
    "さくら",
    "カズ",
]
EMOJI_NAMES = [
    "小明🐟",
    "🀄雀神",
    "阿花🌸🌸",
    "Bob 👍🏻",
    "👨‍👩‍👧 一家",
    "❤️小美",
    "🇨🇳 老李",
    "🔥🔥🔥",
    "1️⃣号",
    "🃏王",
]


@pytest.fixture(scope="module")
def cmaps() -> tuple[set[int], set[int]]:
    text = set(TTFont(str(fonts.REGULAR)).getBestCmap())
    emoji = set(TTFont(str(fonts.EMOJI)).getBestCmap())
    return text, emoji


def test_the_coverage_table_is_the_fonts_cmaps(cmaps):
    text, emoji = cmaps
    assert fonts.text_codepoints() == text
    assert fonts.bold_codepoints() == set(TTFont(str(fonts.BOLD)).getBestCmap())
    assert fonts.bold_codepoints() <= text
    assert fonts.emoji_codepoints() == emoji
    assert ord(fonts.PLACEHOLDER) in text


def drawable(ch: str, cmaps) -> bool:
    text, emoji = cmaps
    cp = ord(ch)
    return cp in text or cp in emoji or ch in "\u200d\ufe0e\ufe0f\u20e3" or 0x1F3FB <= cp <= 0x1F3FF


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_catalog_string_has_every_glyph(lang, cmaps):
    texts = catalog(lang)
    assert len(texts) > 100
    for key, text in texts.items():
        assert fonts.missing_glyphs(text) == [], (lang, key)
        assert all(drawable(ch, cmaps) for ch in fonts.clean(text)), (lang, key)
        # The game's words are drawn bold: the bold weight has all of them.
        assert all(r.bold for r in fonts.runs(text, bold=True) if r.kind is fonts.RunKind.TEXT), (
            lang,
            key,
        )


def test_chinese_and_emoji_names_have_every_glyph(cmaps):
    for name in NAMES + EMOJI_NAMES:
        assert fonts.missing_glyphs(name) == [], name
    for name in NAMES:
        assert all(ord(ch) in cmaps[0] for ch in name), name


def ink(text: str, size: int = 40, fill=(0, 0, 0)) -> Image.Image:
    image = Image.new("RGB", (400, 80), (255, 255, 255))
    fonts.draw_text(image, (10, 40), text, size, fill)
    return image


def test_emoji_are_drawn_in_colour_and_fit_the_line():
    for name in EMOJI_NAMES:
        if not any(r.kind is fonts.RunKind.EMOJI for r in fonts.runs(name)):
            assert name == "1️⃣号"  # a keycap shows its digit
            continue
        pixels = np.asarray(ink(name)).astype(int)
        spread = pixels.max(axis=2) - pixels.min(axis=2)
        assert (spread > 80).mean() > 0.002, name  # coloured pixels, not grey boxes
        assert fonts.text_width(name, 40) < 400
    # A skin tone or a family falls back to the first emoji, drawn once.
    assert fonts.runs("👍🏻") == fonts.runs("👍")
    assert [r.text for r in fonts.runs("👨‍👩‍👧")] == ["👨"]


def test_a_character_no_font_has_is_a_placeholder_not_tofu():
    assert fonts.missing_glyphs("𠮷野家") == ["𠮷"]
    assert fonts.missing_glyphs("김") == ["김"]
    # What Pillow would draw for it (.notdef, a box) is not what we draw.
    tofu = Image.new("RGB", (400, 80), (255, 255, 255))
    ImageDraw.Draw(tofu).text((10, 40), "𠮷", font=fonts.font(40), fill=(0, 0, 0), anchor="lm")
    ours = ink("𠮷")
    assert ImageChops.difference(tofu, ours).getbbox() is not None
    assert ImageChops.difference(ours, ink(fonts.PLACEHOLDER, fill=fonts.MUTED)).getbbox() is None


def test_control_characters_never_reach_a_picture():
    assert fonts.clean("a\u202eb\nc\t\u200bd") == "ab c d"
    assert fonts.missing_glyphs("\u0000\u0007x\u200d\ufe0f") == []


def test_the_catalog_files_are_all_read():
    locales = Path(fonts.__file__).resolve().parents[1] / "i18n" / "locales"
    for lang in LANGUAGES:
        keys = set()
        for path in (locales / lang).glob("*.json"):
            keys |= set(json.loads(path.read_text(encoding="utf-8")))
        assert keys == set(catalog(lang))


def test_the_pictures_own_signs_are_in_both_weights():
    """Signs the pictures write that no catalog holds: a negative score's
    minus (U+2212), the multiplication sign of a doubling, the suits."""
    for signs in ("−12", "×2", "+4", "♠♥♦♣"):
        assert fonts.missing_glyphs(signs) == [], signs
        assert all(r.bold for r in fonts.runs(signs, bold=True) if r.kind is fonts.RunKind.TEXT), (
            signs
        )
