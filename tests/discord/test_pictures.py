"""Card pictures on Discord (the real client under SimCord): the ephemeral
hand is an embed with its picture attached and replaced in place on each
click, the showdown and the settlement carry theirs, and a text-only room
sends no attachment at all."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.table.actions import Verb

from .game import Game, deal, playing, seat_everyone
from .harness import action_ids, button_id

PNG = b"\x89PNG"


@pytest.fixture
async def game() -> AsyncIterator[Game]:
    async with playing(["alice", "bob"]) as game:
        yield game


def _png(game: Game, message) -> bytes | None:
    """The bytes of the message's attached picture (None: no attachment)."""
    if not message.attachments:
        return None
    (attachment,) = message.attachments
    data = game.env.backend.cdn.get(attachment.url)
    assert data is not None
    return data


async def test_hand_showdown_and_settlement_carry_pictures(game: Game) -> None:
    await deal(game)
    bob = game.members[1]
    hand = await game.open_hand(bob)
    assert hand.ephemeral and hand.embeds[0].image.url == "attachment://cards.png"
    first = _png(game, hand)
    assert first is not None and first.startswith(PNG)
    state = await game.hand_state(bob)
    result = await bob.click(hand, custom_id=button_id(hand, Verb.PICK, str(state["order"][0])))
    assert result.response is not None and result.response.id == hand.id  # edited in place
    second = _png(game, result.response)
    assert second is not None and second.startswith(PNG) and second != first
    assert len(result.response.attachments) == 1  # replaced, not added
    for member in game.members[:2]:
        await game.arrange_by_suggestion(member, await game.open_hand(member))
    await game.finish_showdown()
    settle = game.table.settlement_messages()[-1]
    assert (_png(game, settle) or b"").startswith(PNG)
    shows = [
        m
        for m in game.table.bot_messages()
        if m.attachments and m.id != settle.id and m.embeds and "Verify" not in str(m.components)
    ]
    assert shows, "the showdown is a message with its picture"


async def test_a_text_only_room_attaches_nothing(game: Game) -> None:
    alice, bob = game.members[:2]
    await seat_everyone(game, 2)
    panel = await alice.slash(game.table.channel, "thirteen settings")
    assert panel.response is not None
    toggle = button_id(panel.response, Verb.SET_OPTION, "pics=off")
    await alice.click(panel.response, custom_id=toggle)
    table = game.table.table_message()
    await alice.click(table, custom_id=button_id(table, Verb.START))
    hand = await game.open_hand(bob)
    assert not hand.attachments and not hand.embeds[0].image.url
    for member in (alice, bob):
        await game.arrange_by_suggestion(member, await game.open_hand(member))
    await game.finish_showdown()
    assert not any(m.attachments for m in game.table.bot_messages())
    assert game.table.settlement_messages()


async def test_every_click_a_new_picture_and_each_showdown_step_once(game: Game) -> None:
    """Pictures on: each click on the ephemeral hand replaces its picture
    and its text; the round's table is posted at the deal (lanes face down)
    and the showdown is that message, edited once per step (head, middle,
    tail), each step with its own picture."""
    await deal(game)
    bob = game.members[1]
    hand = await game.open_hand(bob)
    state = await game.hand_state(bob)
    seen = [(_png(game, hand), hand.embeds[0].description)]
    for card in state["order"][:4]:
        result = await bob.click(hand, custom_id=button_id(hand, Verb.PICK, str(card)))
        assert result.response is not None and result.response.id == hand.id
        hand = result.response
        seen.append((_png(game, hand), hand.embeds[0].description))
    assert len({png for png, _ in seen}) == len(seen)
    assert len({text for _, text in seen}) == len(seen)
    await bob.click(hand, custom_id=button_id(hand, Verb.RESET))
    for member in game.members[:2]:
        await game.arrange_by_suggestion(member, await game.open_hand(member))
    await game.finish_showdown()
    settle = game.table.settlement_messages()[-1]
    (show,) = [
        m
        for m in game.table.bot_messages()
        if m.attachments and m.id != settle.id and "Verify" not in str(m.components)
    ]
    steps = len((await game.state())["round"]["result"]["steps"])
    writes = [
        r
        for r in game.env.http_requests
        if r.path.endswith(f"/messages/{show.id}") and r.method == "PATCH"
    ]
    # the first of the two confirms marks the table, then one edit a step
    assert steps >= 3 and len(writes) == 1 + steps
    assert show.id < settle.id
    assert "Verify" not in str(show.components) and not action_ids(show)
