"""The settlement: who won what from whom, as a table.

Row player against column player: the score in large type, the three lane
results (+1 / 0 / −1) in small type, a red 打枪 tag where the row player
scooped. The home-run seat's row is framed in gold with a banner below.
The last columns are the round's totals and, in a room, the running totals.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from bot.i18n import t

from .canvas import (
    BAND,
    GOLD,
    INK,
    LOSS,
    MARGIN,
    SOFT,
    felt,
    overlay,
    pill,
    score_color,
    signed,
    title_bar,
)
from .fonts import draw_text, wrap
from .model import PairScore, SettlementPicture

NAME_W = 170
CELL_W = 124
TOTAL_W = 100
CELL_H = 72
HEAD_H = 58 + 54  # title bar + column names
SCOOP_RED = (214, 48, 49)
HINT_SIZE = 14  # the key to the cells under the table, wrapped to the width
HINT_LINE = 20


def _columns(p: SettlementPicture) -> int:
    return 2 if any(s.room_total is not None for s in p.seats) else 1


def _table_width(p: SettlementPicture) -> int:
    return NAME_W + len(p.seats) * CELL_W + _columns(p) * TOTAL_W


def size(p: SettlementPicture, min_width: int = 560) -> tuple[int, int]:
    n = len(p.seats)
    width = max(MARGIN + _table_width(p) + MARGIN, min_width)
    lines = len(_hint_lines(p, width))
    height = HEAD_H + n * CELL_H + 14 + (44 if p.home_run is not None else 0)
    return width, height + 40 + (lines - 1) * HINT_LINE + MARGIN


def _hint_lines(p: SettlementPicture, width: int) -> tuple[str, ...]:
    """The key to the cells, in as many lines as the picture's width needs."""
    return _balanced(t(p.language, "pic.matrix_hint"), width - 2 * MARGIN)


@lru_cache(maxsize=64)
def _balanced(text: str, width: int) -> tuple[str, ...]:
    """``text`` wrapped to ``width`` pixels, its lines then made as even as
    that many lines allow (no short last line of two words)."""
    lines = wrap(text, HINT_SIZE, width)
    low, high = width // max(1, len(lines)), width
    while low < high:  # the narrowest width that still needs no more lines
        mid = (low + high) // 2
        if len(wrap(text, HINT_SIZE, mid)) <= len(lines):
            high = mid
        else:
            low = mid + 1
    return tuple(wrap(text, HINT_SIZE, high)) or ("",)


def _pair(p: SettlementPicture, row: int, col: int) -> tuple[PairScore, int] | None:
    """The pair of seats ``row`` and ``col`` and the sign that turns its
    score to the row seat's view."""
    for q in p.pairs:
        if (q.a, q.b) == (row, col):
            return q, 1
        if (q.a, q.b) == (col, row):
            return q, -1
    return None


def _lanes_text(lanes: tuple[int, int, int], sign: int) -> str:
    return " ".join(signed(v * sign) if v else "0" for v in lanes)


def _cell(image: Image.Image, p: SettlementPicture, row: int, col: int, x: float, y: float) -> None:
    cx, cy = x + CELL_W / 2, y + CELL_H / 2
    overlay(
        image,
        (x + 3, y + 3, x + CELL_W - 3, y + CELL_H - 3),
        (0, 0, 0, 45 if row != col else 90),
        8,
    )
    if row == col:
        draw_text(image, (cx, cy), "—", 20, SOFT, align="center")
        return
    found = _pair(p, row, col)
    if found is None:  # banker mode: players do not play each other
        draw_text(image, (cx, cy), "·", 22, SOFT, align="center")
        return
    q, sign = found
    score = q.score * sign
    draw_text(
        image, (cx, cy - 10), signed(score), 26, score_color(score), bold=True, align="center"
    )
    if q.scoop == row:  # won every lane: the tag says more than "+1 +1 +1"
        tag = t(p.language, "pic.scoop")
        pill(image, (cx, cy + 20), tag, 12, fill=SCOOP_RED, ink=(255, 255, 255), pad=0.5)
    elif q.lanes is not None:
        ink = LOSS if q.scoop is not None else SOFT  # the scooped side
        draw_text(image, (cx, cy + 20), _lanes_text(q.lanes, sign), 13, ink, align="center")


def draw(p: SettlementPicture, background: Image.Image | None = None) -> Image.Image:
    """The settlement; on ``background`` (a felt of at least :func:`size`,
    the table centred on it) when given."""
    image = background.copy() if background is not None else felt(*size(p))
    width = image.width
    lang = p.language
    title = (
        t(lang, "settle.title", round=p.round_no)
        if p.round_no is not None
        else t(lang, "pic.settlement")
    )
    title_bar(image, title)
    n = len(p.seats)
    left = (width - _table_width(p)) // 2
    right = left + _table_width(p)
    x0 = left + NAME_W
    totals_x = x0 + n * CELL_W
    head_y = 58 + 30
    for col, seat in enumerate(p.seats):
        draw_text(
            image,
            (x0 + col * CELL_W + CELL_W / 2, head_y),
            seat.name,
            18,
            INK,
            align="center",
            max_width=CELL_W - 12,
        )
    draw_text(
        image,
        (totals_x + TOTAL_W / 2, head_y),
        t(lang, "pic.round_total"),
        17,
        SOFT,
        bold=True,
        align="center",
    )
    if _columns(p) == 2:
        draw_text(
            image,
            (totals_x + TOTAL_W * 1.5, head_y),
            t(lang, "pic.room_total"),
            17,
            SOFT,
            bold=True,
            align="center",
        )
    for row, seat in enumerate(p.seats):
        y = HEAD_H + row * CELL_H
        if row % 2 == 0:
            overlay(image, (left - MARGIN / 2, y, right + MARGIN / 2, y + CELL_H), BAND, 10)
        if p.home_run == row:
            overlay(
                image,
                (left - MARGIN / 2, y, right + MARGIN / 2, y + CELL_H),
                (255, 214, 90, 40),
                10,
                outline=GOLD,
                width=3,
            )
        marks = [
            t(lang, k)
            for k, on in (
                ("settle.banker_mark", seat.banker),
                ("settle.escaped_mark", seat.escaped),
                ("settle.auto_mark", seat.auto),
            )
            if on
        ]
        if seat.special is not None:
            marks.insert(0, t(lang, f"special.{seat.special.value}"))
        name_y = y + CELL_H / 2 - (10 if marks else 0)
        draw_text(image, (left, name_y), seat.name, 21, INK, max_width=NAME_W - 12)
        if marks:
            draw_text(
                image,
                (left, y + CELL_H / 2 + 16),
                " · ".join(marks),
                13,
                SOFT,
                max_width=NAME_W - 12,
            )
        for col in range(n):
            _cell(image, p, row, col, x0 + col * CELL_W, y)
        draw_text(
            image,
            (totals_x + TOTAL_W / 2, y + CELL_H / 2),
            signed(seat.total),
            28,
            score_color(seat.total),
            bold=True,
            align="center",
        )
        if seat.room_total is not None:
            draw_text(
                image,
                (totals_x + TOTAL_W * 1.5, y + CELL_H / 2),
                signed(seat.room_total),
                24,
                score_color(seat.room_total),
                align="center",
            )
    y = HEAD_H + n * CELL_H + 14
    if p.home_run is not None:
        text = t(lang, "settle.home_run", name=p.seats[p.home_run].name)
        pill(
            image,
            (width / 2, y + 18),
            text,
            20,
            fill=GOLD,
            ink=(60, 30, 0),
            bold=False,  # it holds a name: one weight for all its characters
            max_width=width - 4 * MARGIN,
        )
        y += 44
    for i, line in enumerate(_hint_lines(p, width)):
        draw_text(image, (width / 2, y + 18 + i * HINT_LINE), line, HINT_SIZE, SOFT, align="center")
    return image
