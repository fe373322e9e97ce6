"""A match under SimCord: the settings panel's rounds button, a one-round
match to its 大结算 with a rematch button, the private review from the
settlement (an ephemeral), and ``/thirteen replay`` with its judge file."""

from __future__ import annotations

import json

from bot.cli.judge import judge
from bot.table.actions import Verb
from storage.memory import MemoryRepository

from .game import NAMES, open_game, seat_everyone
from .harness import button_id, embed_text, private_reply, verbs


async def test_match_final_review_and_replay() -> None:
    repo = MemoryRepository()
    await repo.init()
    game = await open_game(repo, NAMES[:3])
    try:
        alice, bob, _carol = game.members
        channel = game.table.channel
        await seat_everyone(game, 2)
        panel = await alice.slash(channel, "thirteen settings")
        assert panel.response is not None
        res = await alice.click(
            panel.response, custom_id=button_id(panel.response, Verb.SET_OPTION, "rounds=6")
        )
        assert res.acknowledged
        assert (await game.state())["options"]["rounds"] == 6
        res = await bob.slash(channel, "thirteen rounds", count=1)  # only the owner
        assert res.ephemeral and (await game.state())["options"]["rounds"] == 6
        res = await alice.slash(channel, "thirteen rounds", count=1)
        assert res.acknowledged and (await game.state())["options"]["rounds"] == 1
        table_msg = game.table.table_message()
        await alice.click(table_msg, custom_id=button_id(table_msg, Verb.START))
        assert "1/1" in embed_text(game.table.table_message())
        for member in (alice, bob):
            hand = await game.open_hand(member)
            # no review before the showdown: the hand carries no review button
            assert Verb.REVIEW not in verbs(hand)
            await game.arrange_by_suggestion(member, hand)
        await game.finish_showdown()
        await game.advance(2.0)
        settle = game.table.settlement_messages()[-1]
        review = await bob.click(settle, custom_id=button_id(settle, Verb.REVIEW))
        assert review.ephemeral
        shown = review.followups[-1] if review.followups else review.response
        assert shown is not None and "1" in embed_text(shown)
        finals = [m for m in game.table.bot_messages() if "🏁" in embed_text(m)]
        assert len(finals) == 1
        final = finals[0]
        text = embed_text(final)
        assert "alice" in text and "bob" in text
        assert Verb.START in verbs(final) and Verb.CANCEL in verbs(final)
        # rematch from the final
        await alice.click(final, custom_id=button_id(final, Verb.START))
        state = await game.state()
        assert state["match"]["seq"] == 2 and state["phase"] == "arranging"
        # replay of round 1, with the judge line as a file
        replay = await bob.slash(channel, "thirteen replay", round=1)
        assert replay.acknowledged
        files = [
            a
            for m in ([replay.response] if replay.response else []) + list(replay.followups)
            for a in m.attachments
        ]
        assert [a.filename for a in files] == ["round-1.jsonl"]
        data = await files[0].read()
        [record] = await repo.room_settlements(game.room_id(), 1, 1)
        answer = judge(json.loads(data))
        for k in ("players", "pairs", "home_run", "totals"):
            assert answer[k] == record.detail[k]
        missing = await bob.slash(channel, "thirteen replay", round=5)
        assert "5" in private_reply(missing)
    finally:
        await game.manager.stop()
        await game.env.shutdown()
        game.env.raise_errors()
