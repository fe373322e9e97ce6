"""The page's draft kept as the page goes away: hidden (another app, another
tab), closed, or put away by Telegram's client, a draft changed since the
stored hand was last seen is sent to POST /api/lay (a keepalive fetch with
the pass), so the private hand in the chat shows it. In Debian's chromium
against the real server over a real table manager."""

from __future__ import annotations

import asyncio
from typing import Any

from playwright.async_api import expect

from .gestures import filled_itself, lanes_on_page, press_confirm, tap
from .harness import HAND, OTHER, open_page, stage

HIDE = """() => {
    Object.defineProperty(document, 'visibilityState', {value: 'hidden', configurable: true});
    Object.defineProperty(document, 'hidden', {value: true, configurable: true});
    document.dispatchEvent(new Event('visibilitychange'));
}"""
SHOW = """() => {
    Object.defineProperty(document, 'visibilityState', {value: 'visible', configurable: true});
    Object.defineProperty(document, 'hidden', {value: false, configurable: true});
    document.dispatchEvent(new Event('visibilitychange'));
}"""


async def ready(page: Any, cards: int = 13) -> None:
    page.set_default_timeout(5000)
    await expect(page.locator('[data-lane="hand"] [data-card]')).to_have_count(cards)


async def place(page: Any, lanes: dict[str, list[str]]) -> None:
    """Tap each card, then its lane."""
    for lane, tokens in lanes.items():
        if await filled_itself(page, lane, tokens):
            continue  # the last lane took the rest by itself
        for token in tokens:
            await tap(page, f'[data-lane="hand"] [data-card="{token}"]')
            await tap(page, f'[data-lane-box="{lane}"] .lane-top')


async def stored_becomes(st: Any, expected: dict[str, list[str]]) -> dict[str, list[str]]:
    """The stored hand's lanes once they are ``expected`` (or after a few
    seconds of waiting, whatever they are then)."""
    lanes = await st.lanes(0)
    for _ in range(100):
        if lanes == expected:
            break
        await asyncio.sleep(0.05)
        lanes = await st.lanes(0)
    return lanes


def lay_requests(page: Any) -> list[Any]:
    """The page's POST /api/lay requests from now on."""
    seen: list[Any] = []
    page.on("request", lambda r: seen.append(r) if r.url.endswith("/api/lay") else None)
    return seen


async def test_a_draft_is_stored_when_the_page_is_closed(browser: Any) -> None:
    """Telegram closes the Mini App: the cards placed so far (a head and part
    of the middle, 13 cards) are on the stored hand, exactly as placed."""
    async with stage() as st:
        page = await open_page(browser, st, telegram=True)
        await ready(page)
        plan = {"head": ["8h", "8d", "2c"], "middle": ["As", "Ks"]}
        await place(page, plan)
        assert await st.lanes(0) == {"head": [], "middle": [], "tail": []}
        assert page.problems == []
        await page.close(run_before_unload=True)
        stored = await stored_becomes(st, {**plan, "tail": []})
        assert stored == {**plan, "tail": []}
        assert (await st.hand(0))["done"] is False


async def test_a_sixteen_card_draft_is_stored_when_the_page_is_hidden_once_per_change(
    browser: Any,
) -> None:
    """A Discord link (the pass in the fragment), 多三张: the page hidden
    sends the whole draft, the tail and the three left out too; hidden again
    with nothing changed, nothing is sent; a change, then hidden, is sent."""
    extra = (HAND + ["Tc", "Jc", "Qc"], OTHER + ["Kd", "Qd", "Jd"])
    async with stage(extra, platform="discord", language="en", options=["extra3=on"]) as st:
        page = await open_page(browser, st, telegram=False, locale="en-US")
        await ready(page, 16)
        # Opened and hidden with nothing placed: nothing to send.
        sent = lay_requests(page)
        await page.evaluate(HIDE)
        async with page.expect_response("**/api/hand"):
            await page.evaluate(SHOW)
        plan = {
            "head": ["8h", "8d", "2c"],
            "middle": ["7c", "6c", "5h", "4d", "3s"],
            "tail": ["As", "Ks", "Qs", "Js", "Tc"],
        }
        await place(page, plan)
        assert sorted((await lanes_on_page(page))["discard"]) == ["9s", "Jc", "Qc"]
        assert sent == []
        async with page.expect_response("**/api/lay") as answer:
            await page.evaluate(HIDE)
        response = await answer.value
        assert response.ok and response.request.headers["authorization"].startswith("Bearer ")
        assert await st.lanes(0) == plan
        assert (await st.hand(0))["done"] is False
        assert len(sent) == 1
        # Shown and hidden again, nothing changed: nothing sent (a send would
        # be asked for before the page's next look at its hand).
        await page.evaluate(SHOW)
        await page.evaluate(HIDE)
        async with page.expect_response("**/api/hand"):
            await page.evaluate(SHOW)
        assert len(sent) == 1
        # One swap (Qc for Tc in the tail), then hidden: stored too.
        await page.evaluate(SHOW)
        await tap(page, '[data-lane="discard"] [data-card="Qc"]')
        await tap(page, '[data-lane="tail"] [data-card="Tc"]')
        async with page.expect_response("**/api/lay"):
            await page.evaluate(HIDE)
        swapped = {**plan, "tail": ["As", "Ks", "Qs", "Js", "Qc"]}
        assert await st.lanes(0) == swapped
        assert len(sent) == 2
        assert page.problems == []


async def test_telegram_putting_the_page_away_stores_the_draft_but_not_after_confirm(
    browser: Any,
) -> None:
    """Telegram's "deactivated" (the Mini App minimized) sends the draft;
    once the hand is confirmed, nothing more is sent."""
    async with stage() as st:
        page = await open_page(browser, st, telegram=True)
        await ready(page)
        sent = lay_requests(page)
        plan = {"head": ["8h", "8d", "2c"]}
        await place(page, plan)
        async with page.expect_response("**/api/lay"):
            await page.evaluate("window.__telegramEvent('deactivated')")
        assert await st.lanes(0) == {**plan, "middle": [], "tail": []}

        rest = {
            "middle": ["7c", "6c", "5h", "4d", "3s"],
            "tail": ["As", "Ks", "Qs", "Js", "9s"],
        }
        await place(page, rest)
        await press_confirm(page)
        await expect(page.locator("[data-status]")).to_be_visible()
        assert (await st.hand(0))["done"] is True
        await page.evaluate("window.__telegramEvent('deactivated')")
        await page.evaluate(HIDE)
        async with page.expect_response("**/api/hand"):
            await page.evaluate(SHOW)
        assert len(sent) == 1
        assert page.problems == []
