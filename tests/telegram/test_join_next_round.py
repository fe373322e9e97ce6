"""Who left during the showdown is offered the next round on their private
result, through the real client on the strict fake Bot API: pressing
"Join the next round" there seats them again, and the next deal gives them
a hand."""

from __future__ import annotations

from bot.table.actions import Verb
from tests.telegram.fakebotapi import FakeBotAPI
from tests.telegram.harness import buttons_of
from tests.telegram.play import USERS, alerted, arrange_by_suggestion, deal, reveal, table

ANN, BO, CY = USERS[:3]


async def test_who_left_joins_the_next_round_from_their_result(api: FakeBotAPI) -> None:
    api.opened |= {ANN.id, BO.id, CY.id}
    async with table(api) as (h, manager, clock):
        await deal(h, ANN, BO, CY)
        for user in (ANN, BO, CY):
            await arrange_by_suggestion(h, user)
        await h.command(CY, "/leave")  # during the showdown: she plays this round out
        await h.outbox.drain()
        await reveal(h, clock)

        result = h.private_messages(CY)[-1]
        assert "Round 1 is settled" in result.text
        assert buttons_of(result, Verb.REVIEW) and buttons_of(result, Verb.JOIN)
        assert not buttons_of(h.private_messages(BO)[-1], Verb.JOIN)  # still seated

        [join] = buttons_of(result, Verb.JOIN)
        answer = await h.press_verb(CY, result, Verb.JOIN)
        assert not alerted(answer), answer
        await h.outbox.drain()
        assert not buttons_of(h.private_messages(CY)[-1], Verb.JOIN)  # pressed: gone

        # pressed twice (a stale copy of the button): a short answer, nothing changes
        calls = len(api.calls)
        again = await h.press(CY, h.private_messages(CY)[-1], join["callback_data"])
        assert again.get("text"), again
        await h.outbox.drain()
        methods = [c.method for c in api.calls[calls:]]
        assert "answerCallbackQuery" in methods
        assert not [m for m in methods if m.startswith(("send", "edit"))], methods
        sent_to_cy = len(h.private_messages(CY))

        answer = await h.press_verb(ANN, h.private_messages(ANN)[-1], Verb.START)
        assert not alerted(answer), answer
        await h.outbox.drain()
        assert len(h.private_messages(CY)) == sent_to_cy + 1
        assert buttons_of(h.hand_message(CY), Verb.PICK)  # dealt in
