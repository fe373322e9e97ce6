"""Pixel helpers of the picture tests: decode PNG bytes, compare a card's
place in a picture with its sprite."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image, ImageChops

from bot.pictures.cards import radius


def decode(png: bytes) -> Image.Image:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


def same_as_sprite(picture: Image.Image, sprite: Image.Image, x: int, y: int, visible: int) -> bool:
    """Whether the opaque inside of ``sprite`` is what ``picture`` shows at
    (x, y), over the ``visible`` left part of its width (the rest of a
    fanned card is under the next one and its shadow)."""
    width = sprite.width
    inset = radius(width) + 2
    right = visible - (0 if visible == width else max(4, width // 10)) - 1
    box = (inset, inset, min(right, width - inset), sprite.height - inset)
    want = sprite.convert("RGB").crop(box)
    got = picture.crop((x + box[0], y + box[1], x + box[2], y + box[3]))
    return ImageChops.difference(want, got).getbbox() is None


def share_of(image: Image.Image, test) -> float:
    """The share of pixels of ``image`` (RGB) that ``test`` picks."""
    pixels = np.asarray(image.convert("RGB")).astype(int)
    return float(test(pixels[..., 0], pixels[..., 1], pixels[..., 2]).mean())


def red(r, g, b):
    return (r > 150) & (g < 90) & (b < 90)


def black(r, g, b):
    return (r < 80) & (g < 80) & (b < 80)


def gold(r, g, b):
    return (r > 200) & (g > 150) & (g < 215) & (b < 100)


def foul_framed(photo: bytes) -> tuple[bool, bool, bool]:
    """Whether each lane of a private hand's picture has the red frame of a
    foul (倒水) round its cards: the strip left of its first card is red."""
    from bot.pictures import draw_hand

    image = decode(photo)
    x0 = draw_hand.MARGIN + draw_hand.LABEL_W - 6
    framed = []
    for lane in range(3):
        y = draw_hand.TOP + lane * draw_hand.ROW_H
        strip = image.crop((x0, y + 12, x0 + 4, y + draw_hand.CARD_H - 12))
        framed.append(share_of(strip, lambda r, g, b: (r > 180) & (g < 80) & (b < 80)) > 0.9)
    return (framed[0], framed[1], framed[2])
