"""Telegram delivery over the durable outbox, through the real client and
the fake Bot API: 429 storms, a deleted table, repeated information posts,
message ids that survive a new adapter (a restart) on the same database."""

from __future__ import annotations

import logging
from typing import Any

from bot.table.actions import Verb, decode
from storage.sql import SqlRepository
from tests.stored import stored_json
from tests.telegram.fakebotapi import FakeBotAPI
from tests.telegram.harness import GROUP_ID, Harness, button_verb, buttons_of
from tests.telegram.play import (
    USERS,
    alerted,
    arrange_by_suggestion,
    deal,
    join,
    open_room,
    reveal,
    settlements,
    start_round,
    table,
)

ANN, BO, CY = USERS[:3]


INFORMATIVE = {Verb.VERIFY, Verb.REVIEW, Verb.LEADERBOARD, Verb.RULES, Verb.HELP, Verb.STATS}


def game_buttons(message) -> list:  # type: ignore[no-untyped-def,type-arg]
    """Buttons that act on the game (a retired settlement keeps only the others)."""
    return [b for b in message.buttons if button_verb(b) not in INFORMATIVE | {None}]


def live(h: Harness) -> list:  # type: ignore[type-arg]
    return [m for m in h.group_messages() if game_buttons(m)]


async def both_arranged(h: Harness) -> None:
    """Ann opens a table, Bo joins, the round is dealt and both arrange."""
    await deal(h, ANN, BO)
    for user in (ANN, BO):
        await arrange_by_suggestion(h, user)


async def test_ten_429s_in_a_row_on_every_method_lose_nothing(api: FakeBotAPI, caplog) -> None:
    api.opened |= {ANN.id, BO.id}
    async with table(api) as (h, manager, clock):
        await open_room(h, ANN, BO)
        # the round's table is a photo: posted, then edited into the showdown
        for method in ("sendPhoto", "editMessageMedia"):
            api.fail_429_times[method] = [10, 1]  # retry_after: 1 s, ten times in a row
        with caplog.at_level(logging.WARNING):
            await start_round(h, ANN)
            for user in (ANN, BO):
                await arrange_by_suggestion(h, user)
            result = await reveal(h, clock)
        assert "Ann" in result.text and "Bo" in result.text
        refused = [c for c in api.calls if c.status == 429]
        assert len(refused) == 20  # every one of them was retried until it went through
        # the settlement is the lobby now; the table became the showdown
        assert len(settlements(h)) == 1 and live(h) == settlements(h)
        (showdown,) = [m for m in h.group_messages() if m.photo and not m.buttons]
        assert "Ann" in showdown.text and len(showdown.photos) == 4
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert not [r for r in caplog.records if r.exc_info]


async def test_a_settlement_post_whose_answer_timed_out_is_not_posted_twice(
    api: FakeBotAPI, caplog
) -> None:
    """Telegram took the settlement post, but its answer came after the
    bot's read timeout: the post may have been made, and Telegram has no
    way to ask, so it is not repeated (docs/delivery.md §5)."""
    api.opened |= {ANN.id, BO.id, CY.id}
    held: list[dict[str, Any]] = []

    def settling(method: str, params: dict[str, Any]) -> bool:
        if method not in ("sendMessage", "sendPhoto") or int(params["chat_id"]) != GROUP_ID:
            return False
        rows = (params.get("reply_markup") or {}).get("inline_keyboard", [])
        return any(
            decode(b["callback_data"])[2] is Verb.VERIFY
            for row in rows
            for b in row
            if "callback_data" in b
        )

    def hold(method: str, params: dict[str, Any]) -> float:
        if not settling(method, params) or held:
            return 0.0
        held.append(params)
        return 7.0  # past python-telegram-bot's read timeout (5 s)

    async with table(api) as (h, manager, clock):
        await both_arranged(h)
        api.hold_answer = hold
        with caplog.at_level(logging.WARNING):
            await reveal(h, clock)
        assert len(held) == 1
        calls = [c for c in api.calls if settling(c.method, c.params)]
        assert len(calls) == 1 and len(settlements(h)) == 1  # never a second post
        assert "may have been posted already; not repeated" in caplog.text
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
        # While it is the lobby, a join updates it: with no message id to
        # edit, the update is dropped, never a second post of the round
        [settle] = settlements(h)
        caption = settle.text
        await join(h, CY)
        await h.outbox.drain()
        assert len(settlements(h)) == 1 and settle.text == caption
        assert len([c for c in api.calls if settling(c.method, c.params)]) == 1
        # Its message id never came back, so the next deal cannot take its
        # "next round" button; a press on it after that deal is refused and
        # takes the buttons that no longer answer off it.
        await h.press_verb(ANN, settle, Verb.START)  # round 2 dealt from it
        assert buttons_of(settle, Verb.START), "not known: still shown"
        answer = await h.press_verb(BO, settle, Verb.START)
        assert alerted(answer)
        assert not buttons_of(settle, Verb.START)
        assert buttons_of(settle, Verb.VERIFY) and buttons_of(settle, Verb.REVIEW)
        room = decode(buttons_of(settle, Verb.VERIFY)[0]["callback_data"])[0]
        assert (await stored_json(manager, room))["round_no"] == 2  # nothing changed


async def test_a_deleted_table_message_is_posted_again(api: FakeBotAPI) -> None:
    api.opened |= {ANN.id, BO.id}
    async with table(api) as (h, manager, clock):
        await open_room(h, ANN)
        first = h.group_messages()[0]
        del api.messages[(first.chat_id, first.message_id)]  # an admin deleted it
        await join(h, BO)
        [again] = h.group_messages()
        assert again.message_id != first.message_id and "Bo" in again.text
        assert buttons_of(again, Verb.START)


async def test_repeated_rules_are_one_message(api: FakeBotAPI) -> None:
    async with table(api) as (h, manager, clock):
        await open_room(h, ANN)
        before = len(h.group_messages())
        for _ in range(30):
            await h.command(BO, "/rules")
        assert len(h.group_messages()) == before + 1
        assert len([c for c in api.calls_of("sendMessage") if c.status == 200]) == before + 1


async def test_a_new_adapter_on_the_same_database_edits_the_same_messages(
    api: FakeBotAPI, tmp_path
) -> None:
    """What a restart keeps: the table's and hands' message ids."""
    api.opened |= {ANN.id, BO.id}
    url = f"sqlite:///{tmp_path / 'bot.db'}"
    async with table(api, repo=SqlRepository(url)) as (h, manager, clock):
        await deal(h, ANN, BO)
        hand = h.hand_message(ANN)
        (dealt,) = [m for m in h.group_messages() if m.photo]
        await manager.repo.close()
    async with table(api, repo=SqlRepository(url), clock=clock) as (h, manager, clock):
        await arrange_by_suggestion(h, ANN)  # presses on the message sent before
        await arrange_by_suggestion(h, BO)
        await reveal(h, clock)
        # the round's table, sent before, edited by the new adapter into the
        # showdown; the settlement is the one live message
        assert live(h) == settlements(h) and len(settlements(h)) == 1
        showdown = api.messages[(dealt.chat_id, dealt.message_id)]
        assert len(showdown.photos) == 4 and not showdown.buttons
        # the same hand message, edited by the new adapter
        assert [m.message_id for m in h.private_messages(ANN)] == [hand.message_id]
        assert api.messages[(ANN.id, hand.message_id)].edits >= 3
        assert await manager.repo.open_room_for_chat("telegram", str(GROUP_ID)) is not None
        await manager.repo.close()


async def test_last_round_s_settlement_loses_its_next_round_button(api: FakeBotAPI) -> None:
    api.opened |= {ANN.id, BO.id}
    async with table(api) as (h, manager, clock):
        await both_arranged(h)
        first = await reveal(h, clock)
        assert buttons_of(first, Verb.START)
        await h.press_verb(ANN, first, Verb.START)  # round 2 is dealt
        assert not buttons_of(first, Verb.START)  # no live-looking "next round" any more
        assert buttons_of(first, Verb.VERIFY)  # what still answers stays
        assert len(live(h)) == 1  # the table; round 1's settlement keeps verify only
        tables = [m for m in h.group_messages() if m.message_id < first.message_id]
        assert all(not m.buttons for m in tables)  # the replaced tables keep nothing
        first_hand = h.private_messages(ANN)[0]
        assert not buttons_of(first_hand, Verb.PICK)  # last round's hand is not tappable


async def test_two_quick_taps_on_the_settings_panel_keep_one_panel(api: FakeBotAPI) -> None:
    import asyncio

    from telegram import Update

    api.opened |= {ANN.id, BO.id}
    async with table(api) as (h, manager, clock):
        await open_room(h, ANN, BO)
        await h.command(ANN, "/settings")
        panel = h.message_with(ANN.id, Verb.SET_OPTION)
        options = buttons_of(panel, Verb.SET_OPTION) + buttons_of(panel, Verb.LANGUAGE)
        taps = [options[0]["callback_data"], options[-1]["callback_data"]]
        updates = [
            {
                "update_id": api.next_update_id(),
                "callback_query": {
                    "id": f"quick{n}",
                    "from": ANN.json(),
                    "chat_instance": "ci",
                    "data": data,
                    "message": api._message_json(panel),
                },
            }
            for n, data in enumerate(taps)
        ]
        await asyncio.gather(*(h.app.process_update(Update.de_json(u, h.app.bot)) for u in updates))
        await h.outbox.drain()
        panels = [m for m in h.private_messages(ANN) if buttons_of(m, Verb.SET_OPTION)]
        assert [m.message_id for m in panels] == [panel.message_id]  # one panel, edited
        assert panel.edits >= 1


async def test_a_hand_held_for_a_user_is_sent_by_a_restarted_adapter(
    api: FakeBotAPI, tmp_path
) -> None:
    """Held views live in the database: /start reaching another process (or
    the bot after a restart) still delivers them."""
    api.opened |= {ANN.id}  # Bo has never opened the bot
    url = f"sqlite:///{tmp_path / 'bot.db'}"
    async with table(api, repo=SqlRepository(url)) as (h, manager, clock):
        await deal(h, ANN, BO)
        assert h.private_messages(BO) == []  # held: Telegram refused the first message
        await manager.repo.close()
    async with table(api, repo=SqlRepository(url), clock=clock) as (h, manager, clock):
        await h.start_private(BO)
        assert buttons_of(h.hand_message(BO), Verb.PICK)
        await manager.repo.close()
