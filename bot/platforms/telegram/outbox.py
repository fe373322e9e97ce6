"""Delivery of Views to Telegram: edit in place, coalesce, survive flood limits.

Every View goes through one queue, in order. A View whose key is already
queued replaces the queued state in place (only the latest state of a
message is worth an API call), and the worker waits a short window before
flushing so a burst of presses costs one edit. NOTICE views are one-off and
never merged. Message ids are remembered per view key, so successive states
of ``table:<room>`` or ``hand:<room>:<player>`` edit one message.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from datetime import timedelta
from typing import Any, TypeVar

from telegram import Bot, Message
from telegram.error import BadRequest, Forbidden, RetryAfter

from bot.platforms.telegram.reach import PrivateReach, room_of_key
from bot.platforms.telegram.render import fingerprint, render_markup, render_text
from bot.views.model import Audience, View, ViewKind

log = logging.getLogger(__name__)
T = TypeVar("T")
PLATFORM = "telegram"


def _seconds(error: RetryAfter) -> float:
    value = error.retry_after
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


async def call_once_more(fn: Callable[..., Awaitable[T]], /, **kwargs: Any) -> T:
    """Call the Bot API; on 429 wait the time Telegram asks for and try once
    more (AIORateLimiter retries first; this is the last line)."""
    try:
        return await fn(**kwargs)
    except RetryAfter as error:
        delay = _seconds(error)
        log.warning("flood limit: waiting %.1fs before retrying %s", delay, fn.__name__)
        await asyncio.sleep(delay)
        return await fn(**kwargs)


def _unreachable(error: Exception) -> bool:
    if isinstance(error, Forbidden):
        return True
    return isinstance(error, BadRequest) and "chat not found" in error.message.lower()


class Outbox:
    def __init__(self, bot: Bot, reach: PrivateReach, *, coalesce_seconds: float = 0.3) -> None:
        self._bot = bot
        self.reach = reach
        self.window = coalesce_seconds
        self.bot_username = ""
        self.messages: dict[str, tuple[int, int]] = {}  # view key -> (chat id, message id)
        self.rooms: dict[str, str] = {}  # room id -> group chat id
        self._room_language: dict[str, str] = {}
        self._shown: dict[str, str] = {}  # view key -> fingerprint of what it shows
        self._queue: OrderedDict[str, View] = OrderedDict()
        self._seq = itertools.count()
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._task: asyncio.Task[None] | None = None

    # ---- queue --------------------------------------------------------------------
    def submit(self, views: Iterable[View]) -> None:
        for view in views:
            if view.platform and view.platform != PLATFORM:
                continue  # another platform's view from a shared manager
            room_id = room_of_key(view.key)
            if room_id and view.audience is Audience.GROUP and view.chat_id:
                self.rooms[room_id] = view.chat_id
            if room_id:
                self._room_language[room_id] = view.language
            slot = f"{view.key}#{next(self._seq)}" if view.kind is ViewKind.NOTICE else view.key
            old = self._queue.get(slot)
            # Assigning to an existing slot keeps its place in the order.
            self._queue[slot] = dataclasses.replace(view, fresh=True) if old and old.fresh else view
        if self._queue:
            self._idle.clear()
            self._wake.set()

    def adopt(self, key: str, message: Message) -> None:
        """A press came from ``message``: if ``key`` has no message yet (the bot
        restarted and forgot its ids), the pressed one is it."""
        if key not in self.messages:
            self.messages[key] = (message.chat_id, message.message_id)

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def drain(self) -> None:
        """Wait until everything queued has been delivered."""
        if self._task is None:
            await self._flush()
            return
        while not self._idle.is_set():
            await self._idle.wait()

    async def stop(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.drain(), timeout=10)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            if self.window > 0:
                await asyncio.sleep(self.window)  # let a burst of states pile up
            self._wake.clear()
            await self._flush()
            if not self._queue:
                self._idle.set()

    async def _flush(self) -> None:
        while self._queue:
            _, view = self._queue.popitem(last=False)
            try:
                await self._deliver(view)
            except Exception:  # one failed message must not stop the others
                log.exception("could not deliver view %s", view.key)
        self._idle.set()

    # ---- private reach --------------------------------------------------------------
    def user_opened(self, user_id: str) -> int:
        """The user wrote to us in private: queue what was held for them and
        update the group notices. Returns how many views were held."""
        views, rooms = self.reach.opened(user_id)
        self.submit(views)
        for room_id in rooms:
            self._notify_room(room_id)
        return len(views)

    def _notify_room(self, room_id: str) -> None:
        chat_id = self.rooms.get(room_id)
        if chat_id and self.bot_username:
            language = self._room_language.get(room_id, "zh-Hans")
            self.submit([self.reach.notice(room_id, chat_id, language, self.bot_username)])

    def _hold(self, view: View) -> None:
        room_id = self.reach.hold(view)
        if room_id:
            self._notify_room(room_id)

    # ---- delivery -------------------------------------------------------------------
    def _target(self, view: View) -> int | None:
        if view.audience is Audience.PLAYER:
            return int(view.user_id) if view.user_id and view.user_id.lstrip("-").isdigit() else None
        chat = view.chat_id or self.rooms.get(room_of_key(view.key) or "", "")
        return int(chat) if chat.lstrip("-").isdigit() else None

    async def _deliver(self, view: View) -> None:
        chat_id = self._target(view)
        if chat_id is None:
            log.warning("no chat for view %s", view.key)
            return
        private = view.audience is Audience.PLAYER
        if private and self.reach.is_unreachable(str(view.user_id)):
            self._hold(view)
            return
        text = render_text(view)
        markup = render_markup(view, self.bot_username)
        shown = fingerprint(text, markup)
        one_off = view.kind is ViewKind.NOTICE
        known = None if one_off or view.fresh else self.messages.get(view.key)
        try:
            if known is not None:
                if self._shown.get(view.key) == shown:
                    return  # same text and buttons: an edit would be refused anyway
                if await self._edit(known, text, markup):
                    self._shown[view.key] = shown
                    return
            message = await call_once_more(
                self._bot.send_message, chat_id=chat_id, text=text, reply_markup=markup
            )
        except (Forbidden, BadRequest) as error:
            if private and _unreachable(error):
                self._hold(view)
                return
            raise
        if not one_off:
            self.messages[view.key] = (chat_id, message.message_id)
            self._shown[view.key] = shown

    async def _edit(self, known: tuple[int, int], text: str, markup: Any) -> bool:
        """Edit in place; False when the message is gone and a new one is needed."""
        chat_id, message_id = known
        try:
            await call_once_more(
                self._bot.edit_message_text,
                chat_id=chat_id, message_id=message_id, text=text, reply_markup=markup,
            )
        except BadRequest as error:
            if "not modified" in error.message.lower():
                return True
            if "not found" in error.message.lower() or "can't be edited" in error.message.lower():
                return False
            raise
        return True
