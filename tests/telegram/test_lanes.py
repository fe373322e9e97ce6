"""Arranging on the keyboard, through the real client on the strict fake Bot
API (issue 28, items 7–9): a player who sees the tail first aims at it
(尾道), taps its five cards and then the middle's, and the head fills
itself; a fouled split says so before confirm is pressed, on the hand's
picture (a red frame and 倒水 on the lanes out of order, checked by its
pixels) and on the confirm button; forged and stale lane presses get a
short answer and change nothing; a lane press costs what a card tap costs."""

from __future__ import annotations

from collections import Counter
from typing import Any

from bot.table.actions import Verb, decode, encode
from bot.views.render_common import sym
from tests.pictures.pixels import foul_framed
from tests.stored import stored_json
from tests.table.helpers import (
    ANN_HAND,
    ANN_MIDDLE,
    ANN_TAIL,
    BO_HAND,
    BO_HEAD,
    BO_MIDDLE,
    RiggedRandom,
)
from tests.telegram.fakebotapi import FakeBotAPI, StoredMessage
from tests.telegram.harness import TgUser, buttons_of
from tests.telegram.play import (
    USERS,
    alerted,
    arrange_by_suggestion,
    deal,
    reveal,
    room_of,
    table,
)

ANN, BO = USERS[:2]


def card_button(hand: StoredMessage, token: str) -> str:
    """The callback data of the unplaced card ``token``, found by its label."""
    found = [b for b in buttons_of(hand, Verb.PICK) if b["text"] == sym(token)]
    assert found, f"no button {sym(token)} in {[b['text'] for b in hand.buttons]}"
    return found[0]["callback_data"]


def labels(hand: StoredMessage, verb: Verb) -> list[str]:
    return [b["text"] for b in buttons_of(hand, verb)]


async def tap_cards(h: Any, user: TgUser, tokens: list[str]) -> None:
    for token in tokens:
        hand = h.hand_message(user)
        assert not alerted(await h.press(user, hand, card_button(hand, token)))


async def test_the_tail_first_the_head_by_itself_and_a_foul_said_before_confirm(
    api: FakeBotAPI,
) -> None:
    api.opened |= {ANN.id, BO.id}
    async with table(api, rng=RiggedRandom([ANN_HAND, BO_HAND])) as (h, manager, clock):
        await deal(h, ANN, BO)
        await h.outbox.drain()

        # Ann: the lane buttons stand where confirm will be; the head is aimed at.
        hand = h.hand_message(ANN)
        assert labels(hand, Verb.LANE) == ["▶ Head", "Middle", "Tail"]
        assert not buttons_of(hand, Verb.CONFIRM)
        before = Counter(c.method for c in api.calls)
        tail = next(b for b in buttons_of(hand, Verb.LANE) if b["text"] == "Tail")
        answer = await h.press(ANN, hand, tail["callback_data"])
        await h.outbox.drain()
        assert not alerted(answer)
        lane_press = Counter(c.method for c in api.calls) - before
        hand = h.hand_message(ANN)
        assert labels(hand, Verb.LANE) == ["Head", "Middle", "▶ Tail"]
        assert "▶ Tail (0/5)" in hand.text
        # A lane press costs what a card tap costs: one answer, one edit.
        before = Counter(c.method for c in api.calls)
        await tap_cards(h, ANN, ANN_TAIL[:1])
        await h.outbox.drain()
        assert Counter(c.method for c in api.calls) - before == lane_press
        assert sum(lane_press.values()) == 2 and lane_press["answerCallbackQuery"] == 1

        await tap_cards(h, ANN, ANN_TAIL[1:])
        hand = h.hand_message(ANN)
        # The tail full, the aim moves on to the middle.
        assert labels(hand, Verb.LANE) == ["Head", "▶ Middle"]
        assert "Tail (5/5)" in hand.text and "▶ Middle (0/5)" in hand.text
        await tap_cards(h, ANN, ANN_MIDDLE)
        hand = h.hand_message(ANN)
        # Ten taps: the head took the three cards left by itself.
        head_line = next(line for line in hand.text.splitlines() if line.startswith("Head (3/3)"))
        assert all(sym(x) in head_line for x in ("8h", "8d", "2c"))
        assert not buttons_of(hand, Verb.LANE)
        assert labels(hand, Verb.CONFIRM) == ["Confirm"]
        assert foul_framed(hand.photo or b"") == (False, False, False)
        assert not alerted(await h.press_verb(ANN, hand, Verb.CONFIRM))

        # Bo: head and middle tapped; the tail (the rest) is weaker than the middle.
        await tap_cards(h, BO, BO_HEAD + BO_MIDDLE[:4])
        hand = h.hand_message(BO)
        assert foul_framed(hand.photo or b"") == (False, False, False)
        assert "⚠️" not in hand.text
        await tap_cards(h, BO, BO_MIDDLE[4:])
        hand = h.hand_message(BO)
        # Before confirm is pressed: the button, the picture and the text say so.
        assert labels(hand, Verb.CONFIRM) == ["⚠️ Fouled · can't confirm"]
        assert foul_framed(hand.photo or b"") == (False, True, True)
        assert "⚠️ Fouled: Middle beats Tail" in hand.text
        edits = hand.edits
        answer = await h.press_verb(BO, hand, Verb.CONFIRM)
        assert alerted(answer) and "Middle beats Tail" in answer["text"]
        assert h.hand_message(BO).edits == edits  # refused: nothing changed
        # A card taken back: the warning goes from the picture and the button.
        taken = next(b for b in buttons_of(hand, Verb.PICK) if b["text"].startswith(sym("2h")))
        assert not alerted(await h.press(BO, hand, taken["callback_data"]))
        hand = h.hand_message(BO)
        assert foul_framed(hand.photo or b"") == (False, False, False)
        assert "⚠️" not in hand.text and not buttons_of(hand, Verb.CONFIRM)
        # the tail is the rest no more; the aim is on the gap
        assert labels(hand, Verb.LANE) == ["▶ Middle", "Tail"]
        await arrange_by_suggestion(h, BO)
        await reveal(h, clock)
        state = await stored_json(manager, room_of(h))
        assert state is not None and state["round"]["settled"]
        ann = state["round"]["hands"][f"telegram:{ANN.id}"]
        lanes = [sorted(ann["cards"][i] for i in ann[lane]) for lane in ("middle", "tail")]
        assert lanes == [sorted(ANN_MIDDLE), sorted(ANN_TAIL)]


async def test_forged_and_stale_lane_presses_change_nothing(api: FakeBotAPI) -> None:
    api.opened |= {ANN.id, BO.id}
    async with table(api, rng=RiggedRandom([ANN_HAND, BO_HAND])) as (h, manager, clock):
        await deal(h, ANN, BO)
        await h.outbox.drain()
        await tap_cards(h, ANN, ["8h", "8d", "2c"])  # the head full
        hand = h.hand_message(ANN)
        lane_data = buttons_of(hand, Verb.LANE)[0]["callback_data"]
        room, round_no, _, _ = decode(lane_data)
        state = await stored_json(manager, room)
        shown, edits, calls = hand.reply_markup, hand.edits, len(api.calls)
        forged = [
            encode(room, round_no, Verb.LANE, "0"),  # the head: full
            encode(room, round_no, Verb.LANE),  # no lane
            lane_data.rsplit("|", 1)[0] + "|7",  # no such lane
            lane_data.rsplit("|", 1)[0] + "|tail",
            encode(room, round_no - 1, Verb.LANE, "2"),  # an earlier round's
        ]
        for data in forged:
            answer = await h.press(ANN, hand, data)
            assert alerted(answer) and answer["text"] and len(answer["text"]) < 200, data
        await h.outbox.drain()
        assert hand.reply_markup == shown and hand.edits == edits
        assert {c.method for c in api.calls[calls:]} == {"answerCallbackQuery"}
        assert await stored_json(manager, room) == state
        # A forged lane on Bo's own hand: refused, nothing changed.
        bo_hand = h.hand_message(BO)
        answer = await h.press(BO, bo_hand, encode(room, round_no, Verb.LANE, "9"))
        assert alerted(answer)
        assert await stored_json(manager, room) == state
