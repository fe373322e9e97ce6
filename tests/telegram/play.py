"""Scripted players for the end-to-end tests: they only read what the bot
sent (message text, button callback_data) and press buttons, as users do."""

from __future__ import annotations

from typing import Any

from bot.table.actions import Verb
from bot.table.clock import FakeClock
from tests.telegram.fakebotapi import StoredMessage
from tests.telegram.harness import Harness, TgUser, buttons_of


async def deal(h: Harness, owner: TgUser, *others: TgUser) -> None:
    """The owner opens a room, the others join, the owner deals."""
    await h.command(owner, "/newgame")
    for user in others:
        await h.command(user, "/join")
    await h.command(owner, "/startgame")


def alerted(answer: dict[str, Any]) -> bool:
    return answer.get("show_alert") == "true"


async def arrange_by_suggestion(h: Harness, user: TgUser) -> dict[str, Any]:
    hand = h.hand_message(user)
    assert not alerted(await h.press_verb(user, hand, Verb.SUGGEST))
    assert not alerted(await h.press_verb(user, hand, Verb.APPLY))
    answer = await h.press_verb(user, hand, Verb.CONFIRM)
    assert not alerted(answer), answer
    assert not buttons_of(hand, Verb.PICK), "a confirmed hand keeps no card buttons"
    return answer


async def arrange_by_picking(h: Harness, user: TgUser) -> dict[str, Any]:
    """Tap the first 8 cards as shown (head, then middle; the rest is the
    tail); a fouled result is refused with its reason, then the player
    resets and takes a suggestion."""
    hand = h.hand_message(user)
    picks = [b["callback_data"] for b in buttons_of(hand, Verb.PICK)]
    assert len(picks) == 13
    assert not buttons_of(hand, Verb.CONFIRM)  # disabled until complete
    for data in picks[:8]:
        assert not alerted(await h.press(user, hand, data))
    answer = await h.press_verb(user, hand, Verb.CONFIRM)
    if alerted(answer):
        assert answer["text"] and "⚠️" in hand.text  # the reason, in the alert and the hand
        assert not alerted(await h.press_verb(user, hand, Verb.RESET))
        return await arrange_by_suggestion(h, user)
    return answer


def settlements(h: Harness) -> list[StoredMessage]:
    return [m for m in h.group_messages() if buttons_of(m, Verb.VERIFY)]


async def reveal(h: Harness, clock: FakeClock, step: float = 1.5) -> StoredMessage:
    """Let the showdown play out (its steps are timers) until a new
    settlement is posted."""
    before = len(settlements(h))
    for _ in range(60):
        await clock.advance(step)
        await h.outbox.drain()
        if len(settlements(h)) > before:
            return settlements(h)[-1]
    raise AssertionError("no settlement was posted")
