"""The adapter against a tiny fake manager: routing, rendering, acknowledgement."""

from __future__ import annotations

import pytest

from bot.table.actions import Verb, decode
from tests.fakes import FakeManager

from .game import join, open_room, start_round
from .harness import action_ids, button_id, embed_text, open_env, private_reply, verbs


@pytest.fixture
async def table():
    manager = FakeManager("discord", opener_sits=True, cards_to_confirm=0)
    env, table = await open_env(manager, ["alice", "bob", "carol"])
    table.extra["manager"] = manager
    try:
        yield table
    finally:
        await env.shutdown()
        env.raise_errors()


async def _lobby(table):
    alice, bob, _ = table.members
    res = await open_room(alice, table.channel)
    # the command is answered privately; the table is posted by the outbox
    assert res.ephemeral and res.response is not None and not res.response.embeds
    assert len(table.bot_messages()) == 1
    msg = table.table_message()
    table.extra["first_table"] = msg.id
    res = await bob.click(msg, custom_id=button_id(msg, Verb.JOIN))
    return res


async def test_lobby_press_edits_table_in_place(table):
    res = await _lobby(table)
    # acknowledged without a message of its own; the outbox edits the table by its id
    assert res.acknowledged and res.deferred and not res.ephemeral and not res.followups
    assert table.table_message().id == table.extra["first_table"]
    assert "alice" in embed_text(table.table_message()) and "bob" in embed_text(
        table.table_message()
    )
    assert len(table.bot_messages()) == 1
    action = table.extra["manager"].actions[-1]
    assert action.actor.user_id == str(table.members[1].id)  # from the interaction
    assert action.chat_id == str(table.channel.id)


async def test_refusal_is_ephemeral_and_changes_nothing(table):
    await _lobby(table)
    _, bob, carol = table.members
    before = embed_text(table.table_message())
    msg = table.table_message()
    res = await bob.click(msg, custom_id=button_id(msg, Verb.START))  # bob is not the owner
    assert private_reply(res) == "not yours"
    assert embed_text(table.table_message()) == before
    res = await start_round(carol, table.channel)
    assert private_reply(res) == "not yours"
    assert embed_text(table.table_message()) == before


async def test_hand_ephemeral_is_edited_in_place_then_settles(table):
    await _lobby(table)
    alice, bob, _ = table.members
    msg = table.table_message()
    res = await alice.click(msg, custom_id=button_id(msg, Verb.START))
    assert res.deferred
    table_msg = table.table_message()
    assert Verb.SHOW_HAND in verbs(table_msg)
    # the starter sees their hand at once, privately
    assert res.followups and res.followups[0].ephemeral
    # bob opens his hand
    hand = await bob.click(table_msg, custom_id=button_id(table_msg, Verb.SHOW_HAND))
    assert hand.ephemeral
    hand_msg = hand.response
    assert len(action_ids(hand_msg)) == 15
    pick = await bob.click(hand_msg, custom_id=button_id(hand_msg, Verb.PICK, "3"))
    assert pick.response.id == hand_msg.id and pick.response.ephemeral
    assert "[3]" in embed_text(pick.response)
    await bob.click(pick.response, custom_id=button_id(pick.response, Verb.CONFIRM))
    a_hand = res.followups[0]
    done = await alice.click(a_hand, custom_id=button_id(a_hand, Verb.CONFIRM))
    assert done.deferred
    settle = table.settlement_messages()
    assert len(settle) == 1 and "round 1" in embed_text(settle[0])
    # next round from the settlement message
    nxt = await alice.click(settle[0], custom_id=button_id(settle[0], Verb.START))
    assert nxt.acknowledged
    assert decode(button_id(table.table_message(), Verb.SHOW_HAND))[1] == 2
    # bob's open hand message was refreshed with the new round's hand
    assert decode(button_id(hand_msg, Verb.PICK, "4"))[1] == 2
    # an old round's button is answered privately and changes nothing
    before = embed_text(table.table_message())
    stale = await bob.click(settle[0], custom_id=button_id(settle[0], Verb.START))
    assert private_reply(stale) == "stale button"
    assert embed_text(table.table_message()) == before
    assert table.extra["manager"].rooms["r1"].round_no == 2


async def test_sink_refreshes_open_hand_and_posts_settlement(table):
    await _lobby(table)
    alice, bob, _ = table.members
    msg = table.table_message()
    await alice.click(msg, custom_id=button_id(msg, Verb.START))
    table_msg = table.table_message()
    hand = await bob.click(table_msg, custom_id=button_id(table_msg, Verb.SHOW_HAND))
    await table.from_timers(table.extra["manager"].expire("r1"))
    assert table.settlement_messages()
    refreshed = table.channel.history(viewer=bob)
    bob_hand = [m for m in refreshed if m.id == hand.response.id]
    assert bob_hand and "confirmed" in embed_text(bob_hand[0])


async def test_a_slow_manager_is_acknowledged_before_discord_gives_up(table):
    await _lobby(table)
    _, bob, carol = table.members
    msg = table.table_message()
    quick = await bob.click(msg, custom_id=button_id(msg, Verb.JOIN))
    assert quick.acknowledged and not quick.followups  # deferred; the outbox edits
    # SimCord runs the bot on virtual time: a manager taking 10 s gets the
    # interaction deferred (at 2 s), then edits the message when it is done
    table.extra["manager"].delay = 10.0
    res = await carol.click(msg, custom_id=button_id(msg, Verb.JOIN))
    assert res.acknowledged and res.deferred
    assert "carol" not in embed_text(table.table_message())
    await table.env.advance_time(10)
    assert table.table_message().id == msg.id
    assert "carol" in embed_text(table.table_message())
    cmd = await join(bob, table.channel)
    assert cmd.deferred  # "thinking…" first, then the private toast
    await table.env.advance_time(10)
    assert private_reply(cmd) == "joined"
