"""The 大结算 picture: drawn from a real match's summary, every language's
text in the shipped fonts, one row per player, the winner framed in gold."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.core.room import Room
from bot.i18n import LANGUAGES
from bot.pictures.canvas import GOLD
from bot.pictures.final import HEAD_H, ROW_H, final_picture, render_final, size
from bot.pictures.fonts import missing_glyphs
from bot.table.final import summary
from tests.table.helpers import make_manager, open_table, play_round


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_final_picture_of_a_played_match(repo, clock, lang):
    mgr, _ = make_manager(repo, clock)
    rid, actors = await open_table(mgr, 2, 2, options=["rounds=2"])
    for _ in range(2):
        st = await play_round(mgr, clock, rid, actors)
    records = await repo.room_settlements(rid, 1, 2)
    room = Room.from_json(st)
    final = summary(room, room.match, records)
    pic = final_picture(lang, final)
    assert len(pic.rows) == 4 and [r.total for r in pic.rows] == sorted(
        (r.total for r in pic.rows), reverse=True
    )
    for text in [pic.title, pic.subtitle, pic.biggest or ""] + [
        x for r in pic.rows for x in (r.name, r.counts, r.best)
    ]:
        assert missing_glyphs(text) == [], text
    image = Image.open(io.BytesIO(render_final(pic)))
    assert image.size == size(pic)
    # the winner's row is framed in gold (its left edge, half way down)
    x, y = 24, HEAD_H + ROW_H // 2
    assert any(
        all(abs(a - b) < 40 for a, b in zip(image.getpixel((x + dx, y))[:3], GOLD, strict=True))
        for dx in range(-2, 3)
    )
