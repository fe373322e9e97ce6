"""The showdown: one row per seat, its head, middle and tail side by side.

A lane the table has not revealed is drawn face down (its input holds no
cards). A revealed lane shows its hand's name below it; each lane's winner
has a gold frame and a gold label. A revealed special (报道) shows its 13
cards and one banner instead of the three labels. Under the seats, the
moments of the steps shown (打枪, 全垒打, 报道) as stamps (stamps.py).
"""

from __future__ import annotations

from PIL import Image

from bot.core.paid import CAP
from bot.core.state import LANE_NAMES
from bot.i18n import t

from . import cards as card_art
from .canvas import (
    BAND,
    GOLD,
    GOLD_INK,
    INK,
    MARGIN,
    SOFT,
    felt,
    overlay,
    pill,
    score_color,
    signed,
    title_bar,
)
from .fonts import draw_text
from .legend import legend
from .model import SeatShow, ShowdownPicture
from .stamps import band_height, draw_band

CARD_W = 60
CARD_H = card_art.card_height(CARD_W)
STEP = 30  # overlap: each card shows its index corner
NAME_W = 190
LANE_GAP = 30
ROW_H = CARD_H + 56
HEADER_H = 58 + 34  # title bar + lane headings
LANE_W = tuple(CARD_W + (n - 1) * STEP for n in (3, 5, 5))
LANE_X = (
    MARGIN + NAME_W,
    MARGIN + NAME_W + LANE_W[0] + LANE_GAP,
    MARGIN + NAME_W + LANE_W[0] + LANE_W[1] + 2 * LANE_GAP,
)
WIDTH = LANE_X[2] + LANE_W[2] + MARGIN
FOOTER_H = 34
BANNER_X = (LANE_X[0] + LANE_X[2] + LANE_W[2]) / 2  # a special's banner, under its lanes
BANNER_W = WIDTH - LANE_X[0] - MARGIN
BANNER_SIZE = 17
LABEL_SIZE = 16  # a lane's hand under it


def size(seats: int, band: int = 0) -> tuple[int, int]:
    """The picture's size with ``seats`` rows and a band of stamps ``band`` high."""
    return WIDTH, HEADER_H + seats * ROW_H + band + FOOTER_H


def picture_size(p: ShowdownPicture) -> tuple[int, int]:
    return size(len(p.seats), band_height(p, WIDTH - 2 * MARGIN))


def card_spots(seat_row: int, lane: int, count: int) -> list[tuple[int, int]]:
    """Top-left corners of a lane's cards in row ``seat_row``."""
    y = HEADER_H + seat_row * ROW_H + 10
    return [(LANE_X[lane] + i * STEP, y) for i in range(count)]


def label_center(seat_row: int) -> int:
    """The height of the middle of row ``seat_row``'s labels (lane hands, a
    special's banner)."""
    return HEADER_H + seat_row * ROW_H + 10 + CARD_H + 22


def _name_column(image: Image.Image, seat: SeatShow, y: int, language: str) -> None:
    draw_text(image, (MARGIN, y + 24), seat.name, 23, INK, max_width=NAME_W - 16)
    marks = []
    if seat.banker:
        marks.append(t(language, "settle.banker_mark"))
    if seat.escaped:
        marks.append(t(language, "settle.escaped_mark"))
    if seat.auto:
        marks.append(t(language, "settle.auto_mark"))
    if marks:
        draw_text(image, (MARGIN, y + 52), " · ".join(marks), 15, SOFT, max_width=NAME_W - 16)
    if seat.total is not None:
        draw_text(
            image, (MARGIN, y + 84), signed(seat.total), 28, score_color(seat.total), bold=True
        )


def _seat(image: Image.Image, p: ShowdownPicture, row: int, seat: SeatShow) -> None:
    y = HEADER_H + row * ROW_H
    if row % 2 == 0:
        overlay(image, (MARGIN / 2, y + 2, WIDTH - MARGIN / 2, y + ROW_H - 2), BAND, 12)
    _name_column(image, seat, y, p.language)
    label_y = label_center(row)
    for lane, show in enumerate(seat.lanes):
        spots = card_spots(row, lane, show.size)
        if show.winner and show.face_up:
            x0, y0 = spots[0]
            overlay(
                image,
                (x0 - 6, y0 - 6, x0 + LANE_W[lane] + 6, y0 + CARD_H + 6),
                (255, 214, 90, 90),
                10,
                outline=GOLD,
                width=3,
            )
        if show.cards is None:
            for x, yy in spots:
                card_art.place(image, card_art.back(CARD_W), x, yy, CARD_W)
        else:
            for (x, yy), card in zip(spots, show.cards, strict=False):
                wild, added = p.marks.of(card)
                card_art.place(image, card_art.face(card, CARD_W, wild, added), x, yy, CARD_W)
        if show.category is not None and seat.special is None:
            text = t(p.language, f"cat.{show.category.slug}")
            fill, ink = (GOLD, GOLD_INK) if show.winner else ((0, 0, 0, 90), INK)
            pill(
                image,
                (LANE_X[lane] + LANE_W[lane] / 2, label_y),
                text,
                LABEL_SIZE,
                fill=fill,
                ink=ink,
                max_width=LANE_W[lane] - 16,
            )
    text = banner_text(p.language, seat)
    if text:
        pill(
            image,
            (BANNER_X, label_y),
            text,
            BANNER_SIZE,
            fill=GOLD,
            ink=GOLD_INK,
            max_width=BANNER_W,
        )


def banner_text(language: str, seat: SeatShow) -> str:
    """A revealed special's banner: its name and what each opponent paid for
    it, with its worth where the two differ ("" without a special)."""
    if seat.special is None:
        return ""
    paid, worth = seat.special_paid, seat.special_points
    key = "pic.special_points"
    if paid is not None:  # capped in banker mode, doubled in extended: say what was paid
        key = "pic.special_capped" if paid < worth else "pic.special_doubled"
    return t(
        language,
        key,
        special=t(language, f"special.{seat.special.value}"),
        points=worth,
        paid=paid,
        cap=CAP,
    )


def heading(p: ShowdownPicture, *, dealt: bool = False) -> tuple[str, str]:
    """The title bar's title and its key to the card marks (``dealt``: the
    round's table while the hands are arranged)."""
    if p.round_no is None:
        title = t(p.language, "pic.showdown")
    else:
        title = t(p.language, "pic.dealt" if dealt else "table.showdown", round=p.round_no)
    return title, "   ".join(legend(p.marks, p.language))


def draw_dealt(p: ShowdownPicture) -> Image.Image:
    """The round's table at the deal: every seat's lanes face down, titled
    as the round being arranged (the same message becomes the showdown)."""
    return draw(p, dealt=True)


def draw(
    p: ShowdownPicture,
    background: Image.Image | None = None,
    *,
    title: bool = True,
    dealt: bool = False,
) -> Image.Image:
    """The showdown; on ``background`` (a felt of :func:`size`) when given,
    without its title bar when the caller draws one across a wider picture."""
    image = background.copy() if background is not None else felt(*picture_size(p))
    if title:
        title_bar(image, *heading(p, dealt=dealt))
    for lane, name in enumerate(LANE_NAMES):
        draw_text(
            image,
            (LANE_X[lane] + LANE_W[lane] / 2, 58 + 18),
            t(p.language, f"lane.{name}"),
            19,
            SOFT,
            bold=True,
            align="center",
        )
    for row, seat in enumerate(p.seats):
        _seat(image, p, row, seat)
    draw_band(image, p, HEADER_H + len(p.seats) * ROW_H, MARGIN, WIDTH - 2 * MARGIN)
    return image
