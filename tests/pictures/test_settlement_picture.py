"""The settlement picture by its pixels: a block per seat whose lines end
in the pair's score, green when won and red when lost; ink where each line's
parts are written; the home run's block framed in gold; at a phone's width
(720 px), in the three languages. docs/judge.md's rounds drawn as
``thirteen picture`` draws them."""

from __future__ import annotations

import json

import numpy as np
import pytest

from bot.cli.jsonl import rules_from
from bot.cli.judge import judge
from bot.cli.picture import _hands
from bot.i18n import LANGUAGES
from bot.pictures import draw_settlement, judged_pictures, render_settlement
from bot.pictures.canvas import MARGIN
from tests.docs.judge_examples import examples

from .pixels import decode, gold


def green(r, g, b):  # the colour of a won score (canvas.WIN)
    return (g > 170) & (r < 140) & (b < 160)


def salmon(r, g, b):  # the colour of a lost score (canvas.LOSS)
    return (r > 200) & (g < 150) & (b < 140)


def light(r, g, b):  # text on the felt
    return r > 150


def _judged(name_part: str, lang: str):
    line = next(x for inputs, *_ in examples("judge") for x in inputs if name_part in x)
    obj = json.loads(line)
    n = len(obj["players"])
    _, p = judged_pictures(
        _hands(obj),
        judge(obj),
        rules_from(obj, n),
        lang,
        banker=obj.get("banker"),
        escaped=obj.get("escaped") or (),
    )
    return p


def _share(image, box, test) -> float:
    pixels = np.asarray(image.crop(box).convert("RGB")).astype(int)
    return float(test(pixels[..., 0], pixels[..., 1], pixels[..., 2]).mean())


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("which", ['"escaped": ["C"]', '"Ks", "Kh", "4d"'], ids=["escape", "home"])
def test_each_line_ends_in_its_score_in_its_colour(lang, which) -> None:
    p = _judged(which, lang)
    image = decode(render_settlement(p))
    assert image.size == draw_settlement.size(p) and image.width == draw_settlement.WIDTH
    right = image.width - MARGIN - 10
    y = draw_settlement.TOP
    for row, seat in enumerate(p.seats):
        lines = draw_settlement.seat_lines(p, seat)
        bottom = (
            y + draw_settlement.HEAD_H + sum(len(x.parts) for x in lines) * draw_settlement.LINE_H
        )
        # the seat's total on its first line, in its colour
        head = (right - 70, y + 6, right, y + draw_settlement.HEAD_H - 6)
        colour = green if seat.total > 0 else salmon if seat.total < 0 else light
        assert _share(image, head, colour) > 0.03, (seat.name, seat.total)
        ly = y + draw_settlement.HEAD_H
        for line in lines:
            score = (right - 50, ly + 2, right, ly + draw_settlement.LINE_H - 2)
            colour = green if line.points > 0 else salmon if line.points < 0 else light
            assert _share(image, score, colour) > 0.03, (seat.name, line)
            other = salmon if line.points > 0 else green
            assert _share(image, score, other) < 0.01, (seat.name, line)
            # the parts are written on every line of the line's height
            for i in range(len(line.parts)):
                top = ly + i * draw_settlement.LINE_H
                text = (
                    MARGIN + 24,
                    top + 4,
                    right - draw_settlement.SCORE_W,
                    top + draw_settlement.LINE_H - 4,
                )
                assert _share(image, text, light) > 0.02, (seat.name, line, i)
            ly += len(line.parts) * draw_settlement.LINE_H
        # the home run's block has a gold frame; the others none
        edge = (MARGIN + 10 - 10, y + 10, MARGIN + 10 - 6, bottom - 10)
        framed = _share(image, edge, gold) > 0.3
        assert framed == (p.home_run == row), (seat.name, p.home_run)
        y = bottom + draw_settlement.GAP
    assert y == draw_settlement.TOP + sum(
        draw_settlement.HEAD_H
        + sum(len(x.parts) for x in draw_settlement.seat_lines(p, s)) * draw_settlement.LINE_H
        + draw_settlement.GAP
        for s in p.seats
    )
