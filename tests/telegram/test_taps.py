"""A tap goes one way: a card tap in the private chat costs the press one
database round trip (the room's save), a panel press is answered by the one
manager call, a private chat opened again (unblocked) gets what was
held for it without the user writing first, and a card tap is answered
while another player's suggestion is being worked out."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from telegram import Update

from bot.table.actions import Verb
from bot.table.clock import FakeClock
from bot.table.manager import TableManager
from storage.memory import MemoryRepository
from tests.table.helpers import HANG_GUARD, Counting, Gate, held
from tests.telegram.fakebotapi import FakeBotAPI
from tests.telegram.harness import Harness, TgUser, buttons_of
from tests.telegram.play import alerted, deal, open_room

ANN, BO = TgUser(31, "Ann"), TgUser(32, "Bo")


@asynccontextmanager
async def game(api: FakeBotAPI) -> AsyncIterator[tuple[Harness, TableManager, MemoryRepository]]:
    repo = MemoryRepository()
    await repo.init()
    manager = TableManager(repo, clock=FakeClock(start=1_700_000_000), default_language="en")
    async with Harness(api, manager) as h:
        await manager.start()
        try:
            yield h, manager, repo
        finally:
            await manager.stop()


async def test_a_card_tap_costs_the_press_one_database_round_trip(api: FakeBotAPI) -> None:
    api.opened |= {ANN.id, BO.id}
    async with game(api) as (h, manager, repo):
        await deal(h, ANN, BO)
        hand = h.hand_message(BO)
        picks = [b["callback_data"] for b in buttons_of(hand, Verb.PICK)][:4]
        counted = Counting(repo)
        per_tap = []
        for data in picks:
            counted.clear()
            press = asyncio.ensure_future(
                h.app.process_update(
                    Update.de_json(h.press_update(BO, h.hand_message(BO), data), h.app.bot)
                )
            )
            await press
            per_tap.append(counted.of(press))
            await h.outbox.drain()
        # The first tap on the message asks once which view it shows; after
        # that a tap is the room's save, nothing else (no reach lookups).
        # (The hand's lane, woken by the save, reads its rows in its own task.)
        assert per_tap[0].count("save_room") == 1 and len(per_tap[0]) <= 2
        assert per_tap[1:] == [["save_room"]] * 3
        assert len(h.hand_message(BO).text) > 0 and h.hand_message(BO).edits >= 4


async def test_a_panel_press_asks_the_manager_once_and_edits_the_panel(api: FakeBotAPI) -> None:
    api.opened |= {ANN.id, BO.id}
    async with game(api) as (h, manager, repo):
        await open_room(h, ANN)
        await h.command(ANN, "/settings")
        panel = h.message_with(ANN.id, Verb.SET_OPTION)
        asked: list[Verb] = []
        handle = manager.handle

        async def spying(action: Any) -> Any:
            asked.append(action.verb)
            return await handle(action)

        manager.handle = spying  # type: ignore[method-assign]
        option = buttons_of(panel, Verb.SET_OPTION)[0]["callback_data"]
        await h.press(ANN, panel, option)
        assert asked == [Verb.SET_OPTION]
        panels = [m for m in h.private_messages(ANN) if buttons_of(m, Verb.SET_OPTION)]
        assert [m.message_id for m in panels] == [panel.message_id]
        assert panel.edits >= 1


async def test_an_unblocked_private_chat_gets_what_was_held(api: FakeBotAPI) -> None:
    api.opened |= {ANN.id}  # Bo has blocked the bot
    async with game(api) as (h, manager, repo):
        await deal(h, ANN, BO)
        assert h.private_messages(BO) == []  # held: Telegram refused it
        api.opened.add(BO.id)  # Bo unblocks the bot: Telegram says so, Bo writes nothing
        member = {"user": {"id": 1, "is_bot": True, "first_name": "bot"}, "until_date": 0}
        await h.feed(
            {
                "update_id": api.next_update_id(),
                "my_chat_member": {
                    "chat": {"id": BO.id, "type": "private", "first_name": BO.first_name},
                    "from": BO.json(),
                    "date": 1_700_000_000,
                    "old_chat_member": {**member, "status": "kicked"},
                    "new_chat_member": {**member, "status": "member"},
                },
            }
        )
        assert buttons_of(h.hand_message(BO), Verb.PICK)


@pytest.fixture
def held_suggestions(monkeypatch: pytest.MonkeyPatch) -> Iterator[Gate]:
    yield from held(monkeypatch, "suggestions")


async def test_a_card_tap_is_answered_while_the_other_players_suggestion_is_worked_out(
    api: FakeBotAPI, held_suggestions: Gate
) -> None:
    """Ann's 推荐 is held in the solver; Bo's card tap is answered and his
    hand redrawn meanwhile; then Ann's hand shows her suggestions."""
    api.opened |= {ANN.id, BO.id}
    gate = held_suggestions
    async with game(api) as (h, manager, repo):
        await deal(h, ANN, BO)
        ann = h.hand_message(ANN)
        suggest = buttons_of(ann, Verb.SUGGEST)[0]["callback_data"]
        asking = asyncio.create_task(h.feed(h.press_update(ANN, ann, suggest)))
        await gate.until_reached()

        bo = h.hand_message(BO)
        edits = bo.edits
        pick = buttons_of(bo, Verb.PICK)[0]["callback_data"]
        answer = await asyncio.wait_for(h.press(BO, bo, pick), HANG_GUARD)
        assert not alerted(answer)
        assert bo.edits > edits  # the tapped card moved on his hand
        assert not asking.done()
        assert not buttons_of(ann, Verb.APPLY)  # no suggestions on hers yet

        gate.release.set()
        await asyncio.wait_for(asking, HANG_GUARD)
        await h.outbox.drain()
        assert buttons_of(h.hand_message(ANN), Verb.APPLY)
        assert "1. " in h.hand_message(ANN).text
