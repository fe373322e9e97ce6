"""The settlement: each seat's result against each opponent, so it adds up.

A block per seat: its name, marks, the round's total (and the room's) on
its first line; then a line per opponent with the parts that make that
pair's score (each lane with its points and, when worth more than 1, its
hand; 打枪 ×2, 全垒打 ×2, a special's points, banker mode's cap) and the
score at the end of the line; then any escape payment. The numbers at the
ends of a seat's lines add up to its total, the parts of a line to the
number at its end; the key under the blocks says so. The home-run seat's
block is framed in gold with a banner below.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image

from bot.core.breakdown import Item, item_text
from bot.i18n import t

from .canvas import (
    BAND,
    GOLD,
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
from .fonts import draw_text, text_width, wrap
from .model import SettlementPicture, SettleSeat, VersusShow

WIDTH = 720  # a phone shows it at full width; the parts wrap to it
TOP = 58 + 12  # title bar and a gap
HEAD_H = 44  # a seat's first line: name, marks, totals
LINE_H = 24  # one written line of parts
PART_SIZE = 16
VERSUS_W = 118  # "对 阿丽" before the parts
SCORE_W = 64  # the pair's score at the end of the line
INDENT = 14
GAP = 10  # between seat blocks
HINT_SIZE = 14  # the key under the blocks, wrapped to the width
HINT_LINE = 20
MINUS = "−"  # a real minus sign in pictures
SEP = " · "


@dataclass(frozen=True, slots=True)
class SeatLine:
    """One line of a seat's block: who (``label``), the parts (``parts``,
    already wrapped) and the points it adds to the seat's total."""

    label: str
    parts: tuple[str, ...]
    points: int


def _versus(p: SettlementPicture, seat: SettleSeat) -> tuple[VersusShow, ...]:
    """The seat's lines against each opponent; a picture stored before the
    parts were kept has only the pairs' scores."""
    if seat.versus:
        return seat.versus
    me = p.seats.index(seat)
    out = []
    for q in p.pairs:
        if me in (q.a, q.b):
            sign = 1 if q.a == me else -1
            out.append(VersusShow(q.b if q.a == me else q.a, q.score * sign))
    return tuple(out)


def seat_lines(p: SettlementPicture, seat: SettleSeat) -> tuple[SeatLine, ...]:
    """What the picture writes under a seat's name, line by line."""
    lang = p.language
    text_w = WIDTH - 2 * MARGIN - INDENT - VERSUS_W - SCORE_W
    lines = []
    for v in _versus(p, seat):
        label = t(lang, "pic.versus", name=p.seats[v.opponent].name)
        parts = tuple(item_text(lang, x, minus=MINUS) for x in v.items)
        lines.append(SeatLine(label, _wrapped(parts, text_w), v.total))
    for x in seat.escape:
        lines.append(SeatLine("", _wrapped((_escape_text(lang, x),), text_w), x.points))
    return tuple(lines)


def _escape_text(lang: str, x: Item) -> str:
    return item_text(lang, x, minus=MINUS)


@lru_cache(maxsize=256)
def _wrapped(items: tuple[str, ...], width: int) -> tuple[str, ...]:
    """The items joined with `` · ``, in lines of ``width`` pixels broken
    between items (an item wider than a line is wrapped on its own)."""
    lines: list[str] = []
    for item in items:
        joined = f"{lines[-1]}{SEP}{item}" if lines else item
        if lines and text_width(joined, PART_SIZE) <= width:
            lines[-1] = joined
        else:
            lines.extend(wrap(item, PART_SIZE, width) or [""])
    return tuple(lines) or ("",)


def _block_height(lines: tuple[SeatLine, ...]) -> int:
    return HEAD_H + sum(len(x.parts) for x in lines) * LINE_H + GAP


def hint_top(p: SettlementPicture) -> int:
    """Where the key under the blocks begins (the home run's banner above it)."""
    height = TOP + sum(_block_height(seat_lines(p, s)) for s in p.seats)
    return height + (44 if p.home_run is not None else 0)


def size(p: SettlementPicture, min_width: int = WIDTH) -> tuple[int, int]:
    width = max(WIDTH, min_width)
    hints = len(_hint_lines(p, width))
    return width, hint_top(p) + 12 + hints * HINT_LINE + MARGIN


def _hint_lines(p: SettlementPicture, width: int) -> tuple[str, ...]:
    """The key to the lines, in as many lines as the picture's width needs."""
    return _balanced(t(p.language, "pic.result_hint"), width - 2 * MARGIN)


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


def _marks(p: SettlementPicture, seat: SettleSeat) -> str:
    lang = p.language
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
    return " · ".join(marks)


def _seat_block(
    image: Image.Image, p: SettlementPicture, row: int, y: int, left: int, right: int
) -> int:
    """Draw seat ``row``'s block from ``y``; returns the block's bottom."""
    seat = p.seats[row]
    lines = seat_lines(p, seat)
    bottom = y + _block_height(lines) - GAP
    box = (left - 10, y, right + 10, bottom)
    if p.home_run == row:
        overlay(image, box, (255, 214, 90, 40), 10, outline=GOLD, width=3)
    else:
        overlay(image, box, BAND, 10)
    mid = y + HEAD_H / 2
    total_x = right
    draw_text(
        image,
        (total_x, mid),
        signed(seat.total),
        28,
        score_color(seat.total),
        bold=True,
        align="right",
    )
    room_x: float = total_x - 78  # the totals' column, then what is left of it
    if seat.room_total is not None:
        room = t(p.language, "settle.room_mark", room=signed(seat.room_total))
        room_x -= draw_text(image, (room_x, mid + 2), room, 15, SOFT, align="right")
    name_w = draw_text(
        image, (left, mid), seat.name, 22, INK, bold=True, max_width=(room_x - left) * 0.6
    )
    marks = _marks(p, seat)
    if marks:
        draw_text(
            image,
            (left + name_w + 12, mid + 2),
            marks,
            14,
            SOFT,
            max_width=room_x - left - name_w - 24,
        )
    ly = y + HEAD_H
    x_label = left + INDENT
    x_parts = x_label + VERSUS_W
    for line in lines:
        first = ly + LINE_H / 2
        if line.label:
            draw_text(image, (x_label, first), line.label, 15, SOFT, max_width=VERSUS_W - 8)
        for i, part in enumerate(line.parts):
            x = x_parts if line.label else x_label
            draw_text(image, (x, first + i * LINE_H), part, PART_SIZE, INK)
        draw_text(
            image,
            (right, first),
            signed(line.points),
            20,
            score_color(line.points),
            bold=True,
            align="right",
        )
        ly += len(line.parts) * LINE_H
    return bottom + GAP


def draw(p: SettlementPicture, background: Image.Image | None = None) -> Image.Image:
    """The settlement; on ``background`` (a felt of at least :func:`size`)
    when given."""
    image = background.copy() if background is not None else felt(*size(p))
    width = image.width
    lang = p.language
    title = (
        t(lang, "settle.title", round=p.round_no)
        if p.round_no is not None
        else t(lang, "pic.settlement")
    )
    title_bar(image, title)
    left, right = MARGIN + 10, width - MARGIN - 10
    y = TOP
    for row in range(len(p.seats)):
        y = _seat_block(image, p, row, y, left, right)
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
