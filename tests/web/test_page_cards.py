"""The cards of the decks with more than 52 cards on the arranging page, in
Debian's chromium against the real server over a real table manager: the
jokers (大王 / 小王) and the 65-card deck of five players (加一色), whose
added suit is dealt twice, so a hand can hold one card twice."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
from playwright.async_api import expect

from bot.core.hand import Hand
from bot.i18n import t
from bot.rules.cards import DeckSpec

from .gestures import filled_itself, lanes_on_page, press_confirm, tap
from .harness import open_page, stage

JOKERS = ["BJ", "SJ", "As", "Ah", "Kd", "Qc", "Jc", "9h", "8s", "7d", "5c", "4s", "3h"]
JOKERS_OTHER = ["Ks", "Kh", "Qs", "Qh", "Jd", "Td", "9d", "8d", "7c", "6c", "5d", "4d", "2c"]
# A legal split: high card, a pair of aces, and the jokers making a straight.
JOKER_SPLIT = {
    "head": ["5c", "4s", "3h"],
    "middle": ["As", "Ah", "Kd", "Qc", "Jc"],
    "tail": ["BJ", "SJ", "9h", "8s", "7d"],
}
JOKER_CATEGORIES = {"head": "cat.high_card", "middle": "cat.one_pair", "tail": "cat.straight"}

# Five players, spades the added suit: the ace, king and queen of spades
# twice in seat 0's hand, one of each in the head and one in the tail
# (a straight flush); the middle a straight.
ADDED = ["As", "As", "Ks", "Ks", "Qs", "Qs", "Js", "Ts", "9h", "8h", "7h", "6h", "5d"]
ADDED_SPLIT = {
    "head": ["As", "Ks", "Qs"],
    "middle": ["9h", "8h", "7h", "6h", "5d"],
    "tail": ["As", "Ks", "Qs", "Js", "Ts"],
}
ADDED_CATEGORIES = {"head": "cat.high_card", "middle": "cat.straight", "tail": "cat.straight_flush"}


def five_hands() -> list[list[str]]:
    """ADDED for seat 0 and the rest of the 65-card deck for the other four."""
    rest = Counter(card.token for card in DeckSpec(added_suit="s").cards())
    rest.subtract(ADDED)
    left = sorted(rest.elements())
    assert len(left) == 52
    return [ADDED, *(left[i * 13 : (i + 1) * 13] for i in range(4))]


async def ready(page: Any) -> None:
    page.set_default_timeout(5000)
    await expect(page.locator('[data-lane="hand"] [data-card]')).to_have_count(13)


async def place(page: Any, split: dict[str, list[str]]) -> None:
    """Tap each card (the first of its kind still in the row), then its lane."""
    for lane, tokens in split.items():
        if await filled_itself(page, lane, tokens):
            continue  # the last lane took the rest by itself
        for token in tokens:
            await page.locator(f'[data-lane="hand"] [data-card="{token}"]').first.tap()
            await tap(page, f'[data-lane-box="{lane}"] .lane-top')


def multiset(lanes: dict[str, list[str]]) -> dict[str, list[str]]:
    return {lane: sorted(lanes[lane]) for lane in ("head", "middle", "tail")}


@pytest.mark.parametrize(
    ("language", "locale", "telegram"),
    [("zh-Hans", "zh-CN", True), ("en", "en-US", False)],
    ids=["zh-Hans-telegram", "en-discord"],
)
async def test_jokers_show_their_faces_and_names_and_are_placed(
    browser: Any, language: str, locale: str, telegram: bool
) -> None:
    platform = "telegram" if telegram else "discord"
    async with stage(
        (JOKERS, JOKERS_OTHER),
        platform=platform,
        language=None if language == "zh-Hans" else language,
        options=["jokers=2"],
    ) as st:
        page = await open_page(browser, st, telegram=telegram, locale=locale)
        await ready(page)
        for token, joker in (("BJ", "big"), ("SJ", "small")):
            card = page.locator(f'[data-card="{token}"]')
            await expect(card).to_have_attribute("aria-label", t(language, f"web.joker.{joker}"))
            await expect(card.locator(".joker-word")).to_have_text(
                t(language, f"web.joker_face.{joker}")
            )
            colour = "red" if joker == "big" else "black"
            await expect(card).to_have_class(re.compile(rf"\bjoker\b.*\b{colour}\b"))
        await expect(page.locator('[data-card="BJ"]')).to_have_attribute("role", "button")
        # Jokers come first in the row (they outrank the aces).
        assert (await lanes_on_page(page))["hand"][:2] == ["BJ", "SJ"]

        await place(page, JOKER_SPLIT)
        shown = await lanes_on_page(page)
        assert shown["hand"] == [] and multiset(shown) == multiset(JOKER_SPLIT)
        for lane, key in JOKER_CATEGORIES.items():
            await expect(page.locator(f'[data-lane-label="{lane}"]')).to_have_text(t(language, key))
        await expect(page.locator("[data-foul]")).to_have_count(0)
        await press_confirm(page)
        await expect(page.locator("[data-status]")).to_have_text(t(language, "web.confirmed"))
        stored = await st.hand(0)
        assert stored["done"] is True
        assert multiset(Hand.from_json(stored).arrangement_tokens()) == multiset(JOKER_SPLIT)
        assert page.problems == []


async def test_five_players_the_added_suit_is_marked_and_its_twin_cards_placed(
    browser: Any,
) -> None:
    async with stage(five_hands(), options=["added_suit=s"]) as st:
        page = await open_page(browser, st, telegram=True)
        await ready(page)
        zh = "zh-Hans"
        await expect(page.locator("[data-notes]")).to_have_text(t(zh, "web.added_note", suit="♠"))
        # Every spade (the added suit) carries the mark, and no other card does.
        spades = page.locator('[data-lane="hand"] [data-card$="s"]')
        await expect(spades).to_have_count(8)
        await expect(page.locator('[data-lane="hand"] .added')).to_have_count(8)
        await expect(page.locator('[data-lane="hand"] .mark-added')).to_have_count(8)
        await expect(page.locator('[data-card="9h"] .mark-added')).to_have_count(0)
        aces = page.locator('[data-lane="hand"] [data-card="As"]')
        await expect(aces).to_have_count(2)
        label = t(zh, "web.card", rank=t(zh, "web.rank.14"), suit=t(zh, "web.suit.s"))
        for n in range(2):
            await expect(aces.nth(n)).to_have_attribute(
                "aria-label", t(zh, "web.card_added", card=label)
            )
        # Twin cards are two cards: each has its own place in the hand.
        indexes = await aces.evaluate_all("els => els.map(e => e.dataset.index)")
        assert len(set(indexes)) == 2

        await place(page, ADDED_SPLIT)
        shown = await lanes_on_page(page)
        assert shown["hand"] == [] and multiset(shown) == multiset(ADDED_SPLIT)
        head_ace = page.locator('[data-lane="head"] [data-card="As"]')
        tail_ace = page.locator('[data-lane="tail"] [data-card="As"]')
        await expect(head_ace).to_have_count(1)
        await expect(tail_ace).to_have_count(1)
        assert await head_ace.get_attribute("data-index") != await tail_ace.get_attribute(
            "data-index"
        )
        for lane, key in ADDED_CATEGORIES.items():
            await expect(page.locator(f'[data-lane-label="{lane}"]')).to_have_text(t(zh, key))
        await expect(page.locator("[data-foul]")).to_have_count(0)

        await press_confirm(page)
        await expect(page.locator("[data-status]")).to_have_text(t(zh, "web.confirmed"))
        stored = await st.hand(0)
        assert stored["done"] is True
        assert multiset(Hand.from_json(stored).arrangement_tokens()) == multiset(ADDED_SPLIT)
        await expect(page.locator("[data-ready]")).to_have_text(
            t(zh, "web.ready", done=1, seated=5)
        )
        assert page.problems == []


async def test_sixteen_cards_offer_the_special_of_the_thirteen_placed_and_declare_it(
    browser: Any,
) -> None:
    """多三张 in Telegram: 报道 is offered once the 13 placed cards make a
    special (the rules engine's answer for the draft, nothing stored), goes
    when a card of it is swapped out for a discarded one, and declares the
    placed cards."""
    from .harness import HAND_16, SIX_PAIRS_16, SIX_PAIRS_SPLIT

    zh = "zh-Hans"
    async with stage((SIX_PAIRS_16, HAND_16), options=["extra3=on"]) as st:
        page = await open_page(browser, st)
        page.set_default_timeout(5000)
        await expect(page.locator('[data-lane="hand"] [data-card]')).to_have_count(16)
        offer = page.locator("[data-special]")
        await place(page, SIX_PAIRS_SPLIT)
        name = t(zh, "special.six_pairs")
        await expect(offer).to_be_visible()
        await expect(offer).to_contain_text(name)
        # A pair's card swapped for a discarded ace: no special, no offer.
        await tap(page, '[data-lane="discard"] [data-card="Ac"]')
        await tap(page, '[data-lane="head"] [data-card="2s"]')
        await expect(offer).to_be_hidden()
        await tap(page, '[data-action="undo"]')
        await expect(offer).to_be_visible()
        assert (await st.hand(0))["done"] is False  # nothing stored yet
        await page.locator('[data-action="declare"]').click()
        await expect(page.locator("[data-status]")).to_have_text(
            t(zh, "web.declared", special=name)
        )
        stored = await st.hand(0)
        assert stored["done"] is True and stored["declared"] == "six_pairs"
        assert multiset(Hand.from_json(stored).arrangement_tokens()) == multiset(SIX_PAIRS_SPLIT)
        assert page.problems == []
