"""Card pictures in a whole Telegram game, through the real client and the
fake Bot API: the hand, the showdown and the settlement are photos with
their text as caption, the hand's photo is replaced in place on each tap
(editMessageMedia), text-only rooms still work, and a round with pictures
costs no more Bot API calls than the same round in text (measured here, in
the same run)."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.table.actions import Verb
from tests.telegram.fakebotapi import FakeBotAPI, StoredMessage
from tests.telegram.harness import buttons_of
from tests.telegram.play import (
    USERS,
    alerted,
    arrange_by_suggestion,
    deal,
    open_room,
    reveal,
    start_round,
    table,
)

PNG = b"\x89PNG"


async def _round(
    api: FakeBotAPI, pictures: str, *, setting: bool = True
) -> tuple[Counter[str], dict[str, object]]:
    """One whole two-player round, on a bot whose PICTURES setting is
    ``setting``; the Bot API calls from the deal to the settlement by
    method, and what the test checks afterwards."""
    ann, bo = USERS[:2]
    api.opened |= {ann.id, bo.id}
    seen: dict[str, object] = {}
    async with table(api, pictures=setting) as (h, manager, clock):
        await open_room(h, ann, bo)
        if pictures == "room-off":
            await h.command(ann, "/settings")
            panel = h.message_with(ann.id, Verb.SET_OPTION)
            toggle = next(
                b for b in buttons_of(panel, Verb.SET_OPTION) if "pics=" in b["callback_data"]
            )
            answer = await h.press(ann, panel, toggle["callback_data"])
            assert not alerted(answer) and "Pictures" in answer["text"]
        await h.outbox.drain()
        start = len(api.calls)
        await start_round(h, ann)
        await h.outbox.drain()
        hand = h.hand_message(bo)
        seen["hand_photo"] = hand.photo
        first_photo = hand.photo
        # tap two cards: the same message, its picture replaced in place
        picks = [b["callback_data"] for b in buttons_of(hand, Verb.PICK)]
        for data in picks[:2]:
            assert not alerted(await h.press(bo, hand, data))
            await h.outbox.drain()
        seen["hand_edits"] = (hand.message_id == h.hand_message(bo).message_id, len(hand.photos))
        seen["hand_changed"] = hand.photo != first_photo
        assert not alerted(await h.press_verb(bo, hand, Verb.RESET))
        await h.outbox.drain()
        for user in (ann, bo):
            await arrange_by_suggestion(h, user)
        settle = await reveal(h, clock)
        await h.outbox.drain()
        calls = Counter(c.method for c in api.calls[start:])
        seen["settle_photo"] = settle.photo
        seen["settle_text"] = settle.text
        seen["shows"] = [
            m for m in h.group_messages() if m.photo is not None and not buttons_of(m, Verb.VERIFY)
        ]
        seen["hand_after"] = hand
    return calls, seen


async def test_a_game_with_pictures_sends_and_edits_photos(api: FakeBotAPI) -> None:
    calls, seen = await _round(api, "on")
    assert isinstance(seen["hand_photo"], bytes) and seen["hand_photo"].startswith(PNG)
    same_message, photos = seen["hand_edits"]  # type: ignore[misc]
    assert same_message and photos == 3  # sent once, replaced on each of two taps
    assert seen["hand_changed"]
    assert isinstance(seen["settle_photo"], bytes) and seen["settle_photo"].startswith(PNG)
    assert "Ann" in str(seen["settle_text"])  # the text is the caption
    # the round's table: its seats face down at the deal, then the showdown
    # revealed step by step in the same message (head, middle, tail)
    (show,) = seen["shows"]  # type: ignore[misc]
    assert len(show.photos) == 4 and len(set(show.photos)) == 4
    assert calls["sendPhoto"] >= 4 and calls["editMessageMedia"] >= 4
    # the first confirm's ✅ changes the table's caption, not its picture
    assert calls["editMessageCaption"] >= 1


@pytest.mark.parametrize("how", ["room-off", "setting-off"])
async def test_text_only_still_works(api: FakeBotAPI, how: str) -> None:
    calls, seen = await _round(api, how, setting=how != "setting-off")
    assert seen["hand_photo"] is None and seen["settle_photo"] is None
    assert not seen["shows"]
    assert calls["sendPhoto"] == 0 and calls["editMessageMedia"] == 0
    assert "Ann" in str(seen["settle_text"])


async def test_pictures_cost_no_more_calls_than_text() -> None:
    """Today's text round first, then the same round with pictures, each on
    its own fake server; every Bot API call from the deal to the settlement."""
    text_api, picture_api = FakeBotAPI(), FakeBotAPI()
    await text_api.start()
    await picture_api.start()
    try:
        text_calls, _ = await _round(text_api, "text", setting=False)
        picture_calls, _ = await _round(picture_api, "on")
    finally:
        await text_api.stop()
        await picture_api.stop()
    total_text, total_pictures = sum(text_calls.values()), sum(picture_calls.values())
    print(f"Bot API calls per round: text {total_text} {dict(text_calls)}")
    print(f"Bot API calls per round: pictures {total_pictures} {dict(picture_calls)}")
    assert total_pictures <= total_text


async def test_closing_mid_round_asks_then_takes_the_hands_buttons(api: FakeBotAPI) -> None:
    ann, bo = USERS[:2]
    api.opened |= {ann.id, bo.id}
    async with table(api) as (h, manager, clock):
        await deal(h, ann, bo)
        await h.outbox.drain()
        hands = [h.hand_message(ann), h.hand_message(bo)]
        assert all(m.photo is not None for m in hands)
        await h.command(ann, "/cancel")
        await h.outbox.drain()
        assert "closed" not in h.group_messages()[-1].text.lower()  # not closed yet
        ask = h.message_with(ann.id, Verb.CANCEL)  # the confirmation, privately
        assert "Round 1" in ask.text
        assert not alerted(await h.press_verb(ann, ask, Verb.CANCEL))
        await h.outbox.drain()
        closing = [m for m in h.group_messages() if "The room is closed." in m.text]
        assert closing and "Round 1 was not finished" in closing[-1].text
        assert "No round was finished" in closing[-1].text
        for hand in hands:
            assert not hand.buttons and "void" in hand.text  # the photo's caption says why


async def test_every_tap_changes_the_hand_picture_and_its_caption(api: FakeBotAPI) -> None:
    """On the strict fake: each tap is an editMessageMedia Telegram takes,
    and the player sees the new picture, caption and keyboard (the tapped
    card marked with its lane; the lane buttons where Confirm will be)."""
    ann, bo = USERS[:2]
    api.opened |= {ann.id, bo.id}
    async with table(api) as (h, manager, clock):
        await deal(h, ann, bo)
        hand = h.hand_message(bo)
        shown = [(hand.photo, hand.text, _keyboard(hand))]
        picks = [b["callback_data"] for b in buttons_of(hand, Verb.PICK)]
        for data in picks[:4]:
            assert not alerted(await h.press(bo, hand, data))
            await h.outbox.drain()
            shown.append((hand.photo, hand.text, _keyboard(hand)))
        assert not alerted(await h.press_verb(bo, hand, Verb.SUGGEST))
        await h.outbox.drain()
        assert buttons_of(hand, Verb.APPLY), "the suggestions appear on the hand"
    pictures, captions, labels = zip(*shown, strict=True)
    assert len(set(pictures)) == len(shown)  # every tap a new picture
    assert len(set(captions)) == len(shown)  # and a new caption
    assert len(set(labels)) == len(shown)  # each tapped card labelled with its lane
    edits = api.calls_of("editMessageMedia")
    assert edits and all(c.status == 200 for c in edits)
    assert all(c.params["media"]["media"].startswith("attach://") for c in edits)


def _keyboard(message: StoredMessage) -> tuple[str, ...]:
    """The hand's button labels; until the split is complete the lane
    buttons stand where Confirm will be."""
    assert buttons_of(message, Verb.LANE), f"no lane buttons on {message.text!r}"
    return tuple(b["text"] for b in message.buttons)


@pytest.mark.parametrize("pictures", ["on", "room-off"])
async def test_every_request_of_a_whole_round_is_valid_bot_api(
    api: FakeBotAPI, pictures: str
) -> None:
    """Every request a round makes, from /newgame to the settlement, passes
    the Bot API schema check, and Telegram answers each one with success."""
    calls, _ = await _round(api, pictures)
    assert not api.refused
    assert all(c.status == 200 for c in api.calls), [
        (c.method, c.status) for c in api.calls if c.status != 200
    ]
    methods = {c.method for c in api.calls}
    assert {"sendMessage", "editMessageText", "answerCallbackQuery"} <= methods
    if pictures == "on":
        assert {"sendPhoto", "editMessageMedia"} <= methods
    else:
        assert not methods & {"sendPhoto", "editMessageMedia", "editMessageCaption"}
