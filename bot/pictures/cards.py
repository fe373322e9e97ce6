"""Card faces and backs, drawn by our own code (no card artwork is shipped).

A face shows the rank and suit in two corners and a large pip (a framed
letter for J, Q, K) in the middle; hearts and diamonds are red, spades and
clubs black. The big joker (大王) is the coloured one, the small joker (小王)
black and grey, as on Chinese decks. Two marks sit under the top-left index
(visible on a fanned card): a gold star for a card of the wild rank (百变) and a teal "+" for a card of
the added suit (加一色, the 65-card deck's second copy of one suit).

Everything is drawn four times larger and scaled down once, so edges and
pips are smooth at phone size; sprites are cached per size and marks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from bot.rules.cards import BIG_JOKER, Card, rank_char

from .fonts import font

SS = 4  # supersampling factor
RED = (206, 32, 41)
BLACK = (28, 28, 30)
GOLD = (232, 176, 36)
TEAL = (0, 150, 136)
FACE = (253, 252, 248)
EDGE = (176, 176, 170)
BACK = (22, 58, 120)
BACK_LINE = (70, 110, 180)
ASPECT = 1.4  # height / width, like a poker card


@dataclass(frozen=True, slots=True)
class Marks:
    """What sets a card apart under this round's rules."""

    wild_rank: int | None = None  # 百变: the rank whose cards are wild
    added_suit: str | None = None  # 加一色: the suit the 65-card deck holds twice

    def of(self, card: Card) -> tuple[bool, bool]:
        """(wild, added) for ``card``."""
        if card.is_joker:
            return False, False
        return card.rank == self.wild_rank, card.suit == self.added_suit


def is_red(card: Card) -> bool:
    return card.suit in ("h", "d") or card.rank == BIG_JOKER


def rank_label(card: Card) -> str:
    return "10" if card.rank == 10 else rank_char(card.rank)


def card_height(width: int) -> int:
    return round(width * ASPECT)


def radius(width: int) -> int:
    return max(3, round(width * 0.08))


# ---------------------------------------------------------------- pips


def _heart(
    d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill: tuple[int, int, int]
) -> None:
    r = s * 0.27
    d.ellipse((cx - 2 * r, cy - s * 0.42, cx, cy - s * 0.42 + 2 * r), fill=fill)
    d.ellipse((cx, cy - s * 0.42, cx + 2 * r, cy - s * 0.42 + 2 * r), fill=fill)
    d.polygon(
        [
            (cx - 1.93 * r, cy - s * 0.42 + 1.3 * r),
            (cx + 1.93 * r, cy - s * 0.42 + 1.3 * r),
            (cx, cy + s * 0.46),
        ],
        fill=fill,
    )


def _spade(
    d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill: tuple[int, int, int]
) -> None:
    r = s * 0.25
    top = cy - s * 0.48
    base = cy + s * 0.16
    d.polygon(
        [
            (cx, top),
            (cx - 2 * r + 0.07 * r, base - 0.2 * r),
            (cx + 2 * r - 0.07 * r, base - 0.2 * r),
        ],
        fill=fill,
    )
    d.ellipse((cx - 2 * r, base - 1.55 * r, cx, base + 0.45 * r), fill=fill)
    d.ellipse((cx, base - 1.55 * r, cx + 2 * r, base + 0.45 * r), fill=fill)
    d.polygon(
        [(cx, base - 0.4 * r), (cx - 0.75 * r, cy + s * 0.48), (cx + 0.75 * r, cy + s * 0.48)],
        fill=fill,
    )


def _diamond(
    d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill: tuple[int, int, int]
) -> None:
    w, h = s * 0.38, s * 0.5
    d.polygon([(cx, cy - h), (cx + w, cy), (cx, cy + h), (cx - w, cy)], fill=fill)


def _club(
    d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill: tuple[int, int, int]
) -> None:
    r = s * 0.21
    d.ellipse((cx - r, cy - s * 0.48, cx + r, cy - s * 0.48 + 2 * r), fill=fill)
    d.ellipse((cx - 2.05 * r, cy - 0.62 * r, cx - 0.05 * r, cy + 1.38 * r), fill=fill)
    d.ellipse((cx + 0.05 * r, cy - 0.62 * r, cx + 2.05 * r, cy + 1.38 * r), fill=fill)
    d.ellipse((cx - 0.6 * r, cy - 0.5 * r, cx + 0.6 * r, cy + 0.7 * r), fill=fill)
    d.polygon(
        [(cx, cy - 0.2 * r), (cx - 0.8 * r, cy + s * 0.48), (cx + 0.8 * r, cy + s * 0.48)],
        fill=fill,
    )


_PIPS = {"h": _heart, "s": _spade, "d": _diamond, "c": _club}


def pip(
    d: ImageDraw.ImageDraw, suit: str, cx: float, cy: float, size: float, fill: tuple[int, int, int]
) -> None:
    """A suit symbol ``size`` high centred on (cx, cy)."""
    _PIPS[suit](d, cx, cy, size, fill)


def _star(
    d: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    r: float,
    fill: tuple[int, int, int],
    outline: tuple[int, int, int] | None = None,
    width: int = 0,
) -> None:
    points = []
    for i in range(10):
        a = -math.pi / 2 + i * math.pi / 5
        rr = r if i % 2 == 0 else r * 0.45
        points.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    d.polygon(points, fill=fill, outline=outline, width=width)


# ---------------------------------------------------------------- faces


def _blank(
    w: int, h: int, fill: tuple[int, int, int], edge: tuple[int, int, int]
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle(
        (0, 0, w - 1, h - 1), radius=radius(w // SS) * SS, fill=fill, outline=edge, width=SS
    )
    return img, d


def _corner(img: Image.Image, card: Card, w: int, color: tuple[int, int, int]) -> None:
    """The index: rank over a small pip, top left and (turned) bottom right."""
    h = img.height
    tile = Image.new("RGBA", (round(w * 0.3), round(w * 0.5)), (0, 0, 0, 0))
    d = ImageDraw.Draw(tile)
    label = rank_label(card)
    size = round(w * (0.22 if label == "10" else 0.26))
    d.text((tile.width / 2, w * 0.15), label, font=font(size, bold=True), fill=color, anchor="mm")
    pip(d, card.suit, tile.width / 2, w * 0.38, w * 0.17, color)
    img.alpha_composite(tile, (round(w * 0.02), round(w * 0.03)))
    img.alpha_composite(
        tile.rotate(180), (w - tile.width - round(w * 0.02), h - tile.height - round(w * 0.03))
    )


def _court(d: ImageDraw.ImageDraw, card: Card, w: int, h: int, color: tuple[int, int, int]) -> None:
    """J, Q, K: a tinted frame with the letter and a pip."""
    tint = (252, 228, 228) if color == RED else (228, 232, 242)
    box = (w * 0.27, h * 0.2, w * 0.73, h * 0.8)
    d.rounded_rectangle(
        box, radius=w * 0.06, fill=tint, outline=color, width=max(SS, round(w * 0.015))
    )
    d.text(
        (w / 2, h * 0.42),
        rank_label(card),
        font=font(round(w * 0.34), bold=True),
        fill=color,
        anchor="mm",
    )
    pip(d, card.suit, w / 2, h * 0.64, w * 0.2, color)


def _joker(img: Image.Image, d: ImageDraw.ImageDraw, card: Card, w: int, h: int) -> None:
    big = card.rank == BIG_JOKER
    ink = RED if big else BLACK
    letters = font(round(w * 0.13), bold=True)
    tile = Image.new("RGBA", (round(w * 0.2), round(w * 0.75)), (0, 0, 0, 0))
    td = ImageDraw.Draw(tile)
    for i, ch in enumerate("JOKER"):
        td.text((tile.width / 2, w * 0.08 + i * w * 0.14), ch, font=letters, fill=ink, anchor="mm")
    img.alpha_composite(tile, (round(w * 0.03), round(w * 0.03)))
    img.alpha_composite(
        tile.rotate(180), (w - tile.width - round(w * 0.03), h - tile.height - round(w * 0.03))
    )
    cx, cy, r = w * 0.5, h * 0.5, w * 0.24
    if big:
        d.ellipse(
            (cx - r * 1.15, cy - r * 1.15, cx + r * 1.15, cy + r * 1.15), fill=(255, 236, 179)
        )
        _star(d, cx, cy, r, RED, outline=GOLD, width=round(w * 0.03))
        _star(d, cx, cy, r * 0.45, GOLD)
    else:
        d.ellipse(
            (cx - r * 1.15, cy - r * 1.15, cx + r * 1.15, cy + r * 1.15), fill=(232, 232, 232)
        )
        _star(d, cx, cy, r, (60, 60, 64), outline=(150, 150, 150), width=round(w * 0.03))
        _star(d, cx, cy, r * 0.45, (200, 200, 200))


def _marks(d: ImageDraw.ImageDraw, w: int, h: int, wild: bool, added: bool) -> None:
    """Badges under the top-left index, so they show on a fanned card too."""
    r = w * 0.1
    x = w * 0.15
    y = w * 0.64
    if wild:
        d.rounded_rectangle(
            (SS, SS, w - 1 - SS, h - 1 - SS),
            radius=radius(w // SS) * SS,
            outline=GOLD,
            width=round(w * 0.035),
        )
        d.ellipse((x - r, y - r, x + r, y + r), fill=(255, 248, 225), outline=GOLD, width=SS)
        _star(d, x, y, r * 0.8, GOLD)
        y += 2.3 * r
    if added:
        d.ellipse((x - r, y - r, x + r, y + r), fill=TEAL)
        t = r * 0.55
        d.line((x - t, y, x + t, y), fill="white", width=round(w * 0.03))
        d.line((x, y - t, x, y + t), fill="white", width=round(w * 0.03))


@lru_cache(maxsize=1024)
def face(card: Card, width: int, wild: bool = False, added: bool = False) -> Image.Image:
    """The face of ``card``, ``width`` pixels wide (RGBA, rounded corners)."""
    w, h = width * SS, card_height(width) * SS
    img, d = _blank(w, h, FACE, EDGE)
    if card.is_joker:
        _joker(img, d, card, w, h)
    else:
        color = RED if is_red(card) else BLACK
        _corner(img, card, w, color)
        d = ImageDraw.Draw(img)
        if card.rank in (11, 12, 13):
            _court(d, card, w, h, color)
        else:
            pip(d, card.suit, w / 2, h / 2, w * (0.5 if card.rank == 14 else 0.42), color)
        _marks(d, w, h, wild, added)
    return img.resize((width, card_height(width)), Image.Resampling.LANCZOS)


@lru_cache(maxsize=16)
def back(width: int) -> Image.Image:
    """A face-down card: a blue lattice inside a white border."""
    w, h = width * SS, card_height(width) * SS
    img, d = _blank(w, h, (250, 250, 250), EDGE)
    inset = round(w * 0.07)
    d.rounded_rectangle(
        (inset, inset, w - inset, h - inset), radius=radius(width) * SS // 2, fill=BACK
    )
    step = w * 0.2
    k: float = -h
    while k < w + h:
        d.line((inset + k, inset, inset + k + h, inset + h), fill=BACK_LINE, width=SS)
        d.line((inset + k + h, inset, inset + k, inset + h), fill=BACK_LINE, width=SS)
        k += step
    # Keep the lattice inside the blue panel.
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (inset, inset, w - inset, h - inset), radius=radius(width) * SS // 2, fill=255
    )
    panel = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    panel.paste(img, (0, 0), mask)
    base, _ = _blank(w, h, (250, 250, 250), EDGE)
    base.alpha_composite(panel)
    ImageDraw.Draw(base).rounded_rectangle(
        (inset, inset, w - inset, h - inset),
        radius=radius(width) * SS // 2,
        outline=(235, 235, 235),
        width=SS,
    )
    return base.resize((width, card_height(width)), Image.Resampling.LANCZOS)


@lru_cache(maxsize=16)
def shadow(width: int) -> Image.Image:
    """A soft shadow for a card ``width`` wide; pasted at an offset below it."""
    w, h = width, card_height(width)
    pad = max(4, width // 10)
    img = Image.new("RGBA", (w + 2 * pad, h + 2 * pad), (0, 0, 0, 0))
    ImageDraw.Draw(img).rounded_rectangle(
        (pad, pad, pad + w, pad + h), radius=radius(width), fill=(0, 0, 0, 110)
    )
    return img.filter(ImageFilter.GaussianBlur(pad / 2.5))


def shadow_offset(width: int) -> tuple[int, int]:
    """Where to paste :func:`shadow` relative to the card's top left."""
    pad = max(4, width // 10)
    return -pad + max(1, width // 40), -pad + max(2, width // 20)


def place(canvas: Image.Image, image: Image.Image, x: int, y: int, width: int) -> None:
    """Paste a card image (face or back) with its shadow at (x, y) on an RGB canvas."""
    dx, dy = shadow_offset(width)
    soft = shadow(width)
    canvas.paste(soft, (x + dx, y + dy), soft)
    canvas.paste(image, (x, y), image)
