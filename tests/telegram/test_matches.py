"""A match on Telegram, through the real client and the fake Bot API: the
owner sets 2 rounds, both are played, the group gets the 大结算 with a
rematch button; the review opens privately after the showdown only; /replay
sends the round's judge line as a file."""

from __future__ import annotations

import json

from bot.cli.judge import judge
from bot.table.actions import Verb, encode
from bot.views.render_common import signed
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


async def test_a_two_round_match_to_its_final(api: FakeBotAPI) -> None:
    ann, bo = USERS[:2]
    api.opened |= {ann.id, bo.id}
    async with table(api) as (h, manager, clock):
        await open_room(h, ann, bo)
        rid = room_of(h)
        lobby = h.group_messages()[0]
        assert not alerted(await h.press_verb(ann, lobby, Verb.SETTINGS))
        panel = h.message_with(ann.id, Verb.SET_OPTION)
        assert "Rounds" in " ".join(b["text"] for b in panel.buttons)
        answer = await h.press(ann, panel, encode(rid, 0, Verb.SET_OPTION, "rounds=3"))
        assert not alerted(answer)
        # any length by typing; a bad one is answered and changes nothing
        await h.command(ann, "/rounds 100")
        assert "1 to 99" in h.group_messages()[-1].text
        await h.command(bo, "/rounds 2")  # only the owner
        assert (await stored_json(manager, rid))["options"]["rounds"] == 3
        await h.command(ann, "/rounds 2")
        assert (await stored_json(manager, rid))["options"]["rounds"] == 2
        await start_round(h, ann)
        assert any("Round 1/2" in m.text for m in h.group_messages())
        # the review is refused before the showdown (a forged early press)
        early = await h.press(bo, h.hand_message(bo), encode(rid, 1, Verb.REVIEW))
        assert alerted(early) and "showdown" in early["text"]
        await arrange_by_suggestion(h, ann)
        await arrange_by_suggestion(h, bo)
        first = await reveal(h, clock)
        # review: from the settlement's button, answered in private
        before = len(h.private_messages(bo))
        assert not alerted(await h.press_verb(bo, first, Verb.REVIEW))
        await h.outbox.drain()
        review = h.private_messages(bo)[-1]
        assert len(h.private_messages(bo)) == before + 1
        assert "Review · round 1" in review.text and "Expected points" in review.text
        assert not any("Review · round" in m.text for m in h.group_messages())
        # the next round of the match
        assert not alerted(await h.press_verb(ann, first, Verb.START))
        assert any("Round 2/2" in m.text for m in h.group_messages())
        await arrange_by_suggestion(h, ann)
        await arrange_by_suggestion(h, bo)
        await reveal(h, clock)
        for _ in range(3):
            await clock.advance(1.5)
            await h.outbox.drain()
        finals = [m for m in h.group_messages() if "Final results" in m.text]
        assert len(finals) == 1
        final = finals[0]
        assert "Ann" in final.text and "Bo" in final.text and "Rounds played: 2." in final.text
        # the 大结算 goes out as its picture, the text as the caption
        assert final.photo is not None and final.photo.startswith(b"\x89PNG")
        state = await stored_json(manager, rid)
        for pts in state["totals"].values():
            assert signed(pts) in final.text  # "+5", "−3", and a level total as "0"
        # rematch from the final's button: same players, a new match
        assert not alerted(await h.press_verb(ann, final, Verb.START))
        state = await stored_json(manager, rid)
        assert state["match"]["seq"] == 2 and state["round_no"] == 3
        assert any("Round 1/2" in m.text for m in h.group_messages()[-2:])
        # /replay 1: the round shown in the group, its judge line as a file
        await h.command(bo, "/replay 1")
        shown = [m for m in h.group_messages() if "Replay" in m.text]
        assert shown
        [(chat, name, data)] = api.documents
        assert chat == GROUP_ID and name == "round-1.jsonl"
        answer = judge(json.loads(data))
        [record] = await manager.repo.room_settlements(rid, 1, 1)
        for k in ("players", "pairs", "home_run", "totals"):
            assert answer[k] == record.detail[k]
        await h.command(bo, "/replay 9")
        assert "there is no round 9" in h.group_messages()[-1].text
        assert len(api.documents) == 1


async def test_review_button_on_the_private_hand(api: FakeBotAPI) -> None:
    ann, bo = USERS[:2]
    api.opened |= {ann.id, bo.id}
    async with table(api) as (h, manager, clock):
        await deal(h, ann, bo)
        hand = h.hand_message(ann)
        assert not buttons_of(hand, Verb.REVIEW)
        await arrange_by_suggestion(h, ann)
        await arrange_by_suggestion(h, bo)
        await reveal(h, clock)
        await h.outbox.drain()
        [button] = buttons_of(hand, Verb.REVIEW)  # the same message, edited
        assert not alerted(await h.press(ann, hand, button["callback_data"]))
        await h.outbox.drain()
        assert "Review · round 1" in h.private_messages(ann)[-1].text
