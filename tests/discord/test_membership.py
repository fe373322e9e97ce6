"""Seats only for members, forged presses and forged command options, under
SimCord with the real discord.py client and the real TableManager.

Discord only delivers a press of a component that is on the message, so a
forged press is made the way a modified client would have to: the
interaction names a message of the bot that the presser can see, carrying
a component with the forged custom_id (built here from SimCord's own
interaction plumbing)."""

from __future__ import annotations

from typing import Any

import pytest
import simcord
from discord.app_commands import TransformerError
from simcord import actors as sim_actors
from simcord.enums import AppCommandType, InteractionType

from bot.table.actions import Verb, encode
from storage.memory import MemoryRepository
from tests.table.helpers import FORGED_ARGS as ARGS

from .game import Game, open_game, open_room, seat_everyone
from .harness import action_ids, button_id, embed_text, forged_press, private_reply

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank"]


@pytest.fixture
async def game():
    repo = MemoryRepository()
    await repo.init()
    game = await open_game(repo, NAMES)
    try:
        yield game
    finally:
        await game.manager.stop()
        await game.env.shutdown()
        # SimCord records what the command tree raised even when its error
        # handler answered: a forged choice is that (answered) TransformerError.
        unexpected = [e for e in game.env.errors if not isinstance(e, TransformerError)]
        assert not unexpected, unexpected


async def forged_slash(member: Any, channel: simcord.ChannelHandle, sub: str, **options: str):
    """``/thirteen <sub>`` with option values that are not among its choices."""
    root = sim_actors._resolve_visible_command(
        member, channel.id, "thirteen", AppCommandType.CHAT_INPUT
    )
    data = {
        "id": root["id"],
        "name": root["name"],
        "type": AppCommandType.CHAT_INPUT,
        "options": [
            {
                "name": sub,
                "type": 1,
                "options": [{"name": k, "type": 3, "value": v} for k, v in options.items()],
            }
        ],
    }
    return await sim_actors._dispatch_actor_interaction(
        member, InteractionType.APPLICATION_COMMAND, channel, data
    )


async def test_forged_presses_of_every_kind_from_another_server_change_nothing(
    game: Game,
) -> None:
    alice, bob = game.members[:2]
    await seat_everyone(game, 2)
    table_msg = game.table.table_message()
    await alice.click(table_msg, custom_id=button_id(table_msg, Verb.START))
    room, state = game.room_id(), await game.state()
    rivals = game.env.create_guild("rivals")
    their_channel = rivals.create_text_channel("play")
    eve = rivals.add_member(game.env.create_user("eve"))
    await open_room(eve, their_channel)  # her own table, a message she can press
    their_message = next(m for m in their_channel.history() if m.author.id == game.env.bot.user.id)
    for verb in Verb:
        if verb is Verb.NEW:
            continue  # would open a room in her own channel, as /thirteen new does
        custom_id = encode(room, state["round_no"], verb, ARGS.get(verb))
        result = await forged_press(eve, their_channel, their_message, custom_id)
        assert result.acknowledged, verb
        assert "another chat" in private_reply(result), verb
    # Malformed ids (a superscript digit, a round of 10^30) on the room's own channel.
    table_msg = game.table.table_message()
    for custom_id in (f"t1|{room}|1|v|²", f"t1|{room}|1|v|{'9' * 30}", f"t1|{room}|²|p|0"):
        result = await forged_press(alice, game.table.channel, table_msg, custom_id)
        assert private_reply(result) == "This button is no longer valid."
    assert await game.state() == state


@pytest.mark.parametrize(
    ("sub", "options"),
    [
        ("language", {"language": "klingon"}),
        ("leaderboard", {"period": "forever"}),
        ("new", {"preset": "poker"}),
    ],
)
async def test_a_forged_command_choice_is_answered_not_valid(
    game: Game, sub: str, options: dict[str, str]
) -> None:
    alice = game.members[0]
    channel = game.table.channel
    if sub != "new":
        await open_room(alice, channel)
    result = await forged_slash(alice, channel, sub, **options)
    assert result.acknowledged and result.ephemeral
    assert private_reply(result) == "That choice is not valid."


async def test_banker_mode_never_contradicts_the_seats(game: Game) -> None:
    alice = game.members[0]
    await seat_everyone(game, 5)
    panel = await alice.slash(game.table.channel, "thirteen settings")
    assert panel.response is not None
    banker = next(cid for cid in action_ids(panel.response) if "|o|banker=on" in cid)
    state = await game.state()
    result = await alice.click(panel.response, custom_id=banker)
    assert private_reply(result) == "Not allowed: Banker mode needs exactly 4 players."
    assert await game.state() == state
    # Four seated: banker mode is on, and a fifth cannot join into a contradiction.
    removed = next(cid for cid in action_ids(panel.response) if "|rp|" in cid)
    await alice.click(panel.response, custom_id=removed)
    assert len((await game.state())["players"]) == 4
    panel = await alice.slash(game.table.channel, "thirteen settings")
    banker = next(cid for cid in action_ids(panel.response) if "|o|banker=on" in cid)
    result = await alice.click(panel.response, custom_id=banker)
    assert (await game.state())["options"]["rules"]["banker"] is True
    fifth = game.members[5]
    table_msg = game.table.table_message()
    result = await fifth.click(table_msg, custom_id=button_id(table_msg, Verb.JOIN))
    assert "needs exactly 4 players" in private_reply(result)
    assert len((await game.state())["players"]) == 4


async def test_the_owner_removes_a_player_and_the_table_shows_it(game: Game) -> None:
    alice, bob, carol = game.members[:3]
    await seat_everyone(game, 3)
    panel = await alice.slash(game.table.channel, "thirteen settings")
    assert panel.response is not None
    remove_bob = button_id(panel.response, Verb.REMOVE_PLAYER, str(bob.id))
    table_msg = game.table.table_message()  # carol cannot see the owner's panel: she forges
    refused = await forged_press(carol, game.table.channel, table_msg, remove_bob)
    assert private_reply(refused)
    assert len((await game.state())["players"]) == 3
    await alice.click(panel.response, custom_id=remove_bob)
    seated = {p["key"] for p in (await game.state())["players"]}
    assert seated == {f"discord:{alice.id}", f"discord:{carol.id}"}
    assert "bob" not in embed_text(game.table.table_message())


async def test_a_second_room_is_refused_in_the_rooms_language(game: Game) -> None:
    alice, bob = game.members[:2]
    await open_room(alice, game.table.channel)
    await alice.slash(game.table.channel, "thirteen language", language="zh-Hant")
    again = await open_room(bob, game.table.channel)
    assert private_reply(again) == "這個群組已經有一個開著的房間。"
