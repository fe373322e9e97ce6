"""What a round costs in the private chats, through the real client on the
strict fake Bot API: the last hand confirmed is answered with a toast and
not redrawn as confirmed (the result redraws it seconds later, its keyboard
closed), and last round's result is left as it is at the next deal; its
Next round pressed late is refused and taken off then."""

from __future__ import annotations

from typing import Any

from bot.i18n import t
from bot.table.actions import Verb
from tests.telegram.fakebotapi import FakeBotAPI
from tests.telegram.harness import Harness, TgUser, buttons_of
from tests.telegram.play import (
    USERS,
    alerted,
    arrange_by_suggestion,
    deal,
    deal_again,
    reveal,
    showdown_on,
    table,
)

ANN, BO = USERS[0], USERS[3]  # both "en"


def calls_to(api: FakeBotAPI, since: int, user: TgUser) -> list[Any]:
    return [c for c in api.calls[since:] if str(c.params.get("chat_id")) == str(user.id)]


async def take_suggestion(h: Harness, user: TgUser) -> dict[str, Any]:
    """Suggestions, the first applied, then the confirm's answer."""
    hand = h.hand_message(user)
    assert not alerted(await h.press_verb(user, hand, Verb.SUGGEST))
    assert not alerted(await h.press_verb(user, hand, Verb.APPLY))
    return await h.press_verb(user, hand, Verb.CONFIRM)


async def test_the_last_confirmer_gets_a_toast_then_the_result(api: FakeBotAPI) -> None:
    api.opened |= {ANN.id, BO.id}
    async with table(api) as (h, _manager, clock):
        await deal(h, ANN, BO)
        start = len(api.calls)
        first = await take_suggestion(h, ANN)
        # the first confirm: the hand says it is confirmed, its keyboard closed
        assert not showdown_on(first) and not alerted(first)
        ann = h.private_messages(ANN)[-1]
        assert "Confirmed. Waiting for the others." in ann.text
        assert not buttons_of(ann, Verb.PICK)
        # the deal's hand, then: suggestions (the caption), the split, confirmed
        assert [c.method for c in calls_to(api, start, ANN)] == [
            "editMessageCaption",
            "editMessageMedia",
            "editMessageMedia",
        ]

        bo = h.hand_message(BO)
        assert not alerted(await h.press_verb(BO, bo, Verb.SUGGEST))
        assert not alerted(await h.press_verb(BO, bo, Verb.APPLY))
        start = len(api.calls)
        last = await h.press_verb(BO, bo, Verb.CONFIRM)
        await h.outbox.drain()
        # the showdown is on: a toast, and no edit of Bo's hand
        assert showdown_on(last) and last["text"] == t("en", "toast.showdown_on")
        assert not calls_to(api, start, BO)
        assert buttons_of(bo, Verb.PICK)  # not redrawn (seconds before its result)
        # a tap meanwhile is refused, and changes nothing either
        tap = await h.press(BO, bo, buttons_of(bo, Verb.PICK)[0]["callback_data"])
        await h.outbox.drain()
        assert alerted(tap) and not calls_to(api, start, BO)

        await reveal(h, clock)
        # the result: one edit of each hand, the keyboard closed
        assert [c.method for c in calls_to(api, start, BO)] == ["editMessageMedia"]
        assert [c.method for c in calls_to(api, start, ANN)] == ["editMessageMedia"]
        assert "Round 1 is settled" in bo.text and "Waiting for the others" not in bo.text
        assert not buttons_of(bo, Verb.PICK) and not buttons_of(bo, Verb.CONFIRM)
        assert buttons_of(bo, Verb.REVIEW) and not buttons_of(bo, Verb.START)
        assert buttons_of(ann, Verb.REVIEW) and buttons_of(ann, Verb.START)


async def test_the_old_next_round_is_left_up_then_refused_and_taken_off(
    api: FakeBotAPI,
) -> None:
    api.opened |= {ANN.id, BO.id}
    async with table(api) as (h, _manager, clock):
        await deal(h, ANN, BO)
        await arrange_by_suggestion(h, ANN)
        await arrange_by_suggestion(h, BO)
        await reveal(h, clock)
        result = h.private_messages(ANN)[-1]
        assert buttons_of(result, Verb.START)

        # the next deal from the group's settlement: each player gets a new
        # hand (one sendPhoto each), and nothing else in the private chats
        start = len(api.calls)
        answer = await deal_again(h, ANN)
        await h.outbox.drain()
        assert not alerted(answer)
        for user in (ANN, BO):
            assert [c.method for c in calls_to(api, start, user)] == ["sendPhoto"]
        assert buttons_of(result, Verb.REVIEW) and buttons_of(result, Verb.START)

        # pressed late: refused with a short answer, and taken off then
        start = len(api.calls)
        late = await h.press_verb(ANN, result, Verb.START)
        await h.outbox.drain()
        assert alerted(late) and late["text"] == t("en", "err.stale")
        assert [(c.method, str(c.params["message_id"])) for c in calls_to(api, start, ANN)] == [
            ("editMessageReplyMarkup", str(result.message_id))
        ]
        assert buttons_of(result, Verb.REVIEW) and not buttons_of(result, Verb.START)
        assert "Round 1 is settled" in result.text
        # the round being played is untouched; the review still answers
        assert buttons_of(h.hand_message(ANN), Verb.PICK)
        assert not alerted(await h.press_verb(ANN, result, Verb.REVIEW))
