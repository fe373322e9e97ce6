"""The Telegram game driver: a table (the real TableManager behind the real
python-telegram-bot Application, on the fake Bot API), and scripted players
who only read what the bot sent (message text, button callback_data) and
type commands or press buttons, as users do. How a game is opened, joined
and dealt is said here, once; the tests call it."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from bot.i18n import LANGUAGES, t
from bot.table.actions import Verb
from bot.table.clock import FakeClock
from bot.table.manager import TableManager
from storage.memory import MemoryRepository
from tests.telegram.fakebotapi import FakeBotAPI, StoredMessage
from tests.telegram.harness import GROUP_ID, Harness, TgUser, buttons_of, command_json

USERS = [
    TgUser(21, "Ann"),
    TgUser(22, "Bo", "zh-hans"),
    TgUser(23, "Cy", "zh-hant"),
    TgUser(24, "Di"),
]
STEP = 1.5  # seconds between the showdown's steps

NEWGAME, JOIN, STARTGAME = "/newgame", "/join", "/startgame"


@asynccontextmanager
async def table(
    api: FakeBotAPI,
    repo=None,
    clock=None,
    *,
    pictures: bool = True,
    rng: random.Random | None = None,
    coalesce_seconds: float = 0.0,
    **settings: Any,
) -> AsyncIterator[tuple[Harness, TableManager, FakeClock]]:
    """The bot as `thirteen run` assembles it, on ``repo`` (in memory by
    default) and a fake clock; ``pictures``: the PICTURES setting; ``rng``:
    the deck's randomness (tests.table.helpers.RiggedRandom deals chosen
    hands); ``coalesce_seconds``: the delivery's coalescing window;
    ``settings``: more of the bot's settings (the page's WEBAPP_URL, ...)."""
    repo = repo or MemoryRepository()
    clock = clock or FakeClock(start=1_700_000_000)
    await repo.init()
    manager = TableManager(
        repo,
        clock=clock,
        arrange_seconds=120,
        reminder_seconds=30,
        showdown_step_seconds=STEP,
        default_language="en",
        pictures=pictures,
        rng=rng,
    )
    async with Harness(api, manager, coalesce_seconds=coalesce_seconds, **settings) as h:
        await manager.start()  # after the sink is installed
        try:
            yield h, manager, clock
        finally:
            await manager.stop()


async def open_room(h: Harness, owner: TgUser, *others: TgUser, chat_id: int = GROUP_ID) -> None:
    """The owner opens a room (/newgame in the group), the others join (/join)."""
    await h.command(owner, NEWGAME, chat_id=chat_id)
    for user in others:
        await join(h, user, chat_id=chat_id)


async def join(h: Harness, user: TgUser, chat_id: int = GROUP_ID) -> None:
    await h.command(user, JOIN, chat_id=chat_id)


async def start_round(h: Harness, owner: TgUser) -> None:
    """The owner deals (/startgame)."""
    await h.command(owner, STARTGAME)


async def deal_again(h: Harness, owner: TgUser) -> dict[str, Any]:
    """The owner deals the next round from the group's last settlement
    (its button); returns the press's answer."""
    settlement = [m for m in h.group_messages() if buttons_of(m, Verb.START)][-1]
    return await h.press_verb(owner, settlement, Verb.START)


def players(n: int) -> list[TgUser]:
    """``n`` players P0, P1, … (ids 100, 101, …)."""
    return [TgUser(100 + i, f"P{i}") for i in range(n)]


async def deal(h: Harness, owner: TgUser, *others: TgUser) -> None:
    """The owner opens a room, the others join, the owner deals."""
    await open_room(h, owner, *others)
    await start_round(h, owner)


def newgame_update(api: FakeBotAPI, owner: TgUser) -> dict[str, Any]:
    """The update of /newgame typed in the group, for a bot that reads its
    updates itself (polling or a webhook) rather than through a Harness."""
    return command_json(api, owner, NEWGAME)


def room_of(h: Harness) -> str:
    """The room id of the group's lobby, read from its join deep link."""
    urls = [
        b["url"] for m in h.group_messages() for b in m.buttons if "start=j" in b.get("url", "")
    ]
    assert urls, "the lobby offers a deep link to join"
    return urls[-1].rsplit("start=j", 1)[1]


async def until_group_message(api: FakeBotAPI) -> None:
    """Wait until the bot has posted in the group."""
    for _ in range(400):  # a hang guard, not a speed limit: polls every 50 ms
        if api.chat_messages(GROUP_ID):
            return
        await asyncio.sleep(0.05)


def alerted(answer: dict[str, Any]) -> bool:
    return answer.get("show_alert") == "true"


def showdown_on(answer: dict[str, Any]) -> bool:
    """The answer to the last confirm of a round: a toast that the showdown
    is on (that hand is not redrawn as confirmed: its result redraws it
    seconds later)."""
    return not alerted(answer) and answer.get("text") in {
        t(lang, "toast.showdown_on") for lang in LANGUAGES
    }


async def arrange_by_suggestion(h: Harness, user: TgUser) -> dict[str, Any]:
    hand = h.hand_message(user)
    assert not alerted(await h.press_verb(user, hand, Verb.SUGGEST))
    assert not alerted(await h.press_verb(user, hand, Verb.APPLY))
    answer = await h.press_verb(user, hand, Verb.CONFIRM)
    assert not alerted(answer), answer
    if not showdown_on(answer):
        assert not buttons_of(hand, Verb.PICK), "a confirmed hand keeps no card buttons"
    return answer


Picking = Callable[[TgUser, StoredMessage, list[str]], Awaitable[object]]


async def arrange_by_picking(
    h: Harness, user: TgUser, pick: Picking | None = None
) -> dict[str, Any]:
    """Tap the first 8 cards as shown (head, then middle; the rest is the
    tail); a fouled result is refused with its reason, then the player
    resets and takes a suggestion. ``pick`` taps the 8 cards' buttons of
    the hand (default: one by one, each answered and delivered before the
    next; ``h.burst``: back to back)."""
    hand = h.hand_message(user)
    picks = [b["callback_data"] for b in buttons_of(hand, Verb.PICK)]
    assert len(picks) == 13
    assert not buttons_of(hand, Verb.CONFIRM)  # disabled until complete
    if pick is None:
        for data in picks[:8]:
            assert not alerted(await h.press(user, hand, data))
    else:
        await pick(user, hand, picks[:8])
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
