"""Rebuild the font subsets shipped in ``bot/pictures/fonts`` (run by hand).

Sources, both SIL Open Font License 1.1, from Debian's packages
(``apt-get download fonts-noto-cjk fonts-noto-color-emoji`` and
``dpkg-deb -x``): ``NotoSansCJK-{Regular,Bold}.ttc`` (face 2, "Noto Sans CJK
SC") and ``NotoColorEmoji.ttf``. Needs ``pip install fonttools``.

    python tools/subset_fonts.py /path/to/extracted/usr/share/fonts

What is kept (the pictures test checks every catalog string against it):
in both weights ASCII, Latin-1 and Latin Extended-A, Greek, Cyrillic,
general punctuation, arrows, mathematical operators (the minus sign of a
negative score) and shapes, suit symbols, CJK punctuation,
kana, fullwidth forms and every character of every catalog; in the regular
weight (which draws players' names) also the 15,431 Han characters of
GB 2312 (levels 1 and 2, 6,763) and Big5 (levels 1 and 2, 13,051) — the
characters people write their names with in zh-Hans and zh-Hant. Bold text
with a character the bold subset lacks falls back to the regular weight
for that character. The emoji font keeps
every single-code-point emoji, its bitmaps scaled to 40 % (ppem 44) and
reduced to 64 colours: a name's emoji are drawn a few tens of pixels high.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bot" / "pictures" / "fonts"
EMOJI_SCALE = 0.4
RANGES = [
    (0x20, 0x7E),
    (0xA0, 0x17F),
    (0x370, 0x3FF),
    (0x400, 0x4FF),
    (0x2000, 0x206F),
    (0x2190, 0x21FF),
    (0x2200, 0x22FF),  # mathematical operators: the pictures write a negative score with − (U+2212)
    (0x25A0, 0x25FF),
    (0x2600, 0x26FF),
    (0x3000, 0x30FF),
    (0xFF00, 0xFFEF),
]


def han(encoding: str, rows: tuple[int, int], first_trail: int) -> set[str]:
    """The Han characters of a double-byte charset, rows ``rows`` inclusive."""
    out = set()
    for lead in range(rows[0], rows[1] + 1):
        for trail in range(first_trail, 0xFF):
            try:
                ch = bytes([lead, trail]).decode(encoding)
            except UnicodeDecodeError:
                continue
            if len(ch) == 1 and 0x4E00 <= ord(ch) <= 0x9FFF:
                out.add(ch)
    return out


def text_chars(with_han: bool) -> str:
    """The regular weight draws names: every Han character of GB 2312 and
    Big5 (levels 1 and 2). The bold weight draws the game's own words:
    the catalogs' characters and the non-Han ranges."""
    chars = set()
    if with_han:
        chars = han("gb2312", (0xB0, 0xF7), 0xA1) | han("big5", (0xA4, 0xF9), 0x40)
    for lo, hi in RANGES:
        chars |= {chr(c) for c in range(lo, hi + 1)}
    for path in (ROOT / "bot" / "i18n" / "locales").glob("*/*.json"):
        for text in json.loads(path.read_text(encoding="utf-8")).values():
            chars |= set(text)
    return "".join(sorted(chars))


def subset_text(src: Path, weight: str) -> None:
    options = subset.Options()
    options.font_number = 2  # Noto Sans CJK SC
    options.layout_features = []
    options.hinting = False
    options.name_IDs = ["*"]
    font = subset.load_font(str(src), options)
    sub = subset.Subsetter(options)
    sub.populate(text=text_chars(with_han=weight == "Regular"))
    sub.subset(font)
    subset.save_font(font, str(OUT / f"NotoSansSC-{weight}.subset.otf"), options)


def subset_emoji(src: Path) -> None:
    cmap = TTFont(str(src)).getBestCmap()
    options = subset.Options()
    options.layout_features = []
    font = subset.load_font(str(src), options)
    sub = subset.Subsetter(options)
    sub.populate(unicodes=[c for c in cmap if c > 0xFF])
    sub.subset(font)
    _scale_bitmaps(font, EMOJI_SCALE)
    font.save(str(OUT / "NotoColorEmoji.subset.ttf"))


def _scale_bitmaps(font: TTFont, k: float) -> None:
    """Shrink every CBDT bitmap and its metrics by ``k`` (one strike)."""
    size = font["CBLC"].strikes[0].bitmapSizeTable
    size.ppemX = size.ppemY = round(size.ppemX * k)
    for line in (size.hori, size.vert):
        line.ascender, line.descender = round(line.ascender * k), round(line.descender * k)
        line.widthMax = round(line.widthMax * k)
    for glyph in font["CBDT"].strikeData[0].values():
        image = Image.open(io.BytesIO(glyph.imageData)).convert("RGBA")
        w, h = max(1, round(image.width * k)), max(1, round(image.height * k))
        image = image.resize((w, h), Image.Resampling.LANCZOS)
        image = image.quantize(colors=64, method=Image.Quantize.FASTOCTREE)
        buf = io.BytesIO()
        image.save(buf, "PNG", optimize=True)
        glyph.imageData = buf.getvalue()
        m = glyph.metrics
        m.height, m.width = h, w
        m.BearingX, m.BearingY = round(m.BearingX * k), round(m.BearingY * k)
        m.Advance = round(m.Advance * k)


def ranges(codepoints: set[int]) -> list[list[int]]:
    out: list[list[int]] = []
    for cp in sorted(codepoints):
        if out and out[-1][1] == cp - 1:
            out[-1][1] = cp
        else:
            out.append([cp, cp])
    return out


def write_coverage() -> None:
    """The fonts' cmaps as ranges: the renderer reads this instead of the fonts."""
    cover = {
        key: ranges(set(TTFont(str(OUT / name)).getBestCmap()))
        for key, name in (
            ("regular", "NotoSansSC-Regular.subset.otf"),
            ("bold", "NotoSansSC-Bold.subset.otf"),
            ("emoji", "NotoColorEmoji.subset.ttf"),
        )
    }
    (OUT / "coverage.json").write_text(json.dumps(cover, separators=(",", ":")) + "\n")


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__)
        return 2
    fonts = Path(argv[0])
    for weight in ("Regular", "Bold"):
        subset_text(fonts / "opentype" / "noto" / f"NotoSansCJK-{weight}.ttc", weight)
    subset_emoji(fonts / "truetype" / "noto" / "NotoColorEmoji.ttf")
    write_coverage()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
