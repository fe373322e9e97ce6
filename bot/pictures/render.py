"""Pictures as PNG bytes: pure functions of their inputs, safe to call from
worker threads (``asyncio.to_thread``) so the event loop never waits.

Drawing holds one lock (Pillow's FreeType faces are shared between
threads); the PNG encoding, most of the time, runs outside it.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import TypeVar

from PIL import Image

from . import draw_hand, draw_settlement, draw_showdown
from .canvas import felt, title_bar, to_png
from .model import HandPicture, SettlementPicture, ShowdownPicture

_draw_lock = threading.Lock()
P = TypeVar("P")


def _png(draw: Callable[[P], Image.Image], picture: P) -> bytes:
    with _draw_lock:
        image = draw(picture)
    return to_png(image)


def render_hand(picture: HandPicture) -> bytes:
    """The private hand as PNG (718 × 782 px)."""
    return _png(draw_hand.draw, picture)


def render_showdown(picture: ShowdownPicture) -> bytes:
    """The showdown as PNG (778 px wide, 134 px a seat)."""
    return _png(draw_showdown.draw, picture)


def render_dealt(picture: ShowdownPicture) -> bytes:
    """The round's table while it is arranged, every lane face down (the
    showdown's size: the message is edited into the showdown)."""
    return _png(draw_showdown.draw_dealt, picture)


def render_settlement(picture: SettlementPicture) -> bytes:
    """The settlement table as PNG."""
    return _png(draw_settlement.draw, picture)


def _stacked(pair: tuple[ShowdownPicture, SettlementPicture]) -> Image.Image:
    """One felt under both: each part is drawn on its own crop of it."""
    show_w, show_h = draw_showdown.picture_size(pair[0])
    settle_w, settle_h = draw_settlement.size(pair[1], min_width=show_w)
    image = felt(settle_w, show_h + settle_h)
    title_bar(image, *draw_showdown.heading(pair[0]))  # across the whole width
    left = (settle_w - show_w) // 2
    top = draw_showdown.draw(pair[0], image.crop((left, 0, left + show_w, show_h)), title=False)
    bottom = draw_settlement.draw(pair[1], image.crop((0, show_h, settle_w, show_h + settle_h)))
    image.paste(top, (left, 0))
    image.paste(bottom, (0, show_h))
    return image


def render_round(showdown: ShowdownPicture, settlement: SettlementPicture) -> bytes:
    """The showdown above the settlement, as one PNG (``thirteen picture``)."""
    return _png(_stacked, (showdown, settlement))


async def render_async(render: Callable[[P], bytes], picture: P) -> bytes:
    """``await render_async(render_hand, picture)``: render in a worker thread."""
    return await asyncio.to_thread(render, picture)
