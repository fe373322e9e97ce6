"""The arranging page in a real browser (Debian's chromium, headless, a
phone-sized context with touch): opened as Telegram opens a Mini App and as
a Discord player's link opens it, against the page's real server over a
real table manager. Every word the page shows is the room's catalog's."""

from __future__ import annotations

import re
from typing import Any

from playwright.async_api import expect

from bot.core.hand import Hand
from bot.i18n import t
from bot.table.actions import Verb
from tests.table.helpers import act

from .gestures import calls, lanes_on_page, mouse_drag, tap, touch_drag
from .harness import HAND, OTHER, SIX_PAIRS, stage

# A fouled split of HAND: a pair of eights in the head over an ace-high
# middle over a jack-high tail.
FOULED = {
    "head": ["8h", "8d", "As"],
    "middle": ["Ks", "Qs", "7c", "5h", "3s"],
    "tail": ["Js", "9s", "6c", "4d", "2c"],
}


def tokens_of(hand: dict[str, Any], lanes: dict[str, list[int]]) -> dict[str, list[str]]:
    return {lane: [hand["cards"][i] for i in lanes[lane]] for lane in ("head", "middle", "tail")}


def sorted_lanes(lanes: dict[str, list[str]]) -> dict[str, list[str]]:
    return {lane: sorted(lanes[lane]) for lane in ("head", "middle", "tail")}


async def ready_page(page: Any, cards: int = 13) -> None:
    page.set_default_timeout(5000)
    await expect(page.locator("[data-lane] [data-card]")).to_have_count(cards)


async def test_a_telegram_player_drags_a_fouled_split_takes_a_suggestion_and_confirms(browser):
    async with stage() as st:
        page = await open_page_as_telegram(browser, st)
        await ready_page(page)
        zh = "zh-Hans"
        await expect(page.locator("[data-ready]")).to_have_text(
            t(zh, "web.ready", done=0, seated=2)
        )
        await expect(page.locator('[data-lane="hand"] [data-card]')).to_have_count(13)
        # Telegram's theme colours reach the page.
        background = await page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(255, 255, 255)"
        # The deadline counts down on the server's clock (120 s at the deal).
        clock = await page.locator("[data-deadline]").inner_text()
        assert re.fullmatch(t(zh, "web.deadline", time=r"(2:00|1:5\d)"), clock), clock

        # One card by finger, seven by mouse: a fouled split (the tail,
        # the five left once head and middle are full, fills itself).
        await touch_drag(page, "8h", "head")
        for lane in ("head", "middle"):
            for token in FOULED[lane]:
                if token != "8h":
                    await mouse_drag(page, token, lane)
        # (The order inside a lane is the player's to choose and means nothing.)
        placed = await lanes_on_page(page)
        assert placed["hand"] == [] and sorted_lanes(placed) == sorted_lanes(FOULED)

        # Each lane's category and the foul, as the rules engine says them.
        await expect(page.locator('[data-lane-label="head"]')).to_have_text(t(zh, "cat.one_pair"))
        await expect(page.locator('[data-lane-label="middle"]')).to_have_text(
            t(zh, "cat.high_card")
        )
        await expect(page.locator('[data-lane-label="tail"]')).to_have_text(t(zh, "cat.high_card"))
        foul = page.locator("[data-foul]")
        await expect(foul).to_have_count(1)
        pair = t(zh, "err.foul_pair", a=t(zh, "lane.head"), b=t(zh, "lane.middle"))
        await expect(foul).to_contain_text(pair)
        await expect(page.locator('[data-action="confirm"]')).to_be_disabled()
        # Inside Telegram one confirm: Telegram's MainButton, saying 倒水
        # before it is pressed; the page's own bar is hidden.
        await expect(page.locator(".confirm-bar")).to_be_hidden()
        assert (await main_button(page))["text"] == t(zh, "web.confirm_foul")
        assert (await main_button(page))["isActive"] is False
        # A drop on a full lane swaps: the card dropped on takes the moved
        # card's place, and every lane keeps its size. Undo takes it back.
        await mouse_drag(page, "As", "middle", source="head")
        after = await lanes_on_page(page)
        assert (len(after["head"]), len(after["middle"])) == (3, 5)
        assert "As" in after["middle"] and "As" not in after["head"]
        back = set(after["head"]) - set(FOULED["head"])
        assert len(back) == 1 and back <= set(FOULED["middle"])
        await page.locator('[data-action="undo"]').click()
        assert sorted_lanes(await lanes_on_page(page)) == sorted_lanes(FOULED)
        await expect(foul).to_have_count(1)
        # Dragging stored nothing: the draft is the page's until Confirm.
        stored = await st.hand(0)
        assert (stored["head"], stored["middle"], stored["done"]) == ([], [], False)

        made = await calls(page)
        assert ["ready"] in made and ["expand"] in made
        assert ["HapticFeedback.impactOccurred", "light"] in made  # each drop
        assert ["HapticFeedback.notificationOccurred", "error"] in made  # the foul
        assert ["enableClosingConfirmation"] in made  # a draft is unsent
        assert ["disableVerticalSwipes"] in made and ["enableVerticalSwipes"] in made
        waits = [c[1] for c in made if c[0] == "MainButton.setText"]
        assert waits[0] == t(zh, "web.confirm_wait", count=13)
        assert waits[-1] == t(zh, "web.confirm_foul")  # said before it is pressed

        # The solver's suggestions, with their expected points; one tap lays one out.
        await page.locator('[data-action="suggest"]').click()
        first = page.locator('[data-suggestion="0"]')
        await expect(first).to_be_visible()
        stored = await st.hand(0)
        best = stored["suggestions"][0]
        await expect(first).to_contain_text(t(zh, "web.suggestion", n=1))
        await expect(first).to_contain_text(f"{best['score']:+.2f}".replace("-", "\u2212"))
        await first.click()
        await expect(foul).to_have_count(0)
        shown = await lanes_on_page(page)
        assert sorted_lanes(shown) == sorted_lanes(
            {lane: best[lane] for lane in ("head", "middle", "tail")}
        )
        for lane in ("head", "middle", "tail"):
            await expect(page.locator(f'[data-lane-label="{lane}"]')).not_to_have_text("")
        await expect(first).to_have_attribute("aria-pressed", "true")

        # Confirm on the MainButton: the table stores exactly these lanes, once.
        assert await main_button(page) == {
            "text": t(zh, "web.confirm"),
            "isActive": True,
            "isVisible": True,
        }
        await page.evaluate("window.__pressMainButton()")
        await expect(page.locator("[data-status]")).to_have_text(t(zh, "web.confirmed"))
        stored = await st.hand(0)
        assert stored["done"] is True
        assert sorted_lanes(Hand.from_json(stored).arrangement_tokens()) == sorted_lanes(shown)
        await expect(page.locator("[data-ready]")).to_have_text(
            t(zh, "web.ready", done=1, seated=2)
        )
        await expect(page.locator('[data-action="confirm"]')).to_be_hidden()
        made = await calls(page)
        assert ["MainButton.showProgress", False] in made
        assert made.index(["disableClosingConfirmation"]) > made.index(
            ["MainButton.showProgress", False]
        )
        assert [c for c in made if c[0].startswith("MainButton.")][-1] == ["MainButton.hide"]
        assert ["HapticFeedback.notificationOccurred", "success"] in made
        assert page.problems == []


async def main_button(page: Any) -> dict[str, Any]:
    """Telegram's MainButton as the client would show it (the stub's state)."""
    return await page.evaluate(
        "(() => { const b = Telegram.WebApp.MainButton;"
        " return {text: b.text, isActive: b.isActive, isVisible: b.isVisible}; })()"
    )


async def open_page_as_telegram(browser: Any, st: Any, **kw: Any) -> Any:
    from .harness import open_page

    return await open_page(browser, st, telegram=True, **kw)


async def test_a_discord_link_arranges_sixteen_cards_by_taps_in_english(browser):
    """#pass=… (no Telegram): 多三张 by tapping a card then a lane, a swap,
    undo, reset, sort by suit; once the lanes are full the three cards left
    sit in their own place, data-lane="discard", and swap like a full lane's."""
    from .harness import open_page

    extra = (HAND + ["Tc", "Jc", "Qc"], OTHER + ["Kd", "Qd", "Jd"])
    async with stage(extra, platform="discord", language="en", options=["extra3=on"]) as st:
        page = await open_page(browser, st, telegram=False, locale="en-US")
        await ready_page(page, 16)
        en = "en"
        await expect(page.locator("[data-discard-note]")).to_have_text(
            t(en, "web.hint_extra", count=3)
        )
        ace = page.locator('[data-card="As"]')
        await expect(ace).to_have_attribute(
            "aria-label", t(en, "web.card", rank=t(en, "web.rank.14"), suit=t(en, "web.suit.s"))
        )
        await expect(page.locator("html")).to_have_attribute("lang", "en")
        assert await page.title() == t(en, "web.title", round=1)

        # Sort by suit: spades first, then hearts, diamonds, clubs, high to low.
        await tap(page, '[data-action="sort-suit"]')
        order = (await lanes_on_page(page))["hand"]
        assert order[:5] == ["As", "Ks", "Qs", "Js", "9s"] and order[-1] == "2c"

        plan = {
            "head": ["8h", "8d", "2c"],
            "middle": ["7c", "6c", "5h", "4d", "3s"],
            "tail": ["As", "Ks", "Qs", "Js", "9s"],
        }
        for lane, tokens in plan.items():
            for token in tokens:
                await tap(page, f'[data-lane="hand"] [data-card="{token}"]')
                await tap(page, f'[data-lane-box="{lane}"] .lane-top')
        left = ["Qc", "Jc", "Tc"]
        full = {"hand": [], "discard": left, **plan}
        assert await lanes_on_page(page) == full
        discard = page.locator('[data-lane-box="discard"]')
        await expect(discard).to_be_visible()
        await expect(discard.locator("[data-discard-title]")).to_have_text(
            t(en, "web.discarded", count=3)
        )
        await expect(page.locator('[data-lane="discard"]')).to_have_attribute(
            "aria-label", t(en, "web.discarded", count=3)
        )
        # The emptied row is a slim place to drop cards back, without its title.
        await expect(page.locator("[data-hand-title]")).to_be_hidden()
        slim = await page.locator('[data-lane-box="hand"]').bounding_box()
        lane = await page.locator('[data-lane-box="head"]').bounding_box()
        assert slim is not None and lane is not None and slim["height"] < lane["height"] / 3
        await expect(page.locator('[data-lane-label="tail"]')).to_have_text(t(en, "cat.flush"))
        await expect(page.locator('[data-lane-label="middle"]')).to_have_text(t(en, "cat.straight"))
        # The catalog's names are lower case (the chats use them in sentences);
        # standing alone as a lane's label they are shown with a capital.
        for lane, key in (("head", "cat.one_pair"), ("middle", "cat.straight")):
            name = t(en, key)
            assert name[0].islower()
            shown = await page.locator(f'[data-lane-label="{lane}"]').inner_text()
            assert shown == name[0].upper() + name[1:]

        # A tap on a full lane's card with a discarded one selected swaps the
        # two; undo takes it back; reset empties every lane; undo restores.
        await tap(page, '[data-lane="discard"] [data-card="Qc"]')
        await tap(page, '[data-lane="tail"] [data-card="9s"]')
        swapped = await lanes_on_page(page)
        assert "Qc" in swapped["tail"] and "9s" in swapped["discard"] and swapped["hand"] == []
        await tap(page, '[data-action="undo"]')
        assert await lanes_on_page(page) == full
        # A card tapped onto a full lane swaps with its last card: lanes stay 3/5/5.
        await tap(page, '[data-lane="discard"] [data-card="Jc"]')
        await tap(page, '[data-lane-box="middle"] .lane-top')
        swapped = await lanes_on_page(page)
        assert len(swapped["middle"]) == 5 and swapped["middle"][-1] == "Jc"
        assert "3s" in swapped["discard"]
        await tap(page, '[data-action="undo"]')
        # A lane's card tapped onto the discarded ones swaps with the last of them.
        await tap(page, '[data-lane="head"] [data-card="2c"]')
        await tap(page, '[data-lane-box="discard"] .lane-top')
        swapped = await lanes_on_page(page)
        assert swapped["head"] == ["8h", "8d", "Tc"] and swapped["discard"] == ["Qc", "Jc", "2c"]
        await tap(page, '[data-action="undo"]')
        await tap(page, '[data-action="reset"]')
        after = await lanes_on_page(page)
        assert len(after["hand"]) == 16 and after["discard"] == []
        await expect(discard).to_be_hidden()
        await tap(page, '[data-action="undo"]')
        assert await lanes_on_page(page) == full
        # Dragged from the discarded ones onto a full lane: a swap too.
        await mouse_drag(page, "Tc", "tail", source="discard")
        swapped = await lanes_on_page(page)
        assert "Tc" in swapped["tail"] and len(swapped["tail"]) == 5
        assert len(swapped["discard"]) == 3 and "Tc" not in swapped["discard"]
        await tap(page, '[data-action="undo"]')
        assert await lanes_on_page(page) == full

        await expect(page.locator("[data-foul]")).to_have_count(0)
        await tap(page, '[data-action="confirm"]')
        await expect(page.locator("[data-status]")).to_have_text(t(en, "web.confirmed"))
        stored = await st.hand(0)
        assert stored["done"] is True
        assert sorted_lanes(Hand.from_json(stored).arrangement_tokens()) == sorted_lanes(plan)
        assert page.problems == []


async def test_the_chat_keyboard_shows_in_the_page_and_main_button_confirms(browser):
    """One hand state: taps on the private message's keyboard (the table's
    PICK actions) appear in the open page; Telegram's MainButton confirms.
    The room's fixed wild rank marks its cards."""
    async with stage(options=["wild=6"]) as st:
        page = await open_page_as_telegram(browser, st)
        await ready_page(page)
        zh = "zh-Hans"
        six = page.locator('[data-card="6c"]')
        await expect(six).to_have_class(re.compile(r"\bwild\b"))
        label = t(zh, "web.card", rank=t(zh, "web.rank.6"), suit=t(zh, "web.suit.c"))
        await expect(six).to_have_attribute("aria-label", t(zh, "web.card_wild", card=label))
        await expect(page.locator("[data-notes]")).to_have_text(t(zh, "web.wild_note", rank="6"))

        hand = await st.hand(0)
        player = st.players[0]
        picks = ["8h", "8d", "2c", "7c", "6c", "5h", "4d", "3s"]
        for token in picks:
            out = await act(
                st.manager,
                player,
                Verb.PICK,
                str(hand["cards"].index(token)),
                room_id=st.room,
                round_no=st.round_no,
            )
            assert out.ok, out.reply
        # The page polls every few seconds: the head, middle and the rest as the tail.
        await expect(page.locator('[data-lane="tail"] [data-card]')).to_have_count(5, timeout=8000)
        shown = await lanes_on_page(page)
        assert shown["head"] == picks[:3] and shown["middle"] == picks[3:]

        await expect(page.locator('[data-lane-label="tail"]')).to_have_text(t(zh, "cat.flush"))
        await expect(page.locator('[data-action="confirm"]')).to_be_enabled()
        # The page shows the stored hand: closing it loses nothing, so
        # Telegram is not asked to confirm a close.
        assert ["enableClosingConfirmation"] not in await calls(page)
        main = [c for c in await calls(page) if c[0].startswith("MainButton.")]
        assert main[-3:] == [
            ["MainButton.setText", t(zh, "web.confirm")],
            ["MainButton.enable"],
            ["MainButton.show"],
        ]
        await page.evaluate("window.__pressMainButton()")
        await expect(page.locator("[data-status]")).to_have_text(t(zh, "web.confirmed"))
        stored = await st.hand(0)
        assert stored["done"] is True
        assert Hand.from_json(stored).arrangement_tokens()["head"] == picks[:3]
        made = await calls(page)
        assert ["MainButton.showProgress", False] in made and ["MainButton.hideProgress"] in made
        assert page.problems == []


async def test_a_special_hand_is_declared_from_a_discord_link_in_traditional_chinese(browser):
    from .harness import open_page

    async with stage((SIX_PAIRS, HAND), platform="discord", language="zh-Hant") as st:
        page = await open_page(browser, st, telegram=False, locale="zh-TW")
        await ready_page(page)
        tw = "zh-Hant"
        name = t(tw, "special.six_pairs")
        offer = page.locator("[data-special]")
        await expect(offer).to_contain_text(name)
        await page.locator('[data-action="declare"]').click()
        await expect(page.locator("[data-status]")).to_have_text(
            t(tw, "web.declared", special=name)
        )
        stored = await st.hand(0)
        assert stored["done"] is True and stored["declared"]
        await expect(page.locator("[data-ready]")).to_have_text(
            t(tw, "web.ready", done=1, seated=2)
        )
        # Confirmed cards are no longer buttons.
        await expect(page.locator('[data-card][role="button"]')).to_have_count(0)
        assert page.problems == []


async def test_the_page_opened_with_no_room_says_where_it_opens_from(browser):
    """Opened as the bot's Mini App with no pointer to a hand (no room in the
    address, no startapp): the page says, in the player's language, to open
    it from the hand's button or the group's table, and offers nothing to do."""
    from .harness import open_url, stub_config

    async with stage() as st:
        page = await open_url(browser, f"{st.base}/app/", stub_config(st, telegram=True))
        fatal = page.locator("[data-fatal]")
        await expect(fatal).to_have_text(t("zh-Hans", "web.err.open_from_hand"))
        await expect(page.locator("[data-card]")).to_have_count(0)
        assert await page.locator("html").get_attribute("lang") == "zh-Hans"
