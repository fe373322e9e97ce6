"""The 大结算 (final results of a match) as a picture: the ranking with each
player's match total in large type, their counts (wins, scoops, home runs,
specials, fouls) and best lane in small type, and the biggest single round
on a gold banner. Built from ``bot.table.final.summary``; texts from the
catalogs (``matches.json``)."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from bot.core.final import MatchSummary
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
    to_png,
)
from .fonts import draw_text

WIDTH = 760
ROW_H = 86
HEAD_H = 58 + 18
RANK_W = 64
TOTAL_W = 140
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}


@dataclass(frozen=True, slots=True)
class FinalRow:
    rank: int
    name: str
    total: int
    counts: str  # "won 3 of 8 · scoops 2 · …"
    best: str  # "best lane: tail four of a kind (round 5)" or ""


@dataclass(frozen=True, slots=True)
class FinalPicture:
    title: str
    subtitle: str
    rows: tuple[FinalRow, ...]
    biggest: str | None


def final_picture(language: str, final: MatchSummary) -> FinalPicture:
    """The picture's input from a match's summary (``bot.table.final``)."""
    lang = language
    rows = []
    for r in final.players:
        counts = t(
            lang,
            "pic.final.counts",
            wins=r.wins,
            rounds=r.rounds,
            scoops=r.scoops,
            home_runs=r.home_runs,
            specials=r.specials,
            fouls=r.fouls,
        )
        best = ""
        if r.best_lane:
            b = r.best_lane
            best = t(
                lang,
                "pic.final.best",
                lane=t(lang, f"lane.{b.lane}"),
                category=t(lang, f"cat.{b.category}"),
                k=b.round,
            )
        rows.append(FinalRow(r.rank, r.name, r.total, counts, best))
    big = final.biggest
    return FinalPicture(
        title=t(lang, "final.title", seq=final.seq),
        subtitle=(
            t(lang, "pic.final.early", played=final.played, rounds=final.rounds)
            if final.early
            else t(lang, "pic.final.rounds", rounds=final.rounds)
        ),
        rows=tuple(rows),
        biggest=(
            t(lang, "final.biggest", name=big.name, points=signed(big.points), k=big.round)
            if big
            else None
        ),
    )


def size(p: FinalPicture) -> tuple[int, int]:
    return WIDTH, HEAD_H + len(p.rows) * ROW_H + (56 if p.biggest else 0) + MARGIN


def draw(p: FinalPicture) -> Image.Image:
    width, height = size(p)
    image = felt(width, height)
    title_bar(image, p.title, p.subtitle)
    left, right = MARGIN, width - MARGIN
    for i, row in enumerate(p.rows):
        y = HEAD_H + i * ROW_H
        first = row.rank == 1
        overlay(
            image,
            (left, y + 4, right, y + ROW_H - 6),
            (255, 214, 90, 40) if first else BAND,
            12,
            outline=GOLD if first else None,
            width=3 if first else 0,
        )
        mid = y + ROW_H / 2
        draw_text(
            image,
            (left + RANK_W / 2, mid),
            MEDALS.get(row.rank, str(row.rank)),
            30,
            INK,
            bold=True,
            align="center",
        )
        text_w = right - left - RANK_W - TOTAL_W - 12
        draw_text(image, (left + RANK_W, mid - 20), row.name, 24, INK, max_width=text_w)
        draw_text(image, (left + RANK_W, mid + 8), row.counts, 14, SOFT, max_width=text_w)
        if row.best:
            draw_text(image, (left + RANK_W, mid + 27), row.best, 14, SOFT, max_width=text_w)
        draw_text(
            image,
            (right - 16, mid),
            signed(row.total),
            36,
            score_color(row.total),
            bold=True,
            align="right",
        )
    if p.biggest:
        y = HEAD_H + len(p.rows) * ROW_H + 28
        pill(
            image,
            (width / 2, y),
            p.biggest,
            20,
            fill=GOLD,
            ink=(60, 30, 0),
            bold=False,
            max_width=width - 4 * MARGIN,
        )
    return image


def render_final(p: FinalPicture) -> bytes:
    """The final results as PNG (760 px wide, 86 px a player)."""
    from .render import _draw_lock

    with _draw_lock:  # Pillow's FreeType faces are shared between threads
        image = draw(p)
    return to_png(image)
