"""The private hand's page button where the page is a Discord Activity
(DISCORD_ACTIVITY), under SimCord: in the room's channel it launches the
Activity (the LAUNCH_ACTIVITY answer, type 12); a DM's hand keeps the
signed link; where Discord refuses the launch the player gets the link.

SimCord does not know type 12; the ``launches`` fixture (conftest.py)
teaches it, as Discord answers an application with Activities on: the
interaction is acknowledged, no message is made."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
import simcord
from simcord.backend import errors
from simcord.http import router

from bot.i18n import t
from bot.platforms.discord.client import ThirteenClient
from bot.table.clock import FakeClock
from storage.memory import MemoryRepository
from tests.stored import stored_json

from .game import START, Game, deal, make_manager, playing
from .harness import client_for, page_buttons, settings

BASE = "http://127.0.0.1:8080"
KEY = b"activity-launch-test"


@pytest.fixture
async def game() -> AsyncIterator[Game]:
    # The Activity on, as the settings' check would have it (its client id,
    # secret and token are not needed under SimCord): the bot is built with
    # the page's links.
    config = settings(webapp_url=BASE, webapp_secret=KEY.decode()).model_copy(
        update={"discord_activity": True}
    )
    async with playing(["alice", "bob"], config=config) as game:
        yield game


async def test_the_hand_s_button_launches_the_activity_in_the_channel(
    game: Game, launches: list[int]
) -> None:
    await deal(game, 2)
    alice = game.members[0]
    hand = await game.open_hand(alice)
    (button,) = page_buttons(hand)
    room = game.room_id()
    state = await stored_json(game.manager, room)
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
    await deal(game, 2)
    alice = game.members[0]
    hand = await game.open_hand(alice)
    (button,) = page_buttons(hand)
    result = await alice.click(hand, custom_id=button["custom_id"])
    assert result.ephemeral and result.response is not None
    assert result.response.content == t("en", "dc.activity.failed")  # the member's locale, en-US
    (link,) = page_buttons(result.response)
    assert link["url"].startswith(f"{BASE}/app/#pass=")


ENTRY_POINT = {
    "type": 4,
    "name": "launch",
    "description": "",
    # (Discord's also has handler 2, DISCORD_LAUNCH_ACTIVITY; SimCord stores no handler)
    "integration_types": [0, 1],
    "contexts": [0, 1, 2],
}


@pytest.fixture
def strict_overwrite() -> Iterator[list[list[Any]]]:
    """SimCord's global bulk overwrite made as strict as Discord about the
    Entry Point command: an overwrite that drops it is refused (50240)."""
    seen: list[list[Any]] = []
    routes = router._ROUTES["PUT"]
    (index,) = [
        i
        for i, (parts, _) in enumerate(routes)
        if parts == ["applications", "{application_id}", "commands"]
    ]
    parts, original = routes[index]

    def overwrite(ctx: Any) -> Any:
        sent = list(ctx.json or [])
        seen.append(sent)
        had = [c for c in ctx.backend.commands.get(None, {}).values() if c.get("type") == 4]
        if had and not any(c.get("type") == 4 for c in sent):
            raise errors.BackendError(
                400,
                50240,
                "You cannot remove this app's Primary Entry Point command in a bulk update operation",
            )
        return original(ctx)

    routes[index] = (parts, overwrite)
    try:
        yield seen
    finally:
        routes[index] = (parts, original)


async def test_the_start_keeps_discord_s_entry_point_command(
    strict_overwrite: list[list[Any]],
) -> None:
    """With Activities on, Discord made an Entry Point command; the bot's
    global command sync at start sends it back beside /thirteen."""
    repo = MemoryRepository()
    await repo.init()
    manager = make_manager(repo, FakeClock(start=START), 7, None)
    config = settings().model_copy(update={"discord_activity": True})
    client = client_for(manager, config)
    assert isinstance(client, ThirteenClient)
    env = simcord.Env(client)
    env.backend.register_commands(None, [dict(ENTRY_POINT)])
    try:
        await env.start()
        names = {c["name"]: c["type"] for c in env.backend.commands.get(None, {}).values()}
        assert names.get("launch") == 4 and names.get("thirteen") == 1, names
        assert strict_overwrite and any(c.get("type") == 4 for c in strict_overwrite[-1])
    finally:
        await manager.stop()
        await env.shutdown()
    env.raise_errors()
