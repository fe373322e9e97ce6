"""The page fills the last lane: at a phone's size with touch, a player who
places the tail first (tap a card, then the lane) and then the middle finds
the head filled with the three cards left; inside Telegram there is one
confirm (Telegram's MainButton), outside it the page's own."""

from __future__ import annotations

from typing import Any

from playwright.async_api import expect

from bot.i18n import t

from .gestures import calls, lanes_on_page, tap
from .harness import open_page, stage

TAIL = ["As", "Ks", "Qs", "Js", "9s"]  # a flush, seen first
MIDDLE = ["7c", "6c", "5h", "4d", "3s"]  # a straight
HEAD = ["8h", "8d", "2c"]  # what is left: a pair of eights


async def tap_into(page: Any, lane: str, tokens: list[str]) -> None:
    for token in tokens:
        await tap(page, f'[data-lane="hand"] [data-card="{token}"]')
        await tap(page, f'[data-lane-box="{lane}"] .lane-top')
        await page.locator(f'[data-lane="{lane}"] [data-card="{token}"]').wait_for()


async def test_the_tail_first_then_the_middle_and_the_head_fills_itself_in_telegram(browser):
    async with stage() as st:
        page = await open_page(browser, st, telegram=True)
        page.set_default_timeout(5000)
        zh = "zh-Hans"
        await expect(page.locator('[data-lane="hand"] [data-card]')).to_have_count(13)
        await tap_into(page, "tail", TAIL)
        await tap_into(page, "middle", MIDDLE[:4])
        shown = await lanes_on_page(page)
        assert shown["head"] == [] and len(shown["hand"]) == 4  # not before the second lane
        await tap_into(page, "middle", MIDDLE[4:])
        shown = await lanes_on_page(page)
        assert shown["hand"] == [] and sorted(shown["head"]) == sorted(HEAD)
        assert (shown["middle"], shown["tail"]) == (MIDDLE, TAIL)
        await expect(page.locator('[data-lane-label="head"]')).to_have_text(t(zh, "cat.one_pair"))

        # One confirm: Telegram's, enabled; the page's own bar is not shown.
        await expect(page.locator(".confirm-bar")).to_be_hidden()
        await expect(page.locator('[data-action="confirm"]')).to_be_hidden()
        made = await calls(page)
        main = [c for c in made if c[0].startswith("MainButton.")]
        assert main[-3:] == [
            ["MainButton.setText", t(zh, "web.confirm")],
            ["MainButton.enable"],
            ["MainButton.show"],
        ]

        # One undo takes back the move and the head it filled.
        await tap(page, '[data-action="undo"]')
        shown = await lanes_on_page(page)
        assert shown["head"] == [] and len(shown["hand"]) == 4 and len(shown["middle"]) == 4
        await tap_into(page, "middle", MIDDLE[4:])
        # A card taken out of the filled lane stays out: a move that does
        # not fill a second lane fills nothing.
        await tap(page, '[data-lane="head"] [data-card="2c"]')
        await tap(page, '[data-lane="hand"]')  # the emptied row, a slim place
        await page.locator('[data-lane="hand"] [data-card="2c"]').wait_for()
        shown = await lanes_on_page(page)
        assert shown["hand"] == ["2c"] and len(shown["head"]) == 2
        made = await calls(page)
        texts = [c[1] for c in made if c[0] == "MainButton.setText"]
        assert texts[-1] == t(zh, "web.confirm_wait", count=1)

        await page.evaluate("window.__pressMainButton()")  # not complete: nothing sent
        await tap_into(page, "head", ["2c"])
        await page.evaluate("window.__pressMainButton()")
        await expect(page.locator("[data-status]")).to_have_text(t(zh, "web.confirmed"))
        stored = await st.lanes(0)
        assert {lane: sorted(stored[lane]) for lane in stored} == {
            "head": sorted(HEAD),
            "middle": sorted(MIDDLE),
            "tail": sorted(TAIL),
        }
        assert page.problems == []


async def test_outside_telegram_the_page_shows_its_own_confirm(browser):
    async with stage(platform="discord", language="en") as st:
        page = await open_page(browser, st, telegram=False, locale="en-US")
        page.set_default_timeout(5000)
        await expect(page.locator('[data-lane="hand"] [data-card]')).to_have_count(13)
        await tap_into(page, "tail", TAIL)
        await tap_into(page, "middle", MIDDLE)
        shown = await lanes_on_page(page)
        assert sorted(shown["head"]) == sorted(HEAD)
        confirm = page.locator('[data-action="confirm"]')
        await expect(confirm).to_be_visible()
        await expect(confirm).to_have_text(t("en", "web.confirm"))
        await tap(page, '[data-action="confirm"]')
        await expect(page.locator("[data-status]")).to_have_text(t("en", "web.confirmed"))
        assert page.problems == []
