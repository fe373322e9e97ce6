"""Text in pictures: the shipped fonts, emoji, and characters no font has.

Fonts ship in ``fonts/`` (SIL OFL 1.1, see ``fonts/README.md``): subsets of
Noto Sans CJK SC — the regular weight with Latin, Greek, Cyrillic, kana and
the 15,431 Han characters of GB 2312 and Big5 (names), the bold weight with
the game's own words (every catalog character) — and a subset of Noto Color
Emoji (every single-code-point emoji, small bitmaps).

Text is cut into clusters: an emoji with its modifiers (skin tone, variation
selector, zero-width-joiner sequence, keycap) is drawn as its first emoji in
colour — a family sequence shows its first person, a skin tone falls back to
the default yellow; anything neither font has is drawn as a dotted circle
``◌`` in a muted colour (never a tofu box). Layout is Pillow's basic layout
(no shaping engine needed at run time).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from enum import Enum
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path(__file__).with_name("fonts")
REGULAR = FONT_DIR / "NotoSansSC-Regular.subset.otf"
BOLD = FONT_DIR / "NotoSansSC-Bold.subset.otf"
EMOJI = FONT_DIR / "NotoColorEmoji.subset.ttf"
# The fonts' cmaps as code-point ranges, written by tools/subset_fonts.py
# (a test checks it against the font files), so no font parser is needed here.
COVERAGE = FONT_DIR / "coverage.json"
EMOJI_PPEM = 44  # the one bitmap strike of the emoji subset
PLACEHOLDER = "◌"
MUTED = (150, 150, 150)
Color = tuple[int, int, int] | tuple[int, int, int, int]

_ZWJ = "\u200d"
_JOINERS = {"\ufe0e", "\ufe0f", "\u20e3"}  # variation selectors, keycap


def _is_modifier(ch: str) -> bool:
    cp = ord(ch)
    return 0x1F3FB <= cp <= 0x1F3FF or 0xE0020 <= cp <= 0xE007F


class RunKind(Enum):
    TEXT = "text"
    EMOJI = "emoji"
    MISSING = "missing"


@dataclass(frozen=True, slots=True)
class Run:
    """Consecutive clusters drawn the same way; an EMOJI run is one emoji.
    ``bold`` is the weight a TEXT run is drawn with."""

    kind: RunKind
    text: str
    bold: bool = False


@cache
def _coverage(which: str) -> frozenset[int]:
    ranges = json.loads(COVERAGE.read_text(encoding="utf-8"))[which]
    return frozenset(cp for lo, hi in ranges for cp in range(lo, hi + 1))


def text_codepoints() -> frozenset[int]:
    """Code points the regular weight draws (a superset of the bold one's)."""
    return _coverage("regular")


def bold_codepoints() -> frozenset[int]:
    return _coverage("bold")


def emoji_codepoints() -> frozenset[int]:
    return _coverage("emoji")


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(
        str(BOLD if bold else REGULAR), size, layout_engine=ImageFont.Layout.BASIC
    )


@cache
def _emoji_font() -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(EMOJI), EMOJI_PPEM, layout_engine=ImageFont.Layout.BASIC)


def _clusters(text: str) -> list[str]:
    """User-perceived characters, as far as emoji need: a base with its
    variation selectors, skin tones, tags, keycap and ZWJ-joined parts, and
    regional-indicator pairs (flags)."""
    out: list[str] = []
    i = 0
    while i < len(text):
        j = i + 1
        if (
            0x1F1E6 <= ord(text[i]) <= 0x1F1FF
            and j < len(text)
            and 0x1F1E6 <= ord(text[j]) <= 0x1F1FF
        ):
            j += 1
        while j < len(text):
            ch = text[j]
            if ch in _JOINERS or _is_modifier(ch):
                j += 1
            elif ch == _ZWJ:
                j += 2 if j + 1 < len(text) else 1
            else:
                break
        out.append(text[i:j])
        i = j
    return out


def _stray(cluster: str) -> bool:
    """A joiner or modifier with nothing to join or modify: drawn as nothing."""
    return cluster[0] in (_ZWJ, *_JOINERS) or _is_modifier(cluster[0])


def _kind(cluster: str) -> RunKind:
    base = ord(cluster[0])
    in_text = base in text_codepoints()
    in_emoji = base in emoji_codepoints()
    wants_emoji = len(cluster) > 1 and cluster[1] != "\ufe0e"
    if in_emoji and (wants_emoji or not in_text):
        return RunKind.EMOJI
    if in_text:
        return RunKind.TEXT
    return RunKind.MISSING


def _invisible(cp: int) -> bool:
    """Control and format characters that must not reach a picture: C0/C1
    controls, zero-width space / non-joiner, direction marks and overrides,
    the byte-order mark. (The zero-width joiner stays: it glues emoji.)"""
    return (
        cp < 0x20
        or 0x7F <= cp < 0xA0
        or cp in (0x200B, 0x200C, 0x200E, 0x200F, 0xFEFF)
        or 0x202A <= cp <= 0x202E
        or 0x2066 <= cp <= 0x2069
    )


def clean(text: str) -> str:
    """Whitespace runs become one space; invisible characters go."""
    kept = (" " if ch.isspace() else ch for ch in text if ch.isspace() or not _invisible(ord(ch)))
    return " ".join("".join(kept).split())


@lru_cache(maxsize=2048)
def runs(text: str, bold: bool = False) -> tuple[Run, ...]:
    """How ``text`` is drawn: text runs, one run per emoji, placeholders.
    Bold text falls back to the regular weight for a character the bold
    subset lacks (it keeps the game's words, not every Han character)."""
    out: list[Run] = []
    for cluster in _clusters(clean(text)):
        if _stray(cluster):
            continue
        kind = _kind(cluster)
        if kind is RunKind.EMOJI:
            out.append(Run(kind, cluster[0]))
            if 0x1F1E6 <= ord(cluster[0]) <= 0x1F1FF and len(cluster) > 1:
                out.append(Run(kind, cluster[1]))  # a flag: its two letters
            continue
        piece = PLACEHOLDER if kind is RunKind.MISSING else cluster[0]
        weight = bold and ord(piece) in bold_codepoints()
        if out and out[-1].kind is kind and out[-1].bold == weight:
            out[-1] = Run(kind, out[-1].text + piece, weight)
        else:
            out.append(Run(kind, piece, weight))
    return tuple(out)


def missing_glyphs(text: str) -> list[str]:
    """Characters of ``text`` that no shipped font has (drawn as the placeholder)."""
    return [c for c in _clusters(clean(text)) if not _stray(c) and _kind(c) is RunKind.MISSING]


@lru_cache(maxsize=512)
def _emoji_image(ch: str, size: int) -> Image.Image:
    """One emoji as a ``size``-high RGBA image."""
    f = _emoji_font()
    box = f.getbbox(ch)
    w, h = max(1, int(box[2] - box[0])), max(1, int(box[3] - box[1]))
    tile = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(tile).text((-box[0], -box[1]), ch, font=f, embedded_color=True)
    scale = size / EMOJI_PPEM
    return tile.resize(
        (max(1, round(w * scale)), max(1, round(h * scale))), Image.Resampling.LANCZOS
    )


def _emoji_size(size: int) -> int:
    return round(size * 1.05)


def _run_width(run: Run, size: int) -> float:
    if run.kind is RunKind.EMOJI:
        return _emoji_image(run.text, _emoji_size(size)).width + size * 0.12
    return font(size, run.bold).getlength(run.text)


def text_width(text: str, size: int, bold: bool = False) -> float:
    return sum(_run_width(r, size) for r in runs(text, bold))


def fitting_size(
    text: str, size: int, max_width: float, bold: bool = False, smallest: int = 0
) -> int:
    """The largest font size from ``size`` down to ``smallest`` at which
    ``text`` fits ``max_width`` pixels (``smallest`` when none does)."""
    while size > smallest and text_width(text, size, bold) > max_width:
        size -= 1
    return max(size, smallest)


# Chinese line breaking: these never begin a line (the character before them
# moves down with them).
NO_LINE_START = frozenset("，。、；：？！）」』》〉”’,.;:?!)]}…")


def wrap(text: str, size: int, max_width: float, bold: bool = False) -> list[str]:
    """``text`` in lines of at most ``max_width`` pixels: broken at spaces,
    or between any two characters where a word is wider than a line (Chinese
    has no spaces), never before closing punctuation. Only a character wider
    than a line overflows it."""
    lines: list[str] = []
    line: list[str] = []  # clusters

    def fits(extra: list[str]) -> bool:
        return text_width("".join(line + extra).rstrip(), size, bold) <= max_width

    def flush() -> None:
        if "".join(line).strip():
            lines.append("".join(line).rstrip())
        line.clear()

    for word in re.findall(r"\S+\s*", clean(text)):
        clusters = _clusters(word)
        if fits(clusters):
            line += clusters
            continue
        if (
            line
            and " " in "".join(line[-1:])
            and text_width(word.rstrip(), size, bold) <= max_width
        ):
            flush()  # the word fits a line of its own: break at the space
            line += clusters
            continue
        for cluster in clusters:
            if line and not fits([cluster]):
                carry = [line.pop()] if cluster in NO_LINE_START and len(line) > 1 else []
                flush()
                line += carry
            line.append(cluster)
    flush()
    return lines


def ellipsize(text: str, size: int, max_width: float, bold: bool = False) -> str:
    """``text`` cut with "…" so that it fits ``max_width`` pixels."""
    text = clean(text)
    if text_width(text, size, bold) <= max_width:
        return text
    clusters = _clusters(text)
    while clusters and text_width("".join(clusters) + "…", size, bold) > max_width:
        clusters.pop()
    return "".join(clusters).rstrip() + "…"


def draw_text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: Color,
    *,
    bold: bool = False,
    align: str = "left",
    max_width: float | None = None,
) -> float:
    """Draw one line with its vertical middle at ``xy[1]``; ``align`` says
    whether ``xy[0]`` is the left end, the centre or the right end. Returns
    the width drawn."""
    if max_width is not None:
        text = ellipsize(text, size, max_width, bold)
    width = text_width(text, size, bold)
    x = xy[0] - (width / 2 if align == "center" else width if align == "right" else 0)
    ascent, descent = font(size).getmetrics()
    baseline = xy[1] + (ascent - descent) / 2
    draw = ImageDraw.Draw(image)
    for run in runs(text, bold):
        if run.kind is RunKind.EMOJI:
            tile = _emoji_image(run.text, _emoji_size(size))
            top = round(xy[1] - tile.height / 2)
            image.paste(tile, (round(x + size * 0.06), top), tile)
        else:
            color = MUTED if run.kind is RunKind.MISSING else fill
            draw.text((x, baseline), run.text, font=font(size, run.bold), fill=color, anchor="ls")
        x += _run_width(run, size)
    return width
