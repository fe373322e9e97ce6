"""The showdown's moments as stamps: 打枪 in red, 全垒打 and 报道 in gold,
each a filled seal with an inner border (the home run's set askew, as the
十三水 apps stamp it), in a band under the seats from the step that decides
them.

``moment_text`` is the moment in words, the same sentence the showdown's
text and the arranging page say ("卡萝 打枪 阿丽 ×2").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.i18n import t
from bot.rules.types import MomentKind, SpecialHand

from .canvas import GOLD, GOLD_INK
from .fonts import Color, draw_text, ellipsize, text_width
from .model import MomentShow, ShowdownPicture

RED = (200, 36, 40)
WHITE = (255, 250, 240)
TEXT_SIZE = 28
TITLE_SIZE = 38  # a home run's 全垒打！
PAD_X, PAD_Y = 22, 12
INSET = 5  # the seal's inner border
GAP = 14  # between stamps, and between the band's rows
# The home run's stamp is set askew, hand-stamped; the others lie straight:
# a tilted stamp's diagonal edges cost the PNG about 14 KB each (a 5-player
# showdown with two tilted scoops was 217 KB, over the pictures' 200 KB).
HOME_RUN_TILT = -2.5


def moment_text(
    language: str,
    kind: MomentKind,
    by: str,
    of: str | None = None,
    times: int = 1,
    special: SpecialHand | None = None,
) -> str:
    """The moment in words, without a home run's 全垒打！ title."""
    if kind is MomentKind.SPECIAL:
        name = t(language, f"special.{special.value}") if special else ""
        return t(language, "moment.special", name=by, special=name)
    if kind is MomentKind.HOME_RUN:
        text = t(language, "moment.home_run_by", name=by)
    else:
        text = t(language, "moment.scoop", by=by, of=of or "")
    return t(language, "moment.times", text=text, times=times) if times > 1 else text


# A player's name in a stamp: the regular weight, as in the seat's column
# (the bold subset keeps only the game's own words), cut short past this.
NAME_MAX = 200
_MARK = "\x00"  # stands for a name while the catalog's sentence is formatted


@dataclass(frozen=True, slots=True)
class Stamp:
    title: str  # a home run's big word; "" for the others
    parts: tuple[tuple[str, bool], ...]  # the sentence: (text, bold) runs
    fill: Color
    ink: Color
    tilt: float

    @property
    def text(self) -> str:
        return "".join(part for part, _ in self.parts)

    def box(self) -> tuple[float, float]:
        """The stamp's size before it is tilted (names are cut short, so the
        longest sentence fits the picture's width)."""
        w = sum(_run_width(part, bold) for part, bold in self.parts)
        h = TEXT_SIZE * 1.3
        if self.title:
            w += text_width(self.title, TITLE_SIZE, bold=True) + PAD_X / 2
            h = TITLE_SIZE * 1.3
        return w + 2 * PAD_X, h + 2 * PAD_Y


def _space() -> float:
    return text_width("a a", TEXT_SIZE) - text_width("aa", TEXT_SIZE)


def _run_width(part: str, bold: bool) -> float:
    """A run's width with the spaces at its ends (a drawn line drops them;
    between a name and the words they are the sentence's own)."""
    ends = len(part) - len(part.strip())
    return text_width(part, TEXT_SIZE, bold) + ends * _space()


def stamps(p: ShowdownPicture) -> list[Stamp]:
    names = [s.name for s in p.seats]
    out = []
    for m in p.moments:
        parts = _parts(p.language, m, names)
        if m.kind is MomentKind.SCOOP:
            out.append(Stamp("", parts, RED, WHITE, 0.0))
        elif m.kind is MomentKind.HOME_RUN:
            title = t(p.language, "moment.home_run")
            out.append(Stamp(title, parts, GOLD, GOLD_INK, HOME_RUN_TILT))
        else:
            out.append(Stamp("", parts, GOLD, GOLD_INK, 0.0))
    return out


def _parts(language: str, m: MomentShow, names: Sequence[str]) -> tuple[tuple[str, bool], ...]:
    """The moment's sentence as runs: the catalog's words bold, the names
    in the regular weight (each cut short past NAME_MAX)."""
    by, of = f"{_MARK}{m.by}{_MARK}", None if m.of is None else f"{_MARK}{m.of}{_MARK}"
    pieces = moment_text(language, m.kind, by, of, m.times, m.special).split(_MARK)
    out = []
    for n, piece in enumerate(pieces):
        if n % 2:  # a name's seat
            out.append((ellipsize(names[int(piece)], TEXT_SIZE, NAME_MAX), False))
        elif piece:
            out.append((piece, True))
    return tuple(out)


def _tilted_size(w: float, h: float, tilt: float) -> tuple[int, int]:
    return Image.new("L", (round(w), round(h))).rotate(tilt, expand=True).size


def _layout(p: ShowdownPicture, width: float) -> list[list[tuple[Stamp, int, int]]]:
    """The band's rows: each stamp with its tilted width and height."""
    rows: list[list[tuple[Stamp, int, int]]] = []
    used = width
    for stamp in stamps(p):
        w, h = _tilted_size(*stamp.box(), stamp.tilt)
        if not rows or used + GAP + w > width:
            rows.append([])
            used = -GAP
        rows[-1].append((stamp, w, h))
        used += GAP + w
    return rows


def band_height(p: ShowdownPicture, width: float) -> int:
    """The band's height in a picture ``width`` wide for its stamps (0: none)."""
    rows = _layout(p, width)
    return sum(max(h for _, _, h in row) + GAP for row in rows) + (GAP if rows else 0)


def _stamp_image(stamp: Stamp) -> Image.Image:
    w, h = (round(v) for v in stamp.box())
    layer = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=10, fill=(*stamp.fill, 240))
    d.rounded_rectangle(
        (INSET, INSET, w - 1 - INSET, h - 1 - INSET), radius=7, outline=stamp.ink, width=2
    )
    x: float = PAD_X
    if stamp.title:
        draw_text(layer, (x, h / 2), stamp.title, TITLE_SIZE, stamp.ink, bold=True)
        x += text_width(stamp.title, TITLE_SIZE, bold=True) + PAD_X / 2
    for part, bold in stamp.parts:
        lead = (len(part) - len(part.lstrip())) * _space()
        draw_text(layer, (x + lead, h / 2), part, TEXT_SIZE, stamp.ink, bold=bold)
        x += _run_width(part, bold)
    return layer.rotate(stamp.tilt, expand=True, resample=Image.Resampling.BICUBIC)


def draw_band(image: Image.Image, p: ShowdownPicture, top: int, left: int, width: int) -> None:
    """The stamps in rows, each row centred, from ``top`` down."""
    y: float = top + GAP
    for row in _layout(p, width):
        row_w = sum(w for _, w, _ in row) + GAP * (len(row) - 1)
        row_h = max(h for _, _, h in row)
        x = left + (width - row_w) / 2
        for stamp, w, h in row:
            layer = _stamp_image(stamp)
            image.paste(layer, (round(x), round(y + (row_h - h) / 2)), layer)
            x += w + GAP
        y += row_h + GAP
