"""The arranging page as a Discord Activity, end to end: the real discord.py
client under SimCord, the page's server over the same table manager (put
together as ``thirteen run`` does it, bot.web.assembly, DISCORD_ACTIVITY on)
and a local fake of Discord's OAuth2 and activity-instance endpoints.
Alice presses her hand's page button (the Activity is launched in the
room's channel); Discord's client, played by a host page in Debian's
chromium at a phone's size, frames the page; she drags and taps her split
with a finger and confirms; her ephemeral hand and the channel's table show
it, and the round settles once Bob confirms with the hand's buttons."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from playwright.async_api import expect

from bot.config import Settings
from bot.core.hand import Hand
from bot.i18n import t
from bot.table.actions import Verb
from tests.procs.botproc import free_port
from tests.web.discord_client import open_activity
from tests.web.discord_fake import BOT_TOKEN, CLIENT_ID, CLIENT_SECRET, FakeDiscord, fake_discord
from tests.web.gestures import lanes_on_page, place

from .game import Game, deal, with_page
from .harness import POLL_SECONDS, embed_text, page_buttons, verbs

EN = "en"
LANES = ("head", "middle", "tail")


@pytest.fixture
async def served() -> AsyncIterator[tuple[Game, str, FakeDiscord]]:
    base = f"http://127.0.0.1:{free_port()}"
    async with fake_discord() as fake:
        config = Settings(  # type: ignore[call-arg]
            _env_file=None,
            webapp_url=base,
            webapp_secret="discord-activity-test",
            discord_token=BOT_TOKEN,
            discord_client_id=CLIENT_ID,
            discord_client_secret=CLIENT_SECRET,
            discord_api_url=fake.url,
            discord_activity=True,
            delivery_poll_seconds=POLL_SECONDS,
        )
        # the bot is built with the page's links (and the Activity on)
        async with with_page(["alice", "bob"], config, base) as game:
            yield game, base, fake


async def test_a_round_arranged_in_the_activity_launched_from_the_hand(
    served: tuple[Game, str, FakeDiscord], launches: list[int], browser: Any
) -> None:
    game, base, fake = served
    alice, bob = game.members
    channel = game.table.channel
    await deal(game, 2)  # Alice opens, Bob joins, Alice deals
    hand_msg = await game.open_hand(alice)

    # The hand's page button launches the Activity in the room's channel.
    (button,) = page_buttons(hand_msg)
    assert (await alice.click(hand_msg, custom_id=button["custom_id"])).acknowledged
    assert launches == [channel.id]

    # Discord's client frames it; the page logs in through the fake Discord.
    instance = fake.instance([str(alice.id), str(bob.id)], channel=str(channel.id))
    page, frame = await open_activity(
        browser,
        base,
        code=fake.code_for(str(alice.id)),
        user_id=str(alice.id),
        instance_id=instance,
        locale="en-US",
    )
    page.set_default_timeout(10_000)  # a hang guard on a loaded machine
    await expect(frame.locator('[data-lane="hand"] [data-card]')).to_have_count(13)
    tokens = (await lanes_on_page(frame))["hand"]
    cards = (await game.hand_state(alice))["cards"]
    assert sorted(tokens) == sorted(cards)

    # The solver's first suggestion, taken to learn a legal split, then reset
    # and placed again by a finger (each lane's first card dragged).
    await frame.locator('[data-action="suggest"]').tap()
    await frame.locator('[data-suggestion="0"]').tap()
    await expect(frame.locator('[data-lane="hand"] [data-card]')).to_have_count(0)
    chosen = await lanes_on_page(frame)
    split = {lane: chosen[lane] for lane in LANES}
    await frame.locator('[data-action="reset"]').tap()
    await expect(frame.locator('[data-lane="hand"] [data-card]')).to_have_count(13)
    await place(frame, split, touch=True)
    await expect(frame.locator('[data-action="confirm"]')).to_be_enabled()
    await frame.locator('[data-action="confirm"]').tap()
    await expect(frame.locator("[data-status]")).to_have_text(t(EN, "web.confirmed"))
    stored = await game.hand_state(alice)
    assert stored["done"] is True
    laid = Hand.from_json(stored).arrangement_tokens()
    assert {lane: sorted(laid[lane]) for lane in LANES} == {
        lane: sorted(split[lane]) for lane in LANES
    }

    # Discord shows it: her open ephemeral hand is edited, the table marks her ready.
    assert t(EN, "hand.confirmed") in embed_text(hand_msg)
    assert Verb.CONFIRM not in verbs(hand_msg)
    await game.table.from_timers(asyncio.sleep(0))
    table = embed_text(game.table.table_message())
    assert "✅ alice" in table and "⏳ bob" in table, table

    # Bob confirms with the hand's buttons: the round is shown and settled.
    await game.arrange_by_suggestion(bob, await game.open_hand(bob))
    await game.finish_showdown()
    (settlement,) = game.table.settlement_messages()
    assert "alice" in embed_text(settlement) and "bob" in embed_text(settlement)
    assert page.problems == []
