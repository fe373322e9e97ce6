"""The table the cards lie on: green felt, title bar, labels, PNG bytes."""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image, ImageDraw

from .fonts import Color, draw_text, fitting_size, text_width

FELT = (24, 106, 66)
FELT_EDGE = (11, 62, 38)
INK = (245, 245, 240)  # text on felt
SOFT = (190, 222, 200)  # secondary text on felt
GOLD = (240, 190, 60)
GOLD_INK = (60, 40, 0)
WIN = (76, 217, 100)
LOSS = (255, 112, 102)
BAND = (0, 0, 0, 38)  # translucent dark band behind rows
MARGIN = 24


@lru_cache(maxsize=32)
def _felt(width: int, height: int) -> Image.Image:
    """Felt lit from the middle: a radial gradient, drawn small and scaled up
    (smooth, and cheap to compress)."""
    small = Image.new("RGB", (48, 48), FELT_EDGE)
    d = ImageDraw.Draw(small)
    for i in range(24, 0, -1):
        k = i / 24
        color = tuple(
            round(e + (f - e) * (1 - k) ** 0.7) for f, e in zip(FELT, FELT_EDGE, strict=True)
        )
        d.ellipse((24 - 34 * k, 24 - 34 * k, 24 + 34 * k, 24 + 34 * k), fill=color)
    return small.resize((width, height), Image.Resampling.BICUBIC)


def felt(width: int, height: int) -> Image.Image:
    """A fresh RGB canvas of felt."""
    return _felt(width, height).copy()


def overlay(
    image: Image.Image,
    box: tuple[float, float, float, float],
    fill: Color,
    radius: float,
    outline: Color | None = None,
    width: int = 0,
) -> None:
    """A rounded rectangle blended onto an RGB canvas (fill may be translucent)."""
    x0, y0, x1, y1 = (round(v) for v in box)
    layer = Image.new("RGBA", (x1 - x0 + 1, y1 - y0 + 1), (0, 0, 0, 0))
    ImageDraw.Draw(layer).rounded_rectangle(
        (0, 0, x1 - x0, y1 - y0), radius=radius, fill=fill, outline=outline, width=width
    )
    image.paste(layer, (x0, y0), layer)


def pill_width(text: str, size: int, bold: bool = True, pad: float = 0.6) -> float:
    """The width :func:`pill` gives ``text``."""
    return text_width(text, size, bold) + size * 2 * pad


def pill(
    image: Image.Image,
    center: tuple[float, float],
    text: str,
    size: int,
    *,
    fill: Color,
    ink: Color,
    bold: bool = True,
    max_width: float | None = None,
    pad: float = 0.6,
) -> tuple[float, float]:
    """A label in a rounded box centred on ``center``; returns its size. Text
    wider than ``max_width`` is drawn smaller (down to three quarters of
    ``size``: "three of a kind" under a head), and only then cut short."""
    text_size = size
    if max_width is not None:
        text_size = fitting_size(text, size, max_width, bold, smallest=round(size * 0.75))
    w = text_width(text, text_size, bold)
    if max_width is not None:
        w = min(w, max_width)
    bw, bh = w + size * 2 * pad, size * 1.55
    cx, cy = center
    overlay(image, (cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2), fill, bh / 2)
    draw_text(image, (cx, cy), text, text_size, ink, bold=bold, align="center", max_width=max_width)
    return bw, bh


def title_bar(image: Image.Image, title: str, right: str = "") -> int:
    """The heading band across the top; returns its height."""
    height = 58
    overlay(image, (0, 0, image.width - 1, height), (0, 0, 0, 70), 0)
    draw_text(image, (MARGIN, height / 2), title, 26, INK, bold=True, max_width=image.width * 0.62)
    if right:
        draw_text(
            image,
            (image.width - MARGIN, height / 2),
            right,
            19,
            SOFT,
            align="right",
            max_width=image.width * 0.36,
        )
    return height


def signed(points: int) -> str:
    """+3, −2 (a real minus sign), 0."""
    return f"+{points}" if points > 0 else f"−{-points}" if points < 0 else "0"


def score_color(points: int) -> Color:
    return WIN if points > 0 else LOSS if points < 0 else SOFT


def to_png(image: Image.Image) -> bytes:
    """PNG bytes. Level 3 keeps the encode fast; the felt gradient and the
    flat card faces compress well even so."""
    buf = io.BytesIO()
    image.save(buf, "PNG", compress_level=3)
    return buf.getvalue()
