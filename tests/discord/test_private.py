"""Hands by DM, the deadline through the sink, localized commands."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.i18n import t
from bot.table.actions import Verb

from .game import Game, deal, playing
from .harness import action_ids, button_id, embed_text, verbs


@pytest.fixture
async def game() -> AsyncIterator[Game]:
    async with playing(["alice", "bob", "carol"]) as game:
        yield game


def _dm_button(message) -> str:
    return next(cid for cid in action_ids(message) if cid.startswith("dc1|dm|"))


async def test_hand_by_dm_and_arranging_there(game: Game) -> None:
    await deal(game)
    alice, bob, _ = game.members
    table_msg = game.table.table_message()
    res = await bob.click(table_msg, custom_id=_dm_button(table_msg))
    assert res.ephemeral  # "sent to your DMs", for bob alone
    dms = bob.user.dm_channel.history()
    assert len(dms) == 1 and Verb.PICK in verbs(dms[0])
    hand = await game.hand_state(bob)
    first = hand["order"][0]
    # pressing in the DM edits that DM message in place
    press = await bob.user.click(dms[0], custom_id=button_id(dms[0], Verb.PICK, str(first)))
    assert press.response is not None and press.response.id == dms[0].id
    assert (await game.hand_state(bob))["head"] == [first]
    assert len(bob.user.dm_channel.history()) == 1
    # a change made without bob pressing (auto-arrange at the deadline) reaches the DM too
    await game.advance(121)
    await game.finish_showdown()
    dm = bob.user.dm_channel.history()[-1]
    assert verbs(dm) == [Verb.REVIEW]  # after the showdown only the review (复盘) is left
    assert (await game.state())["phase"] == "lobby"
    assert len(game.table.settlement_messages()) == 1


async def test_closed_dms_fall_back_to_the_ephemeral(game: Game) -> None:
    await deal(game)
    _, bob, _ = game.members
    table_msg = game.table.table_message()
    # Discord answers 50007 "Cannot send messages to this user" when DMs are closed
    game.env.inject_error(
        "POST",
        "/channels/*/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
    )
    res = await bob.click(table_msg, custom_id=_dm_button(table_msg))
    texts = [m for m in [res.response, *res.followups] if m is not None]
    assert all(m.ephemeral for m in texts)
    assert any(m.content == t("en", "dc.hand.dm_failed") for m in texts)
    assert any(Verb.PICK in verbs(m) for m in texts)  # the hand, privately, after all
    assert not bob.user.dm_channel.history()
    assert game.env.errors == []


async def test_deadline_auto_arranges_and_settles_through_the_sink(game: Game) -> None:
    await deal(game)
    alice, bob, _ = game.members
    bob_hand = await game.open_hand(bob)
    before = len(game.table.bot_messages())
    await game.advance(95)  # past the reminder (30 s before the deadline)
    after = game.table.bot_messages()
    assert len(after) == before + 1  # the reminder, a one-off group message
    assert alice.name in embed_text(after[-1]) and bob.name in embed_text(after[-1])
    await game.advance(30)  # past the deadline: every hand is arranged by the table
    await game.finish_showdown()
    assert (await game.state())["phase"] == "lobby"
    settle = game.table.settlement_messages()
    assert len(settle) == 1 and alice.name in embed_text(settle[0])
    # bob's open ephemeral hand was refreshed with the auto-arranged hand
    refreshed = [m for m in game.table.channel.history(viewer=bob) if m.id == bob_hand.id]
    assert refreshed and verbs(refreshed[0]) == [Verb.REVIEW]  # only the review (复盘) left
    assert (await game.hand_state(bob))["auto"]


async def test_commands_are_localized(game: Game) -> None:
    command = game.env.backend.find_command("thirteen", None, type=1)
    assert command is not None
    assert command["contexts"] == [0]  # guild channels only
    assert command["name_localizations"]["zh-CN"] == "十三水"
    assert command["name_localizations"]["zh-TW"] == "十三水"
    subs = {o["name"]: o for o in command["options"]}
    assert set(subs) == {
        "new",
        "join",
        "leave",
        "start",
        "rules",
        "settings",
        "leaderboard",
        "stats",
        "language",
        "cancel",
        "verify",
        "replay",
        "rounds",
        "help",
    }
    assert subs["join"]["name_localizations"]["zh-CN"] == "加入"
    assert subs["settings"]["name_localizations"]["zh-TW"] == "設定"
    assert subs["help"]["description_localizations"]["en-US"] == "How to play here"
    preset = subs["new"]["options"][0]
    assert preset["name_localizations"]["zh-CN"] == "玩法"
    assert {c["value"] for c in preset["choices"]} == {"classic", "extended"}


async def test_guild_sync_for_development(game: Game) -> None:
    from bot.config import Settings
    from bot.platforms.discord.client import run_discord

    from .harness import client_for

    guild = game.table.guild
    dev = Settings(_env_file=None, discord_guild_id=guild.id)  # type: ignore[call-arg]
    await game.env.restart_bot(client_for(game.manager, dev))
    assert game.env.backend.find_command("thirteen", guild.id, type=1)["guild_id"] == str(guild.id)
    res = await game.members[0].slash(game.table.channel, "thirteen help")
    assert res.response is not None and res.response.embeds

    with pytest.raises(RuntimeError):
        await run_discord(Settings(_env_file=None, discord_token=None), game.manager)  # type: ignore[call-arg]


async def test_hand_after_the_15_minute_token(game: Game) -> None:
    await deal(game)
    _, bob, _ = game.members
    old = await game.open_hand(bob)
    await game.env.advance_time(16 * 60)  # Discord time: our token for bob's ephemeral expired
    # a press on the old ephemeral still works: the press brings a fresh token
    first = (await game.hand_state(bob))["order"][0]
    res = await bob.click(old, custom_id=button_id(old, Verb.PICK, str(first)))
    assert res.response is not None and res.response.id == old.id
    assert (await game.hand_state(bob))["head"] == [first]
    await game.env.advance_time(16 * 60)
    calls = len(game.env.http_requests)
    await game.advance(121)  # table time: the deadline auto-arranges every hand
    edits = [
        r for r in game.env.http_requests[calls:] if r.method == "PATCH" and "/webhooks/" in r.path
    ]
    assert edits == []  # the expired token is not even tried
    assert Verb.PICK in verbs(
        next(m for m in game.table.channel.history(viewer=bob) if m.id == old.id)
    )
    assert (await game.hand_state(bob))["auto"]
    await game.finish_showdown()
    assert len(game.table.settlement_messages()) == 1


async def test_after_a_restart_the_deadline_edits_the_same_table(game: Game) -> None:
    from .game import make_manager

    await deal(game)
    table_msg = game.table.table_message()
    bot_messages = len(game.table.bot_messages())
    await game.manager.stop()
    game.manager = make_manager(game.repo, game.clock)
    await game.manager.start()
    await game.table.restart(game.manager)
    # nobody presses anything: the deadline (through the sink) finds the table message again
    await game.advance(121)
    await game.finish_showdown()
    # the table message itself became the showdown (its buttons gone, the
    # lanes' picture); only the reminder and the settlement are new
    shown = next(m for m in game.table.bot_messages() if m.id == table_msg.id)
    assert not action_ids(shown) and "attachment://" in (shown.embeds[0].image.url or "")
    assert len(game.table.bot_messages()) == bot_messages + 2
    assert len(game.table.settlement_messages()) == 1
