"""The private hand's page button where the page is a Discord Activity
(DISCORD_ACTIVITY), under SimCord: in the room's channel it launches the
Activity (the LAUNCH_ACTIVITY answer, type 12); a DM's hand keeps the
signed link; where Discord refuses the launch the player gets the link.

SimCord does not know type 12; the ``launches`` fixture (conftest.py)
teaches it, as Discord answers an application with Activities on: the
interaction is acknowledged, no message is made."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.i18n import t
from bot.table.actions import Verb
from bot.web.links import PageLinks
from storage.memory import MemoryRepository

from .game import Game, open_game
from .harness import button_id, page_buttons

BASE = "http://127.0.0.1:8080"
KEY = b"activity-launch-test"


@pytest.fixture
async def game() -> AsyncIterator[Game]:
    repo = MemoryRepository()
    await repo.init()
    game = await open_game(repo, ["alice", "bob"])
    game.table.client.adapter.platform.page_links = PageLinks(BASE, KEY, activity=True)
    try:
        yield game
    finally:
        await game.manager.stop()
        await game.env.shutdown()
        game.env.raise_errors()


async def dealt(game: Game) -> None:
    alice, bob = game.members
    channel = game.table.channel
    assert (await alice.slash(channel, "thirteen new")).ephemeral
    lobby = game.table.table_message()
    await bob.click(lobby, custom_id=button_id(lobby, Verb.JOIN))
    lobby = game.table.table_message()
    await alice.click(lobby, custom_id=button_id(lobby, Verb.START))


async def test_the_hand_s_button_launches_the_activity_in_the_channel(
    game: Game, launches: list[int]
) -> None:
    await dealt(game)
    alice = game.members[0]
    hand = await game.open_hand(alice)
    (button,) = page_buttons(hand)
    room = game.room_id()
    state = await game.manager.room_state(room)
    assert state is not None
    assert button["custom_id"] == f"dc1|act|{room}|{state['round']['no']}"
    assert "url" not in button or not button["url"]  # no pass in a launch
    before = await game.hand_state(alice)
    result = await alice.click(hand, custom_id=button["custom_id"])
    assert result.acknowledged
    assert launches == [game.table.channel.id]
    assert not list(result.followups)  # no message of its own
    assert await game.hand_state(alice) == before  # a launch changes no hand


async def test_where_discord_refuses_the_launch_the_player_gets_the_link(game: Game) -> None:
    """SimCord as it is refuses type 12, as Discord does for an application
    without Activities turned on."""
    await dealt(game)
    alice = game.members[0]
    hand = await game.open_hand(alice)
    (button,) = page_buttons(hand)
    result = await alice.click(hand, custom_id=button["custom_id"])
    assert result.ephemeral and result.response is not None
    assert result.response.content == t("en", "dc.activity.failed")  # the member's locale, en-US
    (link,) = page_buttons(result.response)
    assert link["url"].startswith(f"{BASE}/app/#pass=")
