"""Discord's group messages through the durable outbox, under SimCord:
stored message ids across a restart, injected 429s and 5xx, a deleted
table, and a post that may have gone out just before a crash."""

from __future__ import annotations

import dataclasses
import logging
from datetime import timedelta
from typing import Any

import pytest

from bot.delivery import RetryLater, view_entries
from bot.delivery.transport import UNSURE
from bot.platforms.discord.posting import NONCE_WINDOW, nonce_of
from bot.table.actions import Verb
from bot.views.model import Audience, View, ViewKind
from storage.delivery import OutboxState

from .game import Game, game_on_sqlite, open_room, restart, seat_everyone
from .harness import action_ids, button_id, embed_text, verbs
from .nonces import Nonces, lose_answers


@pytest.fixture
async def game(tmp_path):
    async with game_on_sqlite(tmp_path) as game:
        yield game


def posts(game: Game, since: int = 0) -> list[Any]:
    """The bot's POSTs of new channel messages (not interaction responses)."""
    path = f"/channels/{game.table.channel.id}/messages"
    return [r for r in game.env.http_requests[since:] if r.method == "POST" and r.path == path]


def history_reads(game: Game) -> list[Any]:
    return [r for r in game.env.http_requests if r.method == "GET" and r.path.endswith("/messages")]


async def test_after_a_restart_the_stored_table_is_edited(game: Game) -> None:
    await seat_everyone(game, 2)
    table_msg = game.table.table_message()
    room = game.room_id()
    stored = await game.repo.sent_message("discord", str(game.table.channel.id), f"table:{room}")
    assert stored is not None and stored.message_id == str(table_msg.id)
    messages = len(game.table.bot_messages())

    await restart(game)
    carol = game.members[2]
    res = await carol.click(table_msg, custom_id=button_id(table_msg, Verb.JOIN))
    assert res.deferred
    assert carol.name in embed_text(game.table.table_message())
    assert game.table.table_message().id == table_msg.id
    assert len(game.table.bot_messages()) == messages  # no second table
    assert history_reads(game) == []  # known from the database, not from the channel

    # another restart, then the deal: a fresh table below, the old one loses its buttons
    await restart(game)
    await game.members[0].click(table_msg, custom_id=button_id(table_msg, Verb.START))
    dealt = game.table.table_message()
    assert dealt.id != table_msg.id and Verb.SHOW_HAND in verbs(dealt)
    old = next(m for m in game.table.bot_messages() if m.id == table_msg.id)
    assert action_ids(old) == []
    assert history_reads(game) == []


async def test_injected_429s_and_5xx_lose_nothing(game: Game, caplog) -> None:
    env = game.env
    channel = game.table.channel
    alice, bob, _ = game.members
    env.inject_error(
        "POST", "/channels/*/messages", status=429, code=0, message="rate limited", times=2
    )
    res = await open_room(alice, channel)
    assert res.ephemeral  # the command is answered even while the post waits
    await env.advance_time(10)  # the lane's back-off
    lobby = game.table.table_message()
    assert len(game.table.bot_messages()) == 1

    env.inject_error("PATCH", "/channels/*/messages/*", status=502, message="bad gateway", times=3)
    await bob.click(lobby, custom_id=button_id(lobby, Verb.JOIN))
    await env.advance_time(30)
    assert bob.name in embed_text(game.table.table_message())
    assert game.table.table_message().id == lobby.id

    await alice.click(lobby, custom_id=button_id(lobby, Verb.START))
    await env.advance_time(10)
    for member in (alice, bob):
        hand = await game.open_hand(member)
        await game.arrange_by_suggestion(member, hand)
    # the settlement's post meets a 503 and a 429 first
    env.inject_error("POST", "/channels/*/messages", status=503, message="unavailable", times=1)
    env.inject_error("POST", "/channels/*/messages", status=429, message="slow down", times=1)
    await game.finish_showdown()
    await env.advance_time(30)
    await game.finish_showdown()
    settlements = game.table.settlement_messages()
    assert len(settlements) == 1
    assert (await game.state())["phase"] == "lobby"
    stats = await game.repo.outbox_stats("discord")
    assert stats.depth == 0 and stats.failed == 0
    # every post that went through made one message: nothing twice
    made = [r for r in posts(game)]
    assert len(made) - 4 == len(game.table.bot_messages())  # 4 POSTs were refused
    warned = [r for r in caplog.records if "retrying" in r.getMessage()]
    assert warned and all(r.levelno == logging.WARNING and not r.exc_info for r in warned)


async def test_a_deleted_table_is_posted_again(game: Game) -> None:
    await seat_everyone(game, 2)
    table_msg = game.table.table_message()
    # Discord answers 10008 "Unknown Message" to an edit of a deleted message
    game.env.inject_error(
        "PATCH",
        f"/channels/{game.table.channel.id}/messages/{table_msg.id}",
        status=404,
        code=10008,
        message="Unknown Message",
    )
    carol = game.members[2]
    await carol.click(table_msg, custom_id=button_id(table_msg, Verb.JOIN))
    again = game.table.table_message()
    assert again.id != table_msg.id and carol.name in embed_text(again)
    room = game.room_id()
    stored = await game.repo.sent_message("discord", str(game.table.channel.id), f"table:{room}")
    assert stored is not None and stored.message_id == str(again.id)
    # the message that refused the edit (if it still shows) loses its buttons
    old = next(m for m in game.table.bot_messages() if m.id == table_msg.id)
    assert action_ids(old) == []


async def _crashed_post(game: Game, kind: ViewKind, key: str) -> Any:
    """A post handed to Discord whose answer was never stored: the row is
    left ``sending`` with no message id, as a crash right after the call does."""
    view = View(
        kind,
        Audience.GROUP,
        key,
        "Round 1",
        ("alice +3", "bob -3"),
        platform="discord",
        chat_id=str(game.table.channel.id),
        language="en",
        fresh=kind is ViewKind.SETTLEMENT,  # a settlement is posted once, as the table asks
    )
    await game.repo.enqueue(view_entries([view]), game.table.client.adapter.outbox.engine.now())
    engine = game.table.client.adapter.outbox.engine
    chat = str(game.table.channel.id)
    (row,) = [
        r for r in await game.repo.lane_rows("discord", chat, engine.now()) if r.key.startswith(key)
    ]
    with game.env.time_context():
        await game.table.client.adapter.outbox.deliver(row)  # posted; then the "crash"
    (row,) = [
        r for r in await game.repo.lane_rows("discord", chat, engine.now()) if r.key.startswith(key)
    ]
    assert row.state is OutboxState.SENDING
    return row


def shown(game: Game, title: str) -> list[Any]:
    return [m for m in game.table.bot_messages() if m.embeds and m.embeds[0].title == title]


async def test_a_post_repeated_after_a_crash_is_one_message(game: Game, nonces: Nonces) -> None:
    await seat_everyone(game, 2)
    before = len(posts(game))
    row = await _crashed_post(game, ViewKind.SETTLEMENT, "settle:zz:1")
    with game.env.time_context():
        sent = await game.table.client.adapter.outbox.deliver(row)
    assert sent is not None
    tries = posts(game, 0)[before:]
    assert len(tries) == 2
    assert [r.json["nonce"] for r in tries] == [nonce_of(row)] * 2
    assert all(r.json["enforce_nonce"] is True for r in tries)
    # Discord kept the first message and answered the repeat with it
    [message] = shown(game, "Round 1")
    assert nonces.dropped == 1 and sent.message_id == str(message.id)


async def test_a_post_whose_answer_was_lost_is_one_message(game: Game, nonces: Nonces) -> None:
    """The settlement is created, but the bot gets a 500 instead of the
    answer (it cannot know the post went out): the lane tries again with the
    same nonce and Discord answers with the first message."""
    alice, bob, _ = game.members
    await seat_everyone(game, 2)
    lobby = game.table.table_message()
    await alice.click(lobby, custom_id=button_id(lobby, Verb.START))
    for member in (alice, bob):
        hand = await game.open_hand(member)
        await game.arrange_by_suggestion(member, hand)
    lose_answers(nonces, game.env, 1)  # the first post now: the showdown's
    await game.finish_showdown()
    lose_answers(nonces, game.env, 1)
    await game.finish_showdown()
    await game.env.advance_time(30)  # the lanes' back-off
    await game.finish_showdown()
    assert (await game.state())["phase"] == "lobby"
    assert len(game.table.settlement_messages()) == 1
    assert nonces.dropped >= 1
    stats = await game.repo.outbox_stats("discord")
    assert stats.depth == 0 and stats.failed == 0
    made = posts(game)
    assert len({r.json["nonce"] for r in made}) == len(game.table.bot_messages())


async def test_an_unsure_settlement_is_not_repeated_after_the_window(
    game: Game, nonces: Nonces, caplog
) -> None:
    """A lost answer, then Discord down for longer than its nonce window:
    the settlement, perhaps shown already, is not posted again."""
    await seat_everyone(game, 2)
    outbox = game.table.client.adapter.outbox
    view = View(
        ViewKind.SETTLEMENT,
        Audience.GROUP,
        "settle:zz:1",
        "Round 1",
        ("alice +3", "bob -3"),
        platform="discord",
        chat_id=str(game.table.channel.id),
        language="en",
        fresh=True,  # a settlement is posted once, as the table asks
    )
    await game.repo.enqueue(view_entries([view]), outbox.engine.now())
    chat = str(game.table.channel.id)
    [row] = await game.repo.lane_rows("discord", chat, outbox.engine.now())
    lose_answers(nonces, game.env, 1)
    with game.env.time_context():  # one try of the row, as its lane makes it
        assert await outbox.engine._deliver(chat, row) > 0  # to be retried
    [row] = await game.repo.lane_rows("discord", chat, outbox.engine.now() + timedelta(minutes=1))
    assert row.state is OutboxState.PENDING and (row.last_error or "").startswith(UNSURE)
    game.env.inject_error("POST", "/channels/*/messages", status=503, message="down")
    with game.env.time_context(), pytest.raises(RetryLater) as down:
        await outbox.deliver(row)
    assert str(down.value).startswith(UNSURE)  # still unsure after a plain 503
    later = outbox.engine.now() + NONCE_WINDOW + timedelta(seconds=1)
    outbox.engine.now = lambda: later
    with game.env.time_context():
        assert await outbox.deliver(row) is None
    assert len(shown(game, "Round 1")) == 1  # the one Discord made
    assert any("not repeated" in r.getMessage() for r in caplog.records)


async def test_a_settlement_too_old_for_the_nonce_is_not_posted_again(game: Game, caplog) -> None:
    await seat_everyone(game, 2)
    row = await _crashed_post(game, ViewKind.SETTLEMENT, "settle:zz:1")
    engine = game.table.client.adapter.outbox.engine
    later = engine.now() + NONCE_WINDOW + timedelta(seconds=1)
    engine.now = lambda: later  # the restart came after Discord's nonce window
    before = len(posts(game))
    with game.env.time_context():
        sent = await game.table.client.adapter.outbox.deliver(row)
    assert sent is None and len(posts(game)) == before
    assert any("not repeated" in r.getMessage() for r in caplog.records)
    # any other post is repeated (at least once), with its nonce
    other = await _crashed_post(game, ViewKind.NOTICE, "notice:zz:reminder")
    with game.env.time_context():
        await game.table.client.adapter.outbox.deliver(other)
    assert len(posts(game)) == before + 2


async def test_hand_by_dm_survives_a_restart(game: Game) -> None:
    await seat_everyone(game, 2)
    alice, bob, _ = game.members
    lobby = game.table.table_message()
    await alice.click(lobby, custom_id=button_id(lobby, Verb.START))
    table_msg = game.table.table_message()
    dm_button = next(cid for cid in action_ids(table_msg) if cid.startswith("dc1|dm|"))
    await bob.click(table_msg, custom_id=dm_button)
    assert await game.repo.get_pref("discord", str(bob.id), "hand_dm") == "1"
    dms = bob.user.dm_channel.history()
    assert len(dms) == 1

    # a new process: the preference and the DM's id come from the database
    await restart(game)
    first = (await game.hand_state(bob))["order"][0]
    await bob.user.click(dms[0], custom_id=button_id(dms[0], Verb.PICK, str(first)))
    await game.advance(121)  # the deadline auto-arranges: the change reaches bob's DM
    await game.finish_showdown()
    dms = bob.user.dm_channel.history()
    assert len(dms) == 1  # the same DM message, edited
    assert verbs(dms[0]) == [Verb.REVIEW]

    # the next round's hand goes to the DM too, without bob asking again
    settle = game.table.settlement_messages()[-1]
    await alice.click(settle, custom_id=button_id(settle, Verb.START))
    assert Verb.PICK in verbs(bob.user.dm_channel.history()[-1])
    # "my hand" (the ephemeral) is bob's latest choice: DMs off
    await game.open_hand(bob)
    assert await game.repo.get_pref("discord", str(bob.id), "hand_dm") is None


async def test_a_press_on_the_table_is_one_edit(game: Game) -> None:
    await seat_everyone(game, 2)
    table_msg = game.table.table_message()
    calls = len(game.env.http_requests)
    carol = game.members[2]
    await carol.click(table_msg, custom_id=button_id(table_msg, Verb.JOIN))
    made = game.env.http_requests[calls:]
    answers = [r.json.get("type") for r in made if r.path.endswith("/callback")]
    assert answers == [6]  # a deferred update: the press itself edits nothing
    edits = [r for r in made if r.method == "PATCH" and r.path.endswith(f"/{table_msg.id}")]
    assert len(edits) == 1  # the outbox's edit by the stored id, once
    assert carol.name in embed_text(game.table.table_message())


async def test_a_stale_press_on_an_old_settlement_takes_its_dead_buttons(game: Game) -> None:
    """A settlement whose message the next deal did not know (its post was
    never confirmed) keeps "next round"; a press on it is refused and takes
    the buttons that no longer answer off it, the informative ones stay."""
    await seat_everyone(game, 2)
    alice, bob, _ = game.members
    lobby = game.table.table_message()
    await alice.click(lobby, custom_id=button_id(lobby, Verb.START))
    await game.advance(121)
    await game.finish_showdown()
    [settle] = game.table.settlement_messages()
    chat, room = str(game.table.channel.id), game.room_id()
    stored = await game.repo.sent_message("discord", chat, f"settle:{room}:1")
    assert stored is not None
    await game.repo.put_sent(dataclasses.replace(stored, has_buttons=False))  # "not known"
    await alice.click(settle, custom_id=button_id(settle, Verb.START))
    [settle] = game.table.settlement_messages()
    assert Verb.START in verbs(settle)
    res = await bob.click(settle, custom_id=button_id(settle, Verb.START))
    assert [m.ephemeral for m in res.followups] == [True]  # refused, privately
    [settle] = game.table.settlement_messages()
    assert Verb.START not in verbs(settle)
    assert Verb.VERIFY in verbs(settle) and Verb.REVIEW in verbs(settle)
    assert (await game.state())["round_no"] == 2  # nothing changed
