"""The private hand: three lanes as placed so far, the unplaced cards below.

Lane cards never overlap (the player must read every card); unplaced cards
fan out when they do not fit in one row (16-card hands). The picture keeps
one size whatever the state, so a chat can swap it in place.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.core.state import LANE_NAMES
from bot.i18n import t
from bot.rules.cards import Card

from . import cards as card_art
from .canvas import (
    GOLD,
    GOLD_INK,
    INK,
    MARGIN,
    SOFT,
    felt,
    overlay,
    pill,
    pill_width,
    title_bar,
)
from .fonts import draw_text
from .legend import legend
from .model import LANE_SIZES, HandPicture

CARD_W = 96
CARD_H = card_art.card_height(CARD_W)
GAP = 10
LABEL_W = 150
ROW_H = CARD_H + 22
WIDTH = MARGIN + LABEL_W + 5 * CARD_W + 4 * GAP + MARGIN
TOP = 58 + 18  # title bar + space
STATUS_H = 44
UNPLACED_TOP = TOP + 3 * ROW_H + STATUS_H
HEIGHT = UNPLACED_TOP + 36 + CARD_H + MARGIN


@dataclass(frozen=True, slots=True)
class Placed:
    """Where one card of the hand is drawn; ``visible`` is the part of its
    width not covered by the next card (all of it unless fanned)."""

    card: Card
    x: int
    y: int
    visible: int
    lane: int | None  # 0..2, None for an unplaced card


def layout(p: HandPicture) -> list[Placed]:
    """Every card's place, lanes first (head, middle, tail), then unplaced."""
    out: list[Placed] = []
    x0 = MARGIN + LABEL_W
    for lane, cards in enumerate(p.lanes):
        y = TOP + lane * ROW_H
        for i, card in enumerate(cards):
            out.append(Placed(card, x0 + i * (CARD_W + GAP), y, CARD_W, lane))
    n = len(p.unplaced)
    if n:
        room = WIDTH - 2 * MARGIN - CARD_W
        step = min(CARD_W + GAP, room // max(1, n - 1))
        y = UNPLACED_TOP + 36
        for i, card in enumerate(p.unplaced):
            visible = CARD_W if i == n - 1 else min(CARD_W, step)
            out.append(Placed(card, MARGIN + i * step, y, visible, None))
    return out


def _empty_slot(image: Image.Image, x: int, y: int) -> None:
    overlay(
        image,
        (x, y, x + CARD_W, y + CARD_H),
        (255, 255, 255, 22),
        card_art.radius(CARD_W),
        outline=(255, 255, 255, 90),
        width=2,
    )


FOUL_RED = (214, 40, 40)


def _lane_label(image: Image.Image, p: HandPicture, lane: int) -> None:
    y = TOP + lane * ROW_H
    name = LANE_NAMES[lane]
    count = len(p.lanes[lane])
    aimed = p.aim == lane
    if aimed:
        # ▶ left of the name: the lane a tapped card goes to.
        ImageDraw.Draw(image).polygon(
            [(6, y + 26), (6, y + 48), (19, y + 37)], fill=GOLD, outline=GOLD_INK
        )
    ink = GOLD if aimed else INK
    draw_text(image, (MARGIN, y + 22), t(p.language, f"lane.{name}"), 26, ink, bold=True)
    draw_text(image, (MARGIN, y + 54), f"{count}/{LANE_SIZES[lane]}", 19, SOFT)
    cat = p.categories[lane]
    if cat is not None:
        text = t(p.language, f"cat.{cat.slug}")
        w = min(pill_width(text, 17), LABEL_W - 16)
        pill(image, (MARGIN + w / 2, y + 92), text, 17, fill=GOLD, ink=GOLD_INK, max_width=w - 20)
    if p.fouled[lane]:
        _foul_mark(image, p, lane)


def _foul_mark(image: Image.Image, p: HandPicture, lane: int) -> None:
    """A lane out of order (倒水): a red frame round its cards and a red
    倒水 under its name, before the player presses confirm."""
    y = TOP + lane * ROW_H
    x0 = MARGIN + LABEL_W - 6
    x1 = x0 + LANE_SIZES[lane] * (CARD_W + GAP) + 2
    ImageDraw.Draw(image).rounded_rectangle(
        (x0, y - 6, x1, y + CARD_H + 6), radius=12, outline=FOUL_RED, width=5
    )
    text = t(p.language, "pic.foul")
    w = min(pill_width(text, 19), LABEL_W - 16)
    pill(image, (MARGIN + w / 2, y + 128), text, 19, fill=FOUL_RED, ink=INK, max_width=w - 20)


def _status(p: HandPicture) -> str:
    lang = p.language
    # paid: the result, not "waiting for the others" (a picture stored
    # pickled before it had points has no such attribute)
    paid = getattr(p, "points", None)
    if paid is not None:
        points = f"{paid:+d}" if paid else "0"
        return t(lang, "hand.settled", round=p.round_no, points=points)
    if p.declared and p.special:
        return t(lang, "hand.declared", special=t(lang, f"special.{p.special.value}"))
    if p.auto:
        return t(lang, "hand.auto")
    if p.done:
        return t(lang, "hand.confirmed")
    if p.special:
        return t(lang, "pic.special", special=t(lang, f"special.{p.special.value}"))
    return ""


def draw(p: HandPicture) -> Image.Image:
    image = felt(WIDTH, HEIGHT)
    title_bar(
        image,
        t(p.language, "hand.title", round=p.round_no),
        "   ".join(legend(p.marks, p.language)),
    )
    for lane, size in enumerate(LANE_SIZES):
        y = TOP + lane * ROW_H
        for i in range(len(p.lanes[lane]), size):
            _empty_slot(image, MARGIN + LABEL_W + i * (CARD_W + GAP), y)
        _lane_label(image, p, lane)
    for spot in layout(p):
        wild, added = p.marks.of(spot.card)
        card_art.place(image, card_art.face(spot.card, CARD_W, wild, added), spot.x, spot.y, CARD_W)
    status = _status(p)
    if status:
        draw_text(
            image,
            (WIDTH / 2, TOP + 3 * ROW_H + STATUS_H / 2 - 6),
            status,
            20,
            INK,
            bold=True,
            align="center",
            max_width=WIDTH - 2 * MARGIN,
        )
    n = len(p.unplaced)
    if n or p.discard:
        key = "pic.unplaced_extra" if p.discard else "pic.unplaced"
        head = t(p.language, key, count=n, discard=p.discard)
    else:
        head = t(p.language, "pic.all_placed")
    ImageDraw.Draw(image).line(
        (MARGIN, UNPLACED_TOP, WIDTH - MARGIN, UNPLACED_TOP), fill=(70, 140, 100), width=2
    )
    draw_text(image, (MARGIN, UNPLACED_TOP + 18), head, 18, SOFT, max_width=WIDTH - 2 * MARGIN)
    return image
