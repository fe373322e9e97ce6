"""The arranging page as a Discord Activity, in Debian's chromium: framed by
a host page that plays Discord's client (tests/web/discord_client.py), served
through the proxy's URL mappings, its login checked by the page's server
against a local fake of Discord (tests/web/discord_fake.py). A whole round
at a phone's size with touch: placed, confirmed, shown and settled."""

from __future__ import annotations

from typing import Any

from playwright.async_api import expect

from bot.core.hand import Hand
from bot.i18n import t

from .api import GOOD, STEP, bearer, indexes
from .discord_client import PROXY, open_activity
from .discord_fake import CHANNEL, fake_discord
from .gestures import lanes_on_page, place, press_confirm
from .harness import OTHER, stage

OTHER_GOOD = {  # the other seat's legal split (a flush over a flush over ten high)
    "head": ["2h", "5d", "Td"],
    "middle": ["9h", "7h", "6h", "4h", "3h"],
    "tail": ["Ah", "Kh", "Qh", "Jh", "Th"],
}


async def test_a_whole_round_in_the_activity_at_a_phone_s_size(browser: Any) -> None:
    async with (
        fake_discord() as fake,
        stage(platform="discord", chat=CHANNEL, activity=fake.config(), arrange_seconds=120) as st,
    ):
        me = st.players[0].user_id
        instance = fake.instance([me, st.players[1].user_id])
        code = fake.code_for(me)
        page, frame = await open_activity(
            browser, st.base, code=code, user_id=me, instance_id=instance
        )
        page.set_default_timeout(8000)
        zh = "zh-Hans"
        await expect(frame.locator(".board [data-card]")).to_have_count(13)
        # The SDK's handshake, then authorize, then authenticate with the
        # token the page's server got for that code.
        rpc = await page.evaluate("window.__rpc")
        assert rpc[0].startswith("HANDSHAKE ")
        assert rpc[1:3] == ["AUTHORIZE", "AUTHENTICATE"]
        assert await page.evaluate("window.__authenticated") in fake.tokens
        assert fake.calls == ["token", "me", "instance"]
        await expect(frame.locator("html")).to_have_attribute("data-host", "discord")
        await expect(frame.locator("html")).to_have_attribute("data-platform", "mobile")
        await expect(frame.locator("[data-ready]")).to_have_text(
            t(zh, "web.ready", done=0, seated=2)
        )

        # Discord's phone client gives its safe area on the page's root: the
        # page keeps its title below the notch and its confirm above the bar.
        top = "document.querySelector('.bar').getBoundingClientRect().top"
        assert await frame.evaluate(top) < 40
        await frame.evaluate(
            "() => { const s = document.documentElement.style;"
            " s.setProperty('--discord-safe-area-inset-top', '44px');"
            " s.setProperty('--discord-safe-area-inset-bottom', '34px'); }"
        )
        assert await frame.evaluate(top) >= 44
        bar = await frame.evaluate(
            "getComputedStyle(document.querySelector('.confirm-bar')).paddingBottom"
        )
        assert float(bar.removesuffix("px")) >= 34

        # By finger: each lane's first card dragged, the others tapped.
        await place(frame, GOOD, touch=True)
        lanes = await lanes_on_page(frame)
        assert {lane: sorted(lanes[lane]) for lane in GOOD} == {
            lane: sorted(GOOD[lane]) for lane in GOOD
        }
        await expect(frame.locator('[data-action="confirm"]')).to_be_enabled()
        await press_confirm(frame)  # the page's own button: no Telegram here
        await expect(frame.locator("[data-status]")).to_have_text(t(zh, "web.confirmed"))
        hand = await st.hand(0)
        assert hand["done"]
        assert {k: sorted(v) for k, v in Hand.from_json(hand).arrangement_tokens().items()} == {
            lane: sorted(GOOD[lane]) for lane in GOOD
        }

        # The other player confirms (through the API), the round is shown and paid.
        import aiohttp

        async with (
            aiohttp.ClientSession() as http,
            http.post(
                f"{st.base}/api/confirm",
                json=indexes(OTHER_GOOD, OTHER),
                headers=bearer(st.pass_for(1)),
            ) as answer,
        ):
            assert answer.status == 200, await answer.text()
        box = frame.locator("[data-showdown]")
        await expect(box).to_be_visible()
        await st.clock.advance(4 * STEP)  # the rest of the showdown and the pay
        await expect(box).to_have_attribute("data-complete", "true")
        state = await st.state()
        assert state["round"]["settled"]
        total = state["round"]["result"]["settlement"]["totals"][st.players[0].key]
        mine = frame.locator(f'[data-seat="{st.players[0].key}"] [data-total]')
        await expect(mine).to_have_attribute("data-total", str(total))
        # Fits the phone's frame; nothing failed on the way (CSP included).
        assert await frame.evaluate("document.documentElement.scrollWidth") <= 390
        assert page.problems == []
        # Every request of the page went through the proxy's origin.
        assert frame.frame.url.startswith(PROXY)


async def test_a_player_who_declines_discord_s_prompt_is_told_and_nothing_is_asked(
    browser: Any,
) -> None:
    async with (
        fake_discord() as fake,
        stage(platform="discord", chat=CHANNEL, activity=fake.config(), language="en") as st,
    ):
        me = st.players[0].user_id
        before = await st.state()
        page, frame = await open_activity(
            browser,
            st.base,
            code=fake.code_for(me),
            user_id=me,
            instance_id=fake.instance([me]),
            locale="en-US",
            decline=True,
        )
        page.set_default_timeout(8000)
        await expect(frame.locator("[data-fatal]")).to_have_text(t("en", "web.err.activity_login"))
        assert await page.evaluate("window.__rpc.slice(1)") == ["AUTHORIZE"]
        assert fake.calls == []  # the page's server asked Discord nothing
        assert await st.state() == before
