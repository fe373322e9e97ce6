"""The private chat closes the loop, through the real client on the strict
fake Bot API: the hand counts down as a duration, the late player is told
in private (once) and mentioned in the group, and after the settlement
every hand is its player's result, with the review and, for the owner,
the next round."""

from __future__ import annotations

from typing import Any

from bot.i18n import t
from bot.table.actions import Verb
from tests.stored import stored_json
from tests.telegram.fakebotapi import FakeBotAPI
from tests.telegram.harness import GROUP_ID, buttons_of
from tests.telegram.play import USERS, arrange_by_suggestion, deal, reveal, room_of, table

ANN, BO, CY = USERS[:3]


def calls_to(api: FakeBotAPI, since: int, chat: int) -> list[Any]:
    return [c for c in api.calls[since:] if str(c.params.get("chat_id")) == str(chat)]


async def test_a_late_player_is_counted_down_reminded_once_and_shown_the_result(
    api: FakeBotAPI,
) -> None:
    api.opened |= {ANN.id, BO.id, CY.id}
    async with table(api) as (h, manager, clock):
        await deal(h, ANN, BO, CY)
        cy_hand = h.hand_message(CY)
        # time left, not a clock to subtract from (the group's table keeps the clock)
        assert "⏱ 2 min left to arrange" in cy_hand.text
        assert "Arrange by" in h.group_messages()[-1].text
        await arrange_by_suggestion(h, ANN)
        await arrange_by_suggestion(h, BO)
        assert not any(x in h.private_messages(ANN)[-1].text for x in ("⏱", "⏰"))  # done

        # a minute later Cy's hand says so; the others' hands are not touched
        start = len(api.calls)
        await clock.advance(60)
        await h.outbox.drain()
        assert [c.method for c in calls_to(api, start, CY.id)] == ["editMessageCaption"]
        assert not calls_to(api, start, ANN.id) and not calls_to(api, start, BO.id)
        assert "⏱ 1 min left to arrange" in cy_hand.text

        # the reminder: one private word for Cy, where her cards are, and a
        # mention of her (not of the others) in the group
        start = len(api.calls)
        await clock.advance(30)
        await h.outbox.drain()
        private = calls_to(api, start, CY.id)
        assert len(private) == 1 and "⏰ 30 s left!" in private[0].params["caption"]
        assert "⏰ 30 s left!" in cy_hand.text
        assert not calls_to(api, start, ANN.id) and not calls_to(api, start, BO.id)
        notices = [c for c in calls_to(api, start, GROUP_ID) if c.method == "sendMessage"]
        assert len(notices) == 1
        text, entities = notices[0].params["text"], notices[0].params["entities"]
        assert text.endswith(": Cy")
        assert [(e["type"], e["user"]["id"]) for e in entities] == [("text_mention", CY.id)]
        assert text[entities[0]["offset"] : entities[0]["offset"] + entities[0]["length"]] == "Cy"

        # nothing more until the deadline, which arranges Cy's hand
        start = len(api.calls)
        await clock.advance(20)
        await h.outbox.drain()
        assert not calls_to(api, start, CY.id)
        await clock.advance(10)
        await reveal(h, clock)
        assert [m.text.count("⏰") for m in h.private_messages(CY)] == [0]  # no second post

        # the settlement: each private hand is that player's result
        state = await stored_json(manager, room_of(h))
        totals = state["round"]["result"]["settlement"]["totals"]
        for user in (ANN, BO, CY):
            hand = h.private_messages(user)[-1]
            points = totals[f"telegram:{user.id}"]
            shown = f"{points:+d}" if points else "0"
            assert f"Round 1 is settled: {shown} for you" in hand.text, hand.text
            assert "Waiting for the others" not in hand.text
            assert sum(line.startswith("  vs ") for line in hand.text.splitlines()) == 2
            assert buttons_of(hand, Verb.REVIEW)
            assert bool(buttons_of(hand, Verb.START)) is (user == ANN)
        assert "Arranged by the table" in h.private_messages(CY)[-1].text

        # the owner deals the next round from the private chat
        answer = await h.press_verb(ANN, h.private_messages(ANN)[-1], Verb.START)
        assert answer.get("show_alert") != "true", answer
        assert len(h.private_messages(BO)) == 2 and buttons_of(h.hand_message(BO), Verb.PICK)
        # last round's result is left as it was at the deal (no call for it)
        old = h.private_messages(ANN)[0]
        assert buttons_of(old, Verb.REVIEW) and buttons_of(old, Verb.START)
        assert "Round 1 is settled" in old.text
        # its Next round pressed late is refused, and taken off then: the
        # review stays, the new hand is not touched
        start = len(api.calls)
        answer = await h.press_verb(ANN, old, Verb.START)
        await h.outbox.drain()
        assert answer.get("show_alert") == "true"
        assert answer["text"] == t("en", "err.stale")
        assert buttons_of(old, Verb.REVIEW) and not buttons_of(old, Verb.START)
        private = calls_to(api, start, ANN.id)
        assert [(c.method, str(c.params["message_id"])) for c in private] == [
            ("editMessageReplyMarkup", str(old.message_id))
        ]
        assert buttons_of(h.hand_message(ANN), Verb.PICK)


def test_a_mention_marks_the_listed_name_in_utf16_units() -> None:
    from bot.platforms.telegram.render import mention_entities
    from bot.views.model import Audience, Mention, View, ViewKind

    # the name occurs earlier too, and an emoji before it counts twice
    text = "⏰ 🃏 Bo: 30 s left to arrange: Ann, Bo"
    view = View(
        ViewKind.NOTICE,
        Audience.GROUP,
        "notice:r:x",
        "",
        (text,),
        mentions=(Mention("21", "Ann"), Mention("22", "Bo"), Mention("x", "Cy")),
    )
    entities = mention_entities(view, text)
    assert entities is not None
    units = text.encode("utf-16-le")
    shown = [units[2 * e.offset : 2 * (e.offset + e.length)].decode("utf-16-le") for e in entities]
    assert shown == ["Ann", "Bo"] and [e.user.id for e in entities] == [21, 22]
    assert entities[1].offset > len("⏰ 🃏 Bo")  # the listed Bo, not the earlier one
    assert mention_entities(View(ViewKind.NOTICE, Audience.GROUP, "k", "", (text,)), text) is None
