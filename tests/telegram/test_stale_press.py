"""A press refused as stale is judged against the message it came from, not
against the data it carries: callback data of an earlier round sent on the
live table (a modified client may send any data for a message it can see)
is refused and takes none of that table's buttons (issue 20, C)."""

from __future__ import annotations

from bot.table.actions import Verb, decode, encode
from tests.stored import stored_json
from tests.telegram.fakebotapi import FakeBotAPI
from tests.telegram.harness import GROUP_ID, buttons_of
from tests.telegram.play import (
    USERS,
    alerted,
    arrange_by_suggestion,
    deal,
    open_room,
    reveal,
    room_of,
    start_round,
    table,
)

ANN, BO, CY, DI = USERS
OTHER_GROUP = GROUP_ID - 1


async def test_a_forged_stale_press_on_the_live_table_leaves_its_buttons(api: FakeBotAPI) -> None:
    api.opened |= {ANN.id, BO.id, DI.id}
    async with table(api) as (h, manager, clock):
        await open_room(h, DI, chat_id=OTHER_GROUP)  # another group's room
        other = decode(
            buttons_of(h.message_with(OTHER_GROUP, Verb.RULES), Verb.RULES)[0]["callback_data"]
        )[0]
        await open_room(h, ANN, BO)
        room = room_of(h)
        await start_round(h, ANN)
        for user in (ANN, BO):
            await arrange_by_suggestion(h, user)
        first = await reveal(h, clock)
        next_round = buttons_of(first, Verb.START)[0]["callback_data"]  # round 1's
        # Round 1's settlement, its "next round" live: a press of round 0 on it
        # takes nothing, also when its message id is not known (a post whose
        # answer never came): its buttons are judged one by one, not by the press.
        shown = first.reply_markup
        for known in (True, False):
            if not known:
                await h.outbox.store.forget_sent("telegram", str(GROUP_ID), f"settle:{room}:1")
            answer = await h.press(BO, first, encode(room, 0, Verb.START))
            assert alerted(answer) and answer["text"]
            assert first.reply_markup == shown and first.edits == 0, known
        assert not alerted(await h.press_verb(ANN, first, Verb.START))
        live = h.message_with(GROUP_ID, Verb.SHOW_HAND)  # round 2's table
        assert buttons_of(live, Verb.SHOW_HAND) and buttons_of(live, Verb.LEAVE)
        shown = live.reply_markup
        state = await stored_json(manager, room)
        assert state is not None and state["round_no"] == 2
        calls = len(api.calls)
        forged = [
            (BO, next_round),  # a player: round 1's "next round", sent on round 2's table
            (BO, encode(room, 1, Verb.SHOW_HAND)),  # round 1's "my hand"
            (ANN, encode(room, 1, Verb.LEAVE)),
            (CY, encode(room, 1, Verb.SHOW_HAND)),  # a member who is not seated
            (CY, encode(room, 0, Verb.JOIN)),
            (DI, encode(other, 3, Verb.START)),  # another group's room, a round it never had
        ]
        for user, data in forged:
            answer = await h.press(user, live, data)
            assert alerted(answer) and answer["text"], (data, answer)  # a short refusal
        assert live.reply_markup == shown  # 我的牌, 离开, 规则, 帮助: all still there
        assert live.edits == 0
        assert {c.method for c in api.calls[calls:]} == {"answerCallbackQuery"}
        assert await stored_json(manager, room) == state
        # the live table still works
        assert not alerted(await h.press_verb(BO, live, Verb.SHOW_HAND))


async def test_a_stale_press_on_an_old_table_takes_only_its_dead_buttons(
    api: FakeBotAPI,
) -> None:
    """An old round's table whose buttons were left up (its retirement was
    lost): a press on it takes off its game buttons and leaves the ones that
    still answer; the live table is not touched."""
    api.opened |= {ANN.id, BO.id}
    async with table(api) as (h, manager, clock):
        await deal(h, ANN, BO)
        old = h.message_with(GROUP_ID, Verb.SHOW_HAND)  # round 1's table
        shown = old.reply_markup
        for user in (ANN, BO):
            await arrange_by_suggestion(h, user)
        first = await reveal(h, clock)
        assert not alerted(await h.press_verb(ANN, first, Verb.START))
        live = h.message_with(GROUP_ID, Verb.SHOW_HAND)
        assert live.message_id != old.message_id
        old.reply_markup = shown  # as if taking its buttons off had been lost
        live_shown = live.reply_markup
        answer = await h.press_verb(BO, old, Verb.SHOW_HAND)
        assert alerted(answer)
        assert not buttons_of(old, Verb.SHOW_HAND) and not buttons_of(old, Verb.LEAVE)
        assert buttons_of(old, Verb.RULES) and buttons_of(old, Verb.HELP)
        assert live.reply_markup == live_shown
