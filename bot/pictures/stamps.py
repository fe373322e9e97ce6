"""The showdown's moments as stamps: 打枪 in red, 全垒打 and 报道 in gold,
each a filled seal with an inner border, set a little askew as the 十三水
apps stamp them, in a band under the seats from the step that decides them.

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
from .fonts import Color, draw_text, text_width
from .model import MomentShow, ShowdownPicture

RED = (200, 36, 40)
WHITE = (255, 250, 240)
TEXT_SIZE = 28
TITLE_SIZE = 38  # a home run's 全垒打！
PAD_X, PAD_Y = 22, 12
INSET = 5  # the seal's inner border
GAP = 14  # between stamps, and between the band's rows
TILTS = (-3.0, 2.0, -1.5, 2.5)  # hand-stamped: never two alike side by side


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


@dataclass(frozen=True, slots=True)
class Stamp:
    title: str  # a home run's big word; "" for the others
    text: str
    fill: Color
    ink: Color
    tilt: float

    def box(self, max_width: float) -> tuple[float, float]:
        """The stamp's size before it is tilted."""
        w = text_width(self.text, TEXT_SIZE, bold=True)
        h = TEXT_SIZE * 1.3
        if self.title:
            w += text_width(self.title, TITLE_SIZE, bold=True) + PAD_X / 2
            h = TITLE_SIZE * 1.3
        return min(w, max_width - 2 * PAD_X) + 2 * PAD_X, h + 2 * PAD_Y


def stamps(p: ShowdownPicture) -> list[Stamp]:
    names = [s.name for s in p.seats]
    out = []
    for n, m in enumerate(p.moments):
        text = _text(p.language, m, names)
        tilt = TILTS[n % len(TILTS)]
        if m.kind is MomentKind.SCOOP:
            out.append(Stamp("", text, RED, WHITE, tilt))
        else:
            title = t(p.language, "moment.home_run") if m.kind is MomentKind.HOME_RUN else ""
            out.append(Stamp(title, text, GOLD, GOLD_INK, tilt))
    return out


def _text(language: str, m: MomentShow, names: Sequence[str]) -> str:
    of = None if m.of is None else names[m.of]
    return moment_text(language, m.kind, names[m.by], of, m.times, m.special)


def _tilted_size(w: float, h: float, tilt: float) -> tuple[int, int]:
    return Image.new("L", (round(w), round(h))).rotate(tilt, expand=True).size


def _layout(p: ShowdownPicture, width: float) -> list[list[tuple[Stamp, int, int]]]:
    """The band's rows: each stamp with its tilted width and height."""
    rows: list[list[tuple[Stamp, int, int]]] = []
    used = width
    for stamp in stamps(p):
        w, h = _tilted_size(*stamp.box(width), stamp.tilt)
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


def _stamp_image(stamp: Stamp, max_width: float) -> Image.Image:
    w, h = (round(v) for v in stamp.box(max_width))
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
    draw_text(
        layer, (x, h / 2), stamp.text, TEXT_SIZE, stamp.ink, bold=True, max_width=w - x - PAD_X
    )
    return layer.rotate(stamp.tilt, expand=True, resample=Image.Resampling.BICUBIC)


def draw_band(image: Image.Image, p: ShowdownPicture, top: int, left: int, width: int) -> None:
    """The stamps in rows, each row centred, from ``top`` down."""
    y: float = top + GAP
    for row in _layout(p, width):
        row_w = sum(w for _, w, _ in row) + GAP * (len(row) - 1)
        row_h = max(h for _, _, h in row)
        x = left + (width - row_w) / 2
        for stamp, w, h in row:
            layer = _stamp_image(stamp, width)
            image.paste(layer, (round(x), round(y + (row_h - h) / 2)), layer)
            x += w + GAP
        y += row_h + GAP
