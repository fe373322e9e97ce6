"""The showdown's moments on the arranging page: nothing while the lanes
that decide a scoop (打枪) are face down, then, with the tail, the scoop
as the group's showdown says it (GET /api/showdown ``moments``), stamped on
the page of a phone (360 px, touch)."""

from __future__ import annotations

import re
from pathlib import Path

import aiohttp
from playwright.async_api import expect

from bot.i18n import t
from tests.table.helpers import SCOOPING_DEAL

from .api import STEP, bearer, confirm, indexes, served, showdown
from .harness import open_page, stage

SCOOPER, SCOOPED = SCOOPING_DEAL[:2]
SCOOPER_SPLIT = {
    "head": ["Kh", "Kd", "Kc"],
    "middle": ["As", "Ah", "Ad", "Ac", "2c"],
    "tail": ["9s", "Ts", "Js", "Qs", "Ks"],
}
SCOOPED_SPLIT = {
    "head": ["Jh", "7c", "4s"],
    "middle": ["6h", "6c", "3s", "3c", "2h"],
    "tail": ["Qd", "9d", "7d", "4d", "2d"],
}
SCOOP = {"kind": "scoop", "by": "P0", "of": "P1", "times": 2, "special": None}


async def test_the_scoop_comes_with_the_tail() -> None:
    async with served(hands=SCOOPING_DEAL[:2]) as (st, client):
        mine, theirs = st.pass_for(0, seconds=3600), st.pass_for(1, seconds=3600)
        await confirm(client, mine, SCOOPER_SPLIT, SCOOPER)
        await confirm(client, theirs, SCOOPED_SPLIT, SCOOPED)
        body = await showdown(client, theirs)
        assert body["revealed"] == ["head"] and body["moments"] == []
        await st.clock.advance(STEP)  # the middles: still nothing decided
        assert (await showdown(client, theirs))["moments"] == []
        await st.clock.advance(STEP)  # the tails: the scoop
        body = await showdown(client, theirs)
        assert body["revealed"] == ["head", "middle", "tail"]
        assert body["moments"] == [SCOOP]
        await st.clock.advance(2 * STEP)  # paid: from the stored round, the same
        body = await showdown(client, mine)
        assert body["complete"] and body["moments"] == [SCOOP]
        response = await client.get("/api/showdown", headers=bearer(theirs))
        assert (await response.json())["moments"] == [SCOOP]


async def test_the_page_stamps_the_scoop(browser, tmp_path: Path) -> None:
    async with stage(SCOOPING_DEAL[:2]) as st:
        page = await open_page(browser, st, telegram=True, player=1, viewport=(360, 740))
        page.set_default_timeout(8000)
        async with aiohttp.ClientSession() as http:
            for n, split, cards in ((0, SCOOPER_SPLIT, SCOOPER), (1, SCOOPED_SPLIT, SCOOPED)):
                async with http.post(
                    f"{st.base}/api/confirm",
                    json=indexes(split, cards),
                    headers=bearer(st.pass_for(n)),
                ) as answer:
                    assert answer.status == 200, await answer.text()
        box = page.locator("[data-showdown]")
        await expect(box).to_be_visible()
        stamps = page.locator("[data-moments]")
        await expect(stamps).to_be_hidden()  # the heads decide nothing
        await st.clock.advance(2 * STEP)  # the middles, the tails
        stamp = stamps.locator('[data-moment="scoop"]')
        await expect(stamp).to_have_count(1)
        zh = "zh-Hans"
        words = t(zh, "moment.times", text=t(zh, "moment.scoop", by="P0", of="P1"), times=2)
        await expect(stamp).to_have_text(words)
        await expect(stamp).to_have_class(re.compile(r"\blanding\b"))  # it lands, once
        # landing, it starts large: the page must not widen meanwhile
        assert await page.evaluate("document.documentElement.scrollWidth") <= 360
        await expect(stamps).to_be_visible()
        # a stamp, not a line of text: red, above the seats, within the phone's width
        colour = await stamp.evaluate("e => getComputedStyle(e).backgroundColor")
        assert colour == "rgb(200, 36, 40)"
        first_seat = page.locator("[data-seat]").first
        assert (await stamp.bounding_box())["y"] < (await first_seat.bounding_box())["y"]
        await st.clock.advance(2 * STEP)  # paid: still there, not stamped again
        await expect(box).to_have_attribute("data-complete", "true")
        await expect(stamps.locator(".moment")).to_have_count(1)
        await expect(stamps.locator(".landing")).to_have_count(0)
        assert await page.evaluate("document.documentElement.scrollWidth") <= 360
        await page.screenshot(path=str(tmp_path / "moment.png"), full_page=True)
        assert page.problems == []
