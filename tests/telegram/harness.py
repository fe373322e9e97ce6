"""Drive the real python-telegram-bot Application like Telegram users would:
updates go in through ``Application.process_update``, every outgoing call
goes over HTTP to the fake Bot API server, and the test reads the messages
and buttons the bot sent from that server."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from telegram import Update
from telegram.ext import AIORateLimiter, Application

from bot.config import Settings
from bot.delivery import Limits
from bot.platforms.telegram.app import adapter_of, build_application, close_adapter, open_adapter
from bot.table.actions import ActionIdError, Verb, decode
from bot.table.manager import TableManager
from tests.telegram.fakebotapi import BOT_USERNAME, FakeBotAPI, StoredMessage

GROUP_ID = -1001234567890
TOKEN = "123456:TEST-token"


@dataclass(frozen=True)
class TgUser:
    id: int
    first_name: str
    language_code: str = "en"

    def json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "is_bot": False,
            "first_name": self.first_name,
            "language_code": self.language_code,
        }


def button_verb(button: dict[str, Any]) -> Verb | None:
    try:
        return decode(button.get("callback_data", ""))[2]
    except ActionIdError:
        return None


def press_update(
    api: FakeBotAPI, user: TgUser, message: StoredMessage, data: str
) -> dict[str, Any]:
    """The update Telegram sends when ``user`` taps the button with ``data``
    on ``message``: for the harness and for bots in processes of their own."""
    return {
        "update_id": api.next_update_id(),
        "callback_query": {
            "id": f"q{api.next_update_id()}",
            "from": user.json(),
            "chat_instance": "ci",
            "data": data,
            "message": api._message_json(message),
        },
    }


def command_json(
    api: FakeBotAPI, user: TgUser, text: str, chat_id: int = GROUP_ID, message_id: int = 1
) -> dict[str, Any]:
    """The update Telegram sends when ``user`` types ``text`` (a /command) in
    the group (or, with chat_id=user.id, in private)."""
    if chat_id == user.id:
        api.opened.add(user.id)  # writing to the bot opens the private chat
        chat = {"id": user.id, "type": "private", "first_name": user.first_name}
    else:
        chat = {"id": chat_id, "type": "supergroup", "title": "Thirteen test group"}
    command = text.split()[0]
    return {
        "update_id": api.next_update_id(),
        "message": {
            "message_id": message_id,
            "date": 1_700_000_000,
            "chat": chat,
            "from": user.json(),
            "text": text,
            "entities": [{"type": "bot_command", "offset": 0, "length": len(command)}],
        },
    }


def buttons_of(message: StoredMessage, verb: Verb) -> list[dict[str, Any]]:
    return [b for b in message.buttons if button_verb(b) is verb]


def closed(hand: StoredMessage | None) -> bool:
    """A private hand no card can be tapped on any more (confirmed, or the result)."""
    return hand is not None and not buttons_of(hand, Verb.PICK)


class Harness:
    def __init__(
        self,
        api: FakeBotAPI,
        manager: Any,
        *,
        coalesce_seconds: float = 0.0,
        max_retries: int | None = None,
        **more: Any,
    ) -> None:
        """``more``: settings besides the fake Bot API's (the page's
        WEBAPP_URL, ...)."""
        self.api = api
        self.manager = manager
        settings = Settings(
            telegram_token=TOKEN,
            telegram_base_url=api.base_url,
            telegram_base_file_url=api.base_url.replace("/bot", "/file/bot"),
            **more,
        )
        # As in production, no rate limiter: the delivery engine keeps to the
        # limits (off here: the suite must not wait 60 s for a group's minute
        # budget) and retries 429s. ``max_retries`` adds the AIORateLimiter.
        limiter = (
            None
            if max_retries is None
            else AIORateLimiter(overall_max_rate=0, group_max_rate=0, max_retries=max_retries)
        )
        # As `thirteen run` assembles it: a table manager's repository is
        # the store delivered from, and Telegram is registered with it.
        real = isinstance(manager, TableManager)
        self.app: Application = build_application(
            settings,
            manager,
            store=manager.repo if real else None,
            rate_limiter=limiter,
            coalesce_seconds=coalesce_seconds,
            limits=Limits.off(),
        )
        # the manager's timer views go to this bot
        manager.set_sink(adapter_of(self.app).sink)
        if real:
            manager.durable.register(adapter_of(self.app).outbox)
        self._message_ids = itertools.count(1)

    @property
    def outbox(self):  # type: ignore[no-untyped-def]
        return adapter_of(self.app).outbox

    async def __aenter__(self) -> Harness:
        await self.app.initialize()
        await open_adapter(self.app)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await close_adapter(self.app)
        await self.app.shutdown()

    async def feed(self, update: dict[str, Any]) -> None:
        await self.app.process_update(Update.de_json(update, self.app.bot))
        await self.outbox.drain()

    # ---- what users do -----------------------------------------------------------
    async def command(self, user: TgUser, text: str, chat_id: int = GROUP_ID) -> None:
        """Type ``text`` (a /command) in the group (or, with chat_id=user.id, in private)."""
        await self.app.process_update(self.command_update(user, text, chat_id))
        await self.outbox.drain()

    def command_update(self, user: TgUser, text: str, chat_id: int = GROUP_ID) -> Update:
        """The update Telegram sends when ``user`` types ``text``."""
        update = command_json(self.api, user, text, chat_id, next(self._message_ids))
        return Update.de_json(update, self.app.bot)

    async def start_private(self, user: TgUser, payload: str | None = None) -> None:
        """Follow a deep link (or open the chat): ``/start [payload]`` in private."""
        await self.command(user, f"/start {payload}" if payload else "/start", chat_id=user.id)

    def press_update(self, user: TgUser, message: StoredMessage, data: str) -> dict[str, Any]:
        """The update Telegram sends when ``user`` taps the button with
        ``data`` on ``message`` (its query id unique across restarts)."""
        return press_update(self.api, user, message, data)

    async def press(self, user: TgUser, message: StoredMessage, data: str) -> dict[str, Any]:
        """Tap a button of ``message``; returns the answerCallbackQuery params."""
        update = self.press_update(user, message, data)
        query_id = update["callback_query"]["id"]
        await self.feed(update)
        answers = [
            c.params
            for c in self.api.calls_of("answerCallbackQuery")
            if c.params.get("callback_query_id") == query_id and c.status == 200
        ]
        assert len(answers) == 1, f"press {data!r} answered {len(answers)} times"
        return answers[0]

    async def burst(self, user: TgUser, message: StoredMessage, datas: list[str]) -> None:
        """Taps of ``message``'s buttons back to back, as a quick thumb makes
        them: each processed, its delivery not awaited before the next (the
        coalescing window merges their edits), then all delivered."""
        for data in datas:
            update = self.press_update(user, message, data)
            await self.app.process_update(Update.de_json(update, self.app.bot))
        await self.outbox.drain()

    async def press_verb(
        self, user: TgUser, message: StoredMessage, verb: Verb, index: int = 0
    ) -> dict[str, Any]:
        buttons = buttons_of(message, verb)
        assert buttons, f"no {verb.name} button in {message.text!r}"
        return await self.press(user, message, buttons[index]["callback_data"])

    # ---- what the test reads ---------------------------------------------------------
    def group_messages(self) -> list[StoredMessage]:
        return self.api.chat_messages(GROUP_ID)

    def private_messages(self, user: TgUser) -> list[StoredMessage]:
        return self.api.chat_messages(user.id)

    def hand_message(self, user: TgUser) -> StoredMessage:
        """The user's latest private message with card buttons."""
        hands = [
            m
            for m in self.private_messages(user)
            if any(button_verb(b) in (Verb.PICK, Verb.CONFIRM) for b in m.buttons)
        ]
        assert hands, f"{user.first_name} has no hand message"
        return hands[-1]

    def message_with(self, chat_id: int, verb: Verb) -> StoredMessage:
        found = [m for m in self.api.chat_messages(chat_id) if buttons_of(m, verb)]
        assert found, f"no message with a {verb.name} button in chat {chat_id}"
        return found[-1]


BOT = BOT_USERNAME
