"""The arranging page from a Discord player's hand, end to end: the real
discord.py client under SimCord and the page's server over the same table
manager, in this process (put together as ``thirteen run`` does it,
bot.web.assembly). Alice opens the link button of her ephemeral hand (the
pass in its fragment) in Debian's chromium (headless, a desktop browser),
drags and taps a fouled split, takes a suggestion and confirms in the page;
her hand and the table in Discord then show it, and the round settles
once Bob confirms with the hand's buttons."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from playwright.async_api import expect

from bot.core.hand import Hand
from bot.i18n import t
from bot.table.actions import Verb
from bot.views.render_common import sym
from tests.procs.botproc import free_port
from tests.web.gestures import click, lanes_on_page, place
from tests.web.harness import LANES, category_label, foul_clause, fouled_split, open_url

from .game import Game, deal, with_page
from .harness import embed_text, settings, verbs

EN = "en"


@pytest.fixture
async def served() -> AsyncIterator[tuple[Game, str]]:
    """Alice and Bob at a Discord table, and the page's server for its
    manager on 127.0.0.1 (WEBAPP_URL), the hands carrying its link."""
    base = f"http://127.0.0.1:{free_port()}"
    config = settings(webapp_url=base, webapp_secret="discord-page-test")
    async with with_page(["alice", "bob"], config, base) as game:
        yield game, base


def link_of(message: Any) -> str:
    """The one link button's address on a message SimCord shows."""
    (url,) = [
        button["url"]
        for row in message.components
        for button in row.get("components", ())
        if button.get("url")
    ]
    return str(url)


async def test_a_discord_player_arranges_in_the_page_from_the_hands_link(
    served: tuple[Game, str], browser: Any
) -> None:
    game, base = served
    alice, bob = game.members
    await deal(game, 2)  # Alice opens, Bob joins, Alice deals
    hand_msg = await game.open_hand(alice)
    url = link_of(hand_msg)
    assert url.startswith(f"{base}/app/#pass=")

    page = await open_url(browser, url, viewport=(1280, 800), mobile=False, locale="en-US")
    page.set_default_timeout(10_000)  # a hang guard on a loaded machine
    await expect(page.locator('[data-lane="hand"] [data-card]')).to_have_count(13)
    tokens = (await lanes_on_page(page))["hand"]
    assert sorted(tokens) == sorted((await game.hand_state(alice))["cards"])

    # A fouled split: each lane's first card dragged with the mouse, the
    # rest by a click on the card, then on the lane.
    split, report = fouled_split(tokens)
    await place(page, split, touch=False)
    for lane in LANES:
        await expect(page.locator(f'[data-lane-label="{lane}"]')).to_have_text(
            category_label(EN, split[lane])
        )
    foul = page.locator("[data-foul]")
    await expect(foul).to_contain_text(foul_clause(EN, report))
    await expect(page.locator('[data-action="confirm"]')).to_be_disabled()

    # The solver's first suggestion, then Confirm in the page.
    await click(page, '[data-action="suggest"]')
    await click(page, '[data-suggestion="0"]')
    await expect(foul).to_have_count(0)
    await expect(page.locator('[data-lane="hand"] [data-card]')).to_have_count(0)
    chosen = await lanes_on_page(page)
    await click(page, '[data-action="confirm"]')
    await expect(page.locator("[data-status]")).to_have_text(t(EN, "web.confirmed"))
    stored = await game.hand_state(alice)
    assert stored["done"] is True
    laid = Hand.from_json(stored).arrangement_tokens()
    assert {lane: sorted(laid[lane]) for lane in LANES} == {
        lane: sorted(chosen[lane]) for lane in LANES
    }

    # Discord shows it: the page's views went to the platform with the
    # action, so her open ephemeral hand was edited, and the channel's
    # delivery was woken (no look of the outbox's poller is waited for):
    # the table marks Alice ready.
    assert t(EN, "hand.confirmed") in embed_text(hand_msg)
    assert Verb.PICK not in verbs(hand_msg) and Verb.CONFIRM not in verbs(hand_msg)
    for lane in LANES:
        (line,) = [
            x for x in embed_text(hand_msg).split("\n") if x.startswith(t(EN, f"lane.{lane}"))
        ]
        assert sorted(line.split(":", 1)[1].split()) == sorted(sym(x) for x in chosen[lane])
    await game.table.from_timers(asyncio.sleep(0))
    table = embed_text(game.table.table_message())
    assert "✅ alice" in table and "⏳ bob" in table, table

    # Bob confirms with the hand's buttons: the round is shown and settled.
    await game.arrange_by_suggestion(bob, await game.open_hand(bob))
    await game.finish_showdown()
    (settlement,) = game.table.settlement_messages()
    text = embed_text(settlement)
    assert "alice" in text and "bob" in text
    assert page.problems == []
