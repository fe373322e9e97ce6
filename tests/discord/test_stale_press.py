"""A press refused as stale is judged against the message it came from, not
against the data it carries: a custom_id of an earlier round sent on the
live table (a modified client may send any data for a message it can see)
is refused and takes none of that table's buttons (issue 20, C)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import simcord
from simcord import actors as sim_actors
from simcord.backend import serializers
from simcord.enums import InteractionType

from bot.table.actions import Verb, decode, encode

from .game import Game, open_room, playing, seat_everyone
from .harness import action_ids, button_id, forged_press, private_reply, verbs


@pytest.fixture
async def game() -> AsyncIterator[Game]:
    async with playing(["alice", "bob", "carol"]) as game:  # carol watches
        yield game


async def press_not_on(
    member: Any, channel: simcord.ChannelHandle, message: Any, custom_id: str
) -> Any:
    """A press with ``custom_id`` on ``message`` as Discord has it (its own
    buttons, which do not carry that custom_id)."""
    backend = member._env.backend
    stored = member._message(message)
    return await sim_actors._dispatch_actor_interaction(
        member,
        InteractionType.MESSAGE_COMPONENT,
        channel,
        {"custom_id": custom_id, "component_type": 2},
        extra={"message": dict(serializers.message_payload(backend, stored))},
        source_message_id=stored.id,
    )


def edits_of(game: Game, message_id: int, since: int) -> list[object]:
    path = f"/channels/{game.table.channel.id}/messages/{message_id}"
    return [r for r in game.env.http_requests[since:] if r.method == "PATCH" and r.path == path]


async def test_a_forged_stale_press_on_the_live_table_leaves_its_buttons(game: Game) -> None:
    alice, bob, carol = game.members
    channel = game.table.channel
    other = game.table.guild.create_text_channel("other")
    await open_room(carol, other)  # a room of another channel
    [other_table] = [m for m in other.history() if action_ids(m)]
    other_room = decode(button_id(other_table, Verb.RULES))[0]
    await seat_everyone(game, 2)
    lobby = game.table.table_message()
    await alice.click(lobby, custom_id=button_id(lobby, Verb.START))
    room = game.room_id()
    for member in (alice, bob):
        await game.arrange_by_suggestion(member, await game.open_hand(member))
    await game.finish_showdown()
    # Round 1's settlement, its "next round" live: a press of round 0 on it
    # takes nothing, also when its message id is not known (a post whose
    # answer never came): its own buttons are judged one by one.
    [settle] = game.table.settlement_messages()
    shown = action_ids(settle)
    assert Verb.START in verbs(settle)
    for known in (True, False):
        if not known:
            await game.repo.forget_sent("discord", str(channel.id), f"settle:{room}:1")
        since = len(game.env.http_requests)
        res = await forged_press(bob, channel, settle, encode(room, 0, Verb.START))
        assert private_reply(res)
        [settle] = game.table.settlement_messages()
        assert action_ids(settle) == shown and not edits_of(game, settle.id, since), known
    await alice.click(settle, custom_id=button_id(settle, Verb.START))
    live = game.table.table_message()  # round 2's table
    assert {Verb.SHOW_HAND, Verb.LEAVE, Verb.RULES, Verb.HELP} <= set(verbs(live))
    shown = action_ids(live)
    state = await game.state()
    assert state["round_no"] == 2
    since = len(game.env.http_requests)
    forged = [
        (bob, encode(room, 1, Verb.START)),  # a player: round 1's "next round", on round 2's table
        (bob, encode(room, 1, Verb.SHOW_HAND)),
        (alice, encode(room, 1, Verb.LEAVE)),
        (carol, encode(room, 1, Verb.SHOW_HAND)),  # a member who is not seated
        (carol, encode(room, 0, Verb.JOIN)),
        (carol, encode(other_room, 3, Verb.START)),  # another channel's room
    ]
    for member, custom_id in forged:
        res = await forged_press(member, channel, live, custom_id)
        assert private_reply(res), custom_id  # a short refusal, to the presser alone
        # the same data on the table as Discord has it (not among its buttons)
        res = await press_not_on(member, channel, live, custom_id)
        assert private_reply(res) == "This button is no longer valid.", custom_id
    live = game.table.table_message()
    assert action_ids(live) == shown  # my hand, leave, rules, help: all still there
    assert not edits_of(game, live.id, since)
    assert await game.state() == state
    # the live table still works
    res = await bob.click(live, custom_id=button_id(live, Verb.SHOW_HAND))
    assert res.ephemeral and res.response is not None
