"""End to end: the real discord.py client under SimCord, the real TableManager."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import simcord

from bot.core.options import summary
from bot.core.room import Room
from bot.table.actions import Verb, decode
from bot.views.model import Audience, View, ViewKind
from storage.sql import SqlRepository

from .game import (
    NAMES,
    Game,
    make_manager,
    open_game,
    open_room,
    playing,
    seat_everyone,
    start_round,
)
from .harness import action_ids, button_id, embed_text, private_reply, verbs


@pytest.fixture
async def memory_game(request) -> AsyncIterator[Game]:
    players = getattr(request, "param", 2)
    async with playing(NAMES[: players + 1]) as game:  # one extra member watches
        yield game


@pytest.mark.parametrize("memory_game", [2, 3, 4], indirect=True)
async def test_whole_game(memory_game: Game, request) -> None:
    game = memory_game
    players = request.node.callspec.params["memory_game"]
    owner = game.members[0]
    await seat_everyone(game, players)
    tables_before = len(game.table.bot_messages())

    msg = game.table.table_message()
    if players == 3:
        # by command: acknowledged at once ("thinking…"), then the owner's hand privately
        started = await start_round(owner, game.table.channel)
        assert started.ephemeral and started.response is not None
        assert Verb.PICK in verbs(started.response)
    else:
        started = await owner.click(msg, custom_id=button_id(msg, Verb.START))
        assert started.deferred  # dealing is acknowledged first
        assert started.followups and Verb.PICK in verbs(started.followups[0])
    table_msg = game.table.table_message()
    # the deal posts the table afresh (below the lobby chatter); the old one loses its buttons
    assert table_msg.id != msg.id
    assert not action_ids(next(m for m in game.table.bot_messages() if m.id == msg.id))
    assert Verb.SHOW_HAND in verbs(table_msg)
    assert any(cid.startswith("dc1|dm|") for cid in action_ids(table_msg))

    for n, member in enumerate(game.members[:players]):
        hand_msg = await game.open_hand(member)
        assert 13 <= len(action_ids(hand_msg)) <= 25
        if n % 2 == 0:
            await game.arrange_by_clicking(member, hand_msg)
        else:
            await game.arrange_by_suggestion(member, hand_msg)
        assert (await game.hand_state(member))["done"]
        # confirmed: the private message keeps only the review (复盘), which
        # opens once the round is paid
        assert verbs(hand_msg) == [Verb.REVIEW]

    await game.finish_showdown()
    settlements = game.table.settlement_messages()
    assert len(settlements) == 1
    settle = settlements[0]
    state = await game.state()
    assert state["phase"] == "lobby" and state["round_no"] == 1
    assert sum(state["totals"].values()) == 0
    text = embed_text(settle)
    assert all(m.name in text for m in game.members[:players])
    assert Verb.START in verbs(settle)
    # the round's table became its showdown: the same message, no buttons,
    # its picture the lanes turned up; the settlement is the lobby now
    shown = next(m for m in game.table.bot_messages() if m.id == table_msg.id)
    assert not action_ids(shown) and shown.attachments
    assert "attachment://" in (shown.embeds[0].image.url or "")
    assert game.table.table_message().id == settle.id
    assert {Verb.JOIN, Verb.LEAVE, Verb.START} <= set(verbs(settle))
    # new since the lobby: the round's table (now its showdown) and the settlement
    assert len(game.table.bot_messages()) == tables_before + 2
    settle_image = settle.embeds[0].image.url or ""
    assert settle_image.startswith("attachment://") and settle.attachments

    nxt = await owner.click(settle, custom_id=button_id(settle, Verb.START))
    assert nxt.acknowledged
    state = await game.state()
    assert state["phase"] == "arranging" and state["round_no"] == 2
    assert decode(button_id(game.table.table_message(), Verb.SHOW_HAND))[1] == 2


async def test_commands_answer(memory_game: Game) -> None:
    game = memory_game
    alice, bob, carol = game.members
    channel = game.table.channel
    res = await alice.slash(channel, "thirteen help")
    # answers for the asker alone (ephemeral), naming Discord's own commands
    assert res.response is not None and res.ephemeral and res.response.embeds
    help_text = res.response.embeds[0].description or ""
    assert "/thirteen new" in help_text and "/newgame" not in help_text
    assert "/thirteen replay" in help_text and "/thirteen rounds" in help_text
    assert " /replay" not in help_text and " /rounds" not in help_text
    await seat_everyone(game, 2)
    posts = len(game.table.bot_messages())
    rules = await bob.slash(channel, "thirteen rules")
    assert rules.response is not None and rules.response.embeds and rules.ephemeral
    assert len(game.table.bot_messages()) == posts  # no new post in the channel
    stats = await bob.slash(channel, "thirteen stats")
    assert stats.ephemeral
    panel = await alice.slash(channel, "thirteen settings")
    assert panel.ephemeral and panel.response is not None and action_ids(panel.response)
    # another player reads the settings, with nothing to change them
    read = await bob.slash(channel, "thirteen settings")
    assert read.ephemeral and read.response is not None and read.response.embeds
    assert not action_ids(read.response)
    board = await carol.slash(channel, "thirteen leaderboard", period="week")
    assert board.acknowledged
    lang = await alice.slash(channel, "thirteen language", language="zh-Hans")
    assert lang.acknowledged
    assert (await game.state())["language"] == "zh-Hans"
    cancel = await bob.slash(channel, "thirteen cancel")  # not the owner
    assert private_reply(cancel)
    assert (await game.state())["phase"] == "lobby"
    cancel = await alice.slash(channel, "thirteen cancel")
    assert cancel.acknowledged
    assert (await game.state())["phase"] == "closed"  # the lobby closes at once
    assert (await game.state())["phase"] == "closed"
    assert not action_ids(game.table.table_message_any())


async def test_stale_and_foreign_presses(memory_game: Game) -> None:
    game = memory_game
    alice, bob, carol = game.members
    await seat_everyone(game, 2)
    msg = game.table.table_message()

    # bob is not the owner: start is refused privately, nothing changes
    before = embed_text(msg)
    res = await bob.click(msg, custom_id=button_id(msg, Verb.START))
    assert private_reply(res)
    assert embed_text(game.table.table_message()) == before
    assert (await game.state())["phase"] == "lobby"

    await alice.click(msg, custom_id=button_id(msg, Verb.START))
    # carol watches: "my hand" is refused privately
    table_msg = game.table.table_message()
    res = await carol.click(table_msg, custom_id=button_id(table_msg, Verb.SHOW_HAND))
    assert private_reply(res)

    alice_hand = await game.open_hand(alice)
    # another member cannot even see, let alone press, alice's ephemeral hand
    with pytest.raises(simcord.SetupError):
        await bob.click(alice_hand, custom_id=button_id(alice_hand, Verb.PICK, "0"))

    # alice's hand buttons leaked into the channel (forged data): the presser
    # is taken from the interaction, so carol is refused and bob acts on his own hand
    leaked = await _post_leak(game, alice_hand)
    before_alice = await game.hand_state(alice)
    res = await carol.click(leaked, custom_id=button_id(leaked, Verb.PICK, "0"))
    assert private_reply(res)
    res = await bob.click(leaked, custom_id=button_id(leaked, Verb.PICK, "0"))
    assert (await game.hand_state(alice))["head"] == before_alice["head"]
    assert (await game.hand_state(bob))["head"] == [0]
    assert embed_text(game.table.bot_messages()[-1]) == embed_text(
        leaked
    )  # the leak was not edited

    # finish the round, start the next; the old settlement's button is stale
    await game.arrange_by_suggestion(alice, alice_hand)
    bob_hand = await game.open_hand(bob)
    await game.arrange_by_clicking(bob, bob_hand)
    await game.finish_showdown()
    settle = game.table.settlement_messages()[-1]
    informative = {Verb.VERIFY, Verb.LEADERBOARD, Verb.REVIEW}
    assert informative | {Verb.START, Verb.JOIN} <= set(verbs(settle))  # the lobby
    start_id = button_id(settle, Verb.START)
    await alice.click(settle, custom_id=start_id)
    assert (await game.state())["round_no"] == 2
    # the next round's table is up: the settlement keeps only what still answers
    settle = game.table.settlement_messages()[-1]
    assert Verb.START not in verbs(settle) and set(verbs(settle)) == informative
    # its old "next round" button, pressed anyway (a copy of it), changes nothing
    before = embed_text(game.table.table_message())
    copy = await _post_buttons(game, [[{"label": "next", "custom_id": start_id}]])
    res = await alice.click(copy, custom_id=start_id)
    assert private_reply(res)
    assert (await game.state())["round_no"] == 2
    assert embed_text(game.table.table_message()) == before


async def _post_leak(game: Game, hand_msg: simcord.ResponseMessage) -> object:
    """Post a public copy of a hand message's buttons through the bot (as a
    forger would craft them)."""
    return await _post_buttons(game, [row["components"] for row in hand_msg.components])


async def _post_buttons(game: Game, buttons: list[list[dict]]) -> object:
    """Post a message with these buttons (label, custom_id) through the bot."""
    from bot.platforms.discord.render import render
    from bot.views.model import Button

    rows = []
    for row in buttons:
        rows.append(tuple(Button(c.get("label", "?"), c["custom_id"]) for c in row))
    view = View(ViewKind.NOTICE, Audience.GROUP, "leak", "leak", ("leaked",), tuple(rows))
    channel = game.table.client.get_partial_messageable(game.table.channel.id)
    with game.env.time_context():
        await channel.send(**render(view).send_kwargs())
    await game.env.settle()
    return game.table.bot_messages()[-1]


async def test_restart_mid_arranging(tmp_path) -> None:
    url = f"sqlite:///{tmp_path / 'thirteen.db'}"
    repo = SqlRepository(url)
    await repo.init()
    game = await open_game(repo, ["alice", "bob", "carol"])
    alice, bob, carol = game.members
    try:
        await seat_everyone(game, 2)
        lobby = game.table.table_message()
        await alice.click(lobby, custom_id=button_id(lobby, Verb.START))
        msg = game.table.table_message()
        alice_hand = await game.open_hand(alice)
        hand = await game.hand_state(alice)
        first = hand["order"][0]
        await alice.click(alice_hand, custom_id=button_id(alice_hand, Verb.PICK, str(first)))
        assert (await game.hand_state(alice))["head"] == [first]

        # restart: new manager and new client on the same database file
        await game.manager.stop()
        await repo.close()
        repo = SqlRepository(url)
        await repo.init()
        game.repo = repo
        game.manager = make_manager(repo, game.clock)
        await game.manager.start()
        await game.table.restart(game.manager)

        # the old ephemeral hand's buttons still work and edit that message
        res = await alice.click(
            alice_hand, custom_id=button_id(alice_hand, Verb.PICK, str(hand["order"][1]))
        )
        assert res.response is not None and res.response.id == alice_hand.id
        assert (await game.hand_state(alice))["head"] == [first, hand["order"][1]]
        # the table message's buttons still work
        table_msg = game.table.table_message()
        assert table_msg.id == msg.id
        res = await carol.click(table_msg, custom_id=button_id(table_msg, Verb.RULES))
        assert res.acknowledged
        bob_hand = await game.open_hand(bob)
        await game.arrange_by_clicking(bob, bob_hand)
        # alice resets her taps and finishes by clicking
        await game.arrange_by_clicking(alice, alice_hand)
        # the restarted client edits the same table message through the showdown
        await game.finish_showdown()
        shown = next(m for m in game.table.bot_messages() if m.id == msg.id)
        assert not action_ids(shown) and "attachment://" in (shown.embeds[0].image.url or "")
        assert len(game.table.settlement_messages()) == 1
        assert (await game.state())["round_no"] == 1

        # a second restart, in the lobby: the lobby and settlement buttons still work
        await game.manager.stop()
        game.manager = make_manager(repo, game.clock)
        await game.manager.start()
        await game.table.restart(game.manager)
        lobby = game.table.table_message()
        res = await carol.click(lobby, custom_id=button_id(lobby, Verb.JOIN))
        assert res.response is not None and res.response.id == lobby.id  # edited in place
        assert carol.name in embed_text(game.table.table_message())
        settle = game.table.settlement_messages()[0]
        await alice.click(settle, custom_id=button_id(settle, Verb.START))
        state = await game.state()
        assert state["round_no"] == 2 and len(state["round"]["seats"]) == 3
        assert len(game.table.settlement_messages()) == 1  # the settlement was not overwritten
        # the settlement was the lobby: it keeps what answers for any round
        kept = next(m for m in game.table.bot_messages() if m.id == lobby.id)
        assert set(verbs(kept)) == {Verb.VERIFY, Verb.LEADERBOARD, Verb.REVIEW}
    finally:
        await game.manager.stop()
        await game.env.shutdown()
        await repo.close()
        game.env.raise_errors()


async def test_settings_panel(memory_game: Game) -> None:
    game = memory_game
    alice, bob, _ = game.members
    await seat_everyone(game, 2)
    table_msg = game.table.table_message()
    res = await bob.click(table_msg, custom_id=button_id(table_msg, Verb.SETTINGS))
    # bob reads the settings for himself, with nothing to change them
    assert res.ephemeral and res.response is not None and res.response.embeds
    assert not action_ids(res.response)
    panel = await alice.click(table_msg, custom_id=button_id(table_msg, Verb.SETTINGS))
    assert panel.ephemeral and panel.response is not None
    assert len(action_ids(panel.response)) <= 25
    jokers_before = summary(Room.from_json(await game.state()))["jokers"]
    option = next(cid for cid in action_ids(panel.response) if "|o|jokers=" in cid)
    res = await alice.click(panel.response, custom_id=option)
    assert res.acknowledged
    assert summary(Room.from_json(await game.state()))["jokers"] != jokers_before
    assert game.table.table_message().id == table_msg.id
    english = embed_text(game.table.table_message())
    lang = next(cid for cid in action_ids(panel.response) if cid.endswith("|lang|zh-Hant"))
    await alice.click(panel.response, custom_id=lang)
    assert embed_text(game.table.table_message()) != english
    assert (await game.state())["language"] == "zh-Hant"


async def test_one_member_against_an_ai_seat(memory_game: Game) -> None:
    game = memory_game
    alice = game.members[0]
    await open_room(alice, game.table.channel)
    lobby = game.table.table_message()
    res = await alice.click(lobby, custom_id=button_id(lobby, Verb.ADD_AI, "normal"))
    assert res.response is not None and res.response.id == lobby.id
    assert len((await game.state())["players"]) == 2
    await alice.click(lobby, custom_id=button_id(lobby, Verb.START))
    hand_msg = await game.open_hand(alice)
    await game.arrange_by_clicking(alice, hand_msg)
    await game.finish_showdown()
    settle = game.table.settlement_messages()
    assert len(settle) == 1
    state = await game.state()
    assert len(state["totals"]) == 2 and sum(state["totals"].values()) == 0
