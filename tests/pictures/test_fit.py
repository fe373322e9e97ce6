"""Words that fit their pictures, in every language and at every table size:
the settlement's key under the table is wrapped, never cut; a lane's hand
and a special's banner fit their places; and a special's banner says what
was paid (banker mode's ±7 cap, the extended preset's doubling)."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
from PIL import Image, ImageChops

from bot.cli.jsonl import rules_from
from bot.cli.judge import judge
from bot.cli.picture import _hands, picture
from bot.i18n import LANGUAGES, t
from bot.pictures import (
    draw_settlement,
    draw_showdown,
    judged_pictures,
    render_settlement,
    render_showdown,
)
from bot.pictures.canvas import GOLD, GOLD_INK, SOFT, felt, pill
from bot.pictures.fonts import draw_text, fitting_size, text_width
from bot.pictures.model import PairCell, SettlementPicture, SettleSeat
from bot.rules.types import Category, SpecialHand
from tests.docs.judge_examples import examples

from .pixels import decode


def text_ink(image: Image.Image) -> np.ndarray:
    """Where light text lies on the felt (the felt's red stays under 60)."""
    pixels = np.asarray(image.convert("RGB")).astype(int)
    return pixels[..., 0] > 100


def one_line_ink(text: str, size: int) -> int:
    """The text's ink drawn whole on one line: what a wrapped copy holds too."""
    canvas = felt(round(text_width(text, size)) + 40, size * 3)
    draw_text(canvas, (20, size * 1.5), text, size, SOFT)
    return int(text_ink(canvas).sum())


def table(lang: str, seats: int, room: bool, home_run: int | None) -> SettlementPicture:
    names = ("小明🐟", "Alice", "陳大文", "王小二", "🀄雀神")[:seats]
    return SettlementPicture(
        lang,
        3 if room else None,
        tuple(SettleSeat(n, 0, 0 if room else None) for n in names),
        tuple(PairCell(a, b, 1, (1, -1, 1)) for a in range(seats) for b in range(a + 1, seats)),
        home_run,
    )


def check_footer(image: Image.Image, top: int, lang: str) -> None:
    """The key to the cells below ``top``: all of it drawn (as much ink as
    the whole text on one line: a cut text has 10 % less and more), inside
    the picture, clear of its edges."""
    ink = text_ink(image.crop((0, top, image.width, image.height)))
    rows, cols = np.nonzero(ink)
    assert rows.size, "the key is drawn"
    assert top + rows.max() < image.height - 12, "no text at the bottom edge"
    assert cols.min() >= 12 and cols.max() < image.width - 12, "no text at the sides"
    whole = one_line_ink(t(lang, "pic.result_hint"), draw_settlement.HINT_SIZE)
    # (6 %: the felt darkens towards the edges of a tall picture, thinning the
    # anti-aliased edges; a cut key loses 10 % and more)
    assert abs(int(ink.sum()) - whole) <= 0.06 * whole, (int(ink.sum()), whole)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("seats", [2, 3, 4, 5])
@pytest.mark.parametrize("room", [True, False], ids=["room", "judged"])
def test_the_settlements_key_fits(lang, seats, room) -> None:
    for home_run in (None, 0) if seats >= 3 else (None,):
        p = table(lang, seats, room, home_run)
        image = decode(render_settlement(p))
        assert image.size == draw_settlement.size(p)
        check_footer(image, draw_settlement.hint_top(p), lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_judged_rounds_picture_has_the_whole_key(lang) -> None:
    """``thirteen picture`` of docs/judge.md's 3-player example: the settlement
    under the showdown, its key whole (it was cut short in English)."""
    line = examples("judge")[0][0][0]
    image = decode(picture(line, lang))
    obj = json.loads(line)
    show, settlement = judged_pictures(_hands(obj), judge(obj), rules_from(obj, 3), lang)
    assert show.moments, "its scoops are stamped under the showdown"
    check_footer(
        image, draw_showdown.picture_size(show)[1] + draw_settlement.hint_top(settlement), lang
    )


def banker_showdown(lang: str):
    """docs/judge.md's banker example: B's dragon (36) pays 7 against the banker."""
    line = next(x for inputs, *_ in examples("judge") for x in inputs if '"banker": "A"' in x)
    obj = json.loads(line)
    show, _ = judged_pictures(
        _hands(obj), judge(obj), rules_from(obj, 4), lang, banker=obj["banker"]
    )
    return show


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_capped_specials_banner_shows_what_was_paid(lang) -> None:
    show = banker_showdown(lang)
    dragon = show.seats[1]
    assert (dragon.special, dragon.special_points, dragon.special_paid) == (
        SpecialHand.DRAGON,
        36,
        7,
    )
    paid = t(
        lang,
        "pic.special_capped",
        special=t(lang, "special.dragon"),
        paid=7,
        points=36,
        cap=7,
    )
    worth = t(lang, "pic.special_points", special=t(lang, "special.dragon"), points=36)
    assert "7" in paid.replace("36", "") and draw_showdown.banner_text(lang, dragon) == paid
    # Pixels: the picture is the same picture without the banner, plus a
    # banner pill of exactly those words (and not of the hand's worth).
    image = decode(render_showdown(show))
    plain = dataclasses.replace(dragon, special=None)
    seats = (show.seats[0], plain, *show.seats[2:])
    bare = decode(render_showdown(dataclasses.replace(show, seats=seats)))
    for words, same in ((paid, True), (worth, False)):
        expected = bare.copy()
        center = (draw_showdown.BANNER_X, draw_showdown.label_center(1))
        pill(
            expected,
            center,
            words,
            draw_showdown.BANNER_SIZE,
            fill=GOLD,
            ink=GOLD_INK,
            max_width=draw_showdown.BANNER_W,
        )
        assert (ImageChops.difference(image, expected).getbbox() is None) is same, words


def test_a_doubled_special_says_so() -> None:
    """Extended, 3 players: B's dragon (26) beats everyone and is doubled to 52."""
    line = json.loads(examples("judge")[0][0][0])
    line["preset"] = "extended"
    line.pop("options")
    show, _ = judged_pictures(_hands(line), judge(line), rules_from(line, 3), "zh-Hans")
    dragon = show.seats[1]
    assert (dragon.special_points, dragon.special_paid) == (26, 52)
    assert draw_showdown.banner_text("zh-Hans", dragon).startswith(
        "报道 一条龙 · 52 分（本为 26 分"
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_lane_labels_and_banners_fit_without_cutting(lang) -> None:
    """Every hand's name fits under the narrowest lane (drawn at most a
    quarter smaller: "three of a kind" under a head), every banner under
    the lanes."""
    smallest = round(draw_showdown.LABEL_SIZE * 0.75)
    for category in Category:
        text = t(lang, f"cat.{category.slug}")
        size = fitting_size(
            text,
            draw_showdown.LABEL_SIZE,
            draw_showdown.LANE_W[0] - 16,
            bold=True,
            smallest=smallest,
        )
        assert text_width(text, size, bold=True) <= draw_showdown.LANE_W[0] - 16, (lang, text)
    smallest = round(draw_showdown.BANNER_SIZE * 0.75)
    for special in SpecialHand:
        name = t(lang, f"special.{special.value}")
        for key in ("pic.special_points", "pic.special_capped", "pic.special_doubled"):
            text = t(lang, key, special=name, points=104, paid=208, cap=7)
            size = fitting_size(
                text,
                draw_showdown.BANNER_SIZE,
                draw_showdown.BANNER_W,
                bold=True,
                smallest=smallest,
            )
            assert text_width(text, size, bold=True) <= draw_showdown.BANNER_W, (lang, text)
