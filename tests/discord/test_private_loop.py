"""The private hand closes the loop on Discord, under SimCord with the real
client: the late player is reminded in her open hand and mentioned in the
channel (once), and after the settlement every open hand is its player's
result, with the review and, for the owner, the next round."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.table.actions import Verb

from .game import Game, deal, playing
from .harness import button_id, embed_text, verbs


@pytest.fixture
async def game() -> AsyncIterator[Game]:
    async with playing(["alice", "bob", "carol"]) as game:
        yield game


async def test_the_late_player_is_mentioned_once_and_every_hand_shows_its_result(
    game: Game,
) -> None:
    alice, bob, carol = game.members
    await deal(game, 3)
    hands = {m.name: await game.open_hand(m) for m in (alice, bob, carol)}
    await game.arrange_by_suggestion(alice, hands["alice"])
    await game.arrange_by_clicking(bob, hands["bob"])
    assert "<t:" in embed_text(hands["carol"])  # Discord counts down by itself
    posts = len(game.table.bot_messages())

    await game.advance(90)  # 30 s before the deadline: the reminder
    new = game.table.bot_messages()[posts:]
    assert len(new) == 1  # one notice, mentioning carol alone
    notice = new[0]
    assert notice.content == f"<@{carol.id}>"
    assert embed_text(notice).rstrip().endswith("carol")
    # in her open hand too, where her cards are; the others' hands are done
    assert f"⏰ Arranging ends <t:{int(game.clock.now()) + 30}:R>!" in embed_text(hands["carol"])
    assert "⏰" not in embed_text(hands["alice"]) + embed_text(hands["bob"])

    await game.advance(10)
    assert len(game.table.bot_messages()) == posts + 1  # reminded once
    await game.advance(20)  # the deadline arranges carol's hand
    await game.finish_showdown()
    state = await game.state()
    totals = state["round"]["result"]["settlement"]["totals"]
    for member in (alice, bob, carol):
        text = embed_text(hands[member.name])
        points = totals[f"discord:{member.id}"]
        shown = f"{points:+d}" if points else "0"
        assert f"Round 1 is settled: {shown} for you" in text, text
        assert "Waiting for the others" not in text
        assert text.count("vs ") == 2
        assert Verb.REVIEW in verbs(hands[member.name])
        assert (Verb.START in verbs(hands[member.name])) is (member is alice)

    # the owner deals the next round from her hand
    result = hands["alice"]
    await alice.click(result, custom_id=button_id(result, Verb.START))
    state = await game.state()
    assert state["phase"] == "arranging" and state["round_no"] == 2
