"""Arranging on the keyboard under SimCord (the real discord.py client):
the tail aimed at first, the head filling itself, a foul said on the hand's
picture and the confirm button before it is pressed, and a 16-card hand
(多三张) with the lane buttons and three suggestions within Discord's 25."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.table.actions import Verb, decode
from storage.memory import MemoryRepository
from tests.pictures.pixels import foul_framed
from tests.table.helpers import (
    ANN_HAND,
    ANN_MIDDLE,
    ANN_TAIL,
    BO_HAND,
    BO_HEAD,
    BO_MIDDLE,
    RiggedRandom,
)

from .game import Game, deal, open_game, playing, seat_everyone
from .harness import button_id, private_reply


@pytest.fixture
async def game() -> AsyncIterator[Game]:
    async with playing(["alice", "bob"], rng=RiggedRandom([ANN_HAND, BO_HAND])) as game:
        yield game


def buttons(message: Any, verb: Verb) -> list[dict[str, Any]]:
    return [
        child
        for row in message.components
        for child in row.get("components", ())
        if child.get("custom_id") and decode(child["custom_id"])[2] is verb
    ]


def png(game: Game, message: Any) -> bytes:
    (attachment,) = message.attachments
    data = game.env.backend.cdn.get(attachment.url)
    assert data is not None
    return data


async def tap(game: Game, member: Any, hand: Any, tokens: list[str]) -> Any:
    cards = (await game.hand_state(member))["cards"]
    for token in tokens:
        result = await member.click(
            hand, custom_id=button_id(hand, Verb.PICK, str(cards.index(token)))
        )
        assert result.response is not None and result.response.id == hand.id
        hand = result.response
    return hand


async def test_the_tail_first_and_a_foul_said_before_confirm(game: Game) -> None:
    await deal(game)
    alice, bob = game.members[:2]
    hand = await game.open_hand(alice)
    assert [b["label"] for b in buttons(hand, Verb.LANE)] == ["▶ Head", "Middle", "Tail"]
    result = await alice.click(hand, custom_id=button_id(hand, Verb.LANE, "2"))
    assert result.response is not None and result.response.id == hand.id
    hand = result.response
    assert [b["label"] for b in buttons(hand, Verb.LANE)] == ["Head", "Middle", "▶ Tail"]
    hand = await tap(game, alice, hand, ANN_TAIL + ANN_MIDDLE)
    state = await game.hand_state(alice)
    assert sorted(state["cards"][i] for i in state["tail"]) == sorted(ANN_TAIL)
    assert sorted(state["cards"][i] for i in state["middle"]) == sorted(ANN_MIDDLE)
    (confirm,) = buttons(hand, Verb.CONFIRM)
    assert confirm["label"] == "Confirm" and not confirm.get("disabled")
    assert foul_framed(png(game, hand)) == (False, False, False)
    await alice.click(hand, custom_id=confirm["custom_id"])
    assert (await game.hand_state(alice))["done"] is True

    hand = await game.open_hand(bob)
    hand = await tap(game, bob, hand, BO_HEAD + BO_MIDDLE)
    (confirm,) = buttons(hand, Verb.CONFIRM)
    assert confirm["label"] == "⚠️ Fouled · can't confirm"
    assert confirm["style"] == 4  # Discord's red (danger)
    assert foul_framed(png(game, hand)) == (False, True, True)
    assert "Middle beats Tail" in hand.embeds[0].description
    before = await game.state()
    refused = await bob.click(hand, custom_id=confirm["custom_id"])
    assert "Middle beats Tail" in private_reply(refused)
    assert await game.state() == before
    await game.arrange_by_suggestion(bob, hand)
    await game.finish_showdown()
    assert (await game.state())["round"]["settled"]


async def test_sixteen_cards_aim_tap_and_suggestions_fit_discords_grid() -> None:
    repo = MemoryRepository()
    await repo.init()
    game = await open_game(repo, ["alice", "bob"], seed=11)
    try:
        await seat_everyone(game, 2)
        panel = await game.members[0].slash(game.table.channel, "thirteen settings")
        assert panel.response is not None
        await game.members[0].click(
            panel.response, custom_id=button_id(panel.response, Verb.SET_OPTION, "extra3=on")
        )
        table = game.table.table_message()
        await game.members[0].click(table, custom_id=button_id(table, Verb.START))
        bob = game.members[1]
        hand = await game.open_hand(bob)
        result = await bob.click(hand, custom_id=button_id(hand, Verb.LANE, "2"))
        hand = result.response
        state = await game.hand_state(bob)
        assert len(state["cards"]) == 16
        first = state["order"][0]
        result = await bob.click(hand, custom_id=button_id(hand, Verb.PICK, str(first)))
        hand = result.response
        assert (await game.hand_state(bob))["tail"] == [first]
        result = await bob.click(hand, custom_id=button_id(hand, Verb.SUGGEST))
        hand = await game.open_hand(bob)
        rows = hand.components
        assert len(rows) <= 5 and all(len(r["components"]) <= 5 for r in rows)
        assert len(buttons(hand, Verb.PICK)) == 16 and len(buttons(hand, Verb.APPLY)) == 3
        # one too many for 25: the aimed lane's button goes (▶ stays in the text)
        assert [b["label"] for b in buttons(hand, Verb.LANE)] == ["Head", "Middle"]
        assert "▶ Tail (1/5)" in hand.embeds[0].description
    finally:
        await game.manager.stop()
        await game.env.shutdown()
        game.env.raise_errors()
