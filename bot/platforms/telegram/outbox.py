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
import warnings
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from datetime import timedelta
from typing import Any, TypeVar

from telegram import Bot, InputFile, InputMediaPhoto, Message
from telegram.error import BadRequest, ChatMigrated, Forbidden, RetryAfter
from telegram.warnings import PTBDeprecationWarning

from bot.pictures import render_async
from bot.platforms.telegram.reach import PrivateReach, room_of_key
from bot.platforms.telegram.render import (
    fingerprint,
    render_caption,
    render_markup,
    render_text,
)
from bot.views.model import Audience, View, ViewKind

log = logging.getLogger(__name__)
T = TypeVar("T")
PLATFORM = "telegram"
KEYS_KEPT = 20_000  # older messages fall back to judging a press by its verb


def _seconds(error: RetryAfter) -> float:
    with warnings.catch_warnings():  # int-vs-timedelta deprecation: both handled here
        warnings.simplefilter("ignore", PTBDeprecationWarning)
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
        self._rounds: dict[str, str] = {}  # view key -> round shown (hand views)
        # (chat id, message id) -> view key, for the most recent messages only
        self._keys: OrderedDict[tuple[int, int], str] = OrderedDict()
        self._in_place: set[str] = set()  # NOTICE keys to edit once (a pressed panel)
        self._photos: set[str] = set()  # view keys whose message is a photo (caption, not text)
        self.pictures = True  # the PICTURES setting: False sends every view as text
        # A group upgraded to a supergroup changes its id; the room keeps the old one.
        self.migrated: dict[int, int] = {}
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
        """A press on ``message`` answered with a view of ``key``: edit the
        pressed message (also after a restart, when the ids were forgotten;
        also for a NOTICE panel such as the settings, edited once in place)."""
        self.messages[key] = (message.chat_id, message.message_id)
        self._in_place.add(key)
        if message.photo:
            self._photos.add(key)
        else:
            self._photos.discard(key)

    def key_of(self, message: Message) -> str | None:
        """The view key a message was sent for (None if not known)."""
        return self._keys.get((message.chat_id, message.message_id))

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
            return (
                int(view.user_id) if view.user_id and view.user_id.lstrip("-").isdigit() else None
            )
        chat = view.chat_id or self.rooms.get(room_of_key(view.key) or "", "")
        if not chat.lstrip("-").isdigit():
            return None
        return self.migrated.get(int(chat), int(chat))

    async def _deliver(self, view: View) -> None:
        chat_id = self._target(view)
        if chat_id is None:
            log.warning("no chat for view %s", view.key)
            return
        private = view.audience is Audience.PLAYER
        if private and self.reach.is_unreachable(str(view.user_id)):
            self._hold(view)
            return
        picture = view.picture if self.pictures else None
        text = render_caption(view) if picture else render_text(view)
        markup = render_markup(view, self.bot_username)
        shown = fingerprint(text, markup, picture.fingerprint if picture else None)
        one_off = view.kind is ViewKind.NOTICE and view.key not in self._in_place
        self._in_place.discard(view.key)
        known = None if one_off or view.fresh else self.messages.get(view.key)
        round_tag = view.meta.get("round")
        if known is not None and round_tag and self._rounds.get(view.key, round_tag) != round_tag:
            # A new round's hand: a new message, so the player gets notified
            # (an edit of last round's message makes no sound).
            known = None
        if round_tag:
            self._rounds[view.key] = round_tag
        photo = known is not None and view.key in self._photos
        try:
            if known is not None:
                if self._shown.get(view.key) == shown:
                    return  # same text and buttons: an edit would be refused anyway
                if picture is not None and photo:
                    png = await render_async(picture.render, picture.data)
                    edited = await self._edit_media(known, png, text, markup)
                elif photo:
                    # A photo message cannot lose its photo: the caption changes.
                    edited = await self._edit_caption(known, render_caption(view), markup)
                elif picture is None:
                    edited = await self._edit(known, text, markup)
                else:
                    edited = False  # a text message cannot become a photo: send one
                if edited:
                    self._shown[view.key] = shown
                    return
            if picture is not None:
                png = await render_async(picture.render, picture.data)
                message = await self._send_photo(chat_id, png, text, markup, picture.filename)
            else:
                message = await self._send(chat_id, text, markup)
        except (Forbidden, BadRequest) as error:
            if private and _unreachable(error):
                self._hold(view)
                return
            raise
        self._keys[(message.chat_id, message.message_id)] = view.key
        if len(self._keys) > KEYS_KEPT:
            self._keys.popitem(last=False)
        if not one_off:
            replaced = self.messages.get(view.key)
            self.messages[view.key] = (message.chat_id, message.message_id)
            self._shown[view.key] = shown
            if picture is not None:
                self._photos.add(view.key)
            else:
                self._photos.discard(view.key)
            if replaced is not None and view.fresh and not private:
                await self._retire(replaced)

    async def _send(self, chat_id: int, text: str, markup: Any) -> Message:
        try:
            return await call_once_more(
                self._bot.send_message, chat_id=chat_id, text=text, reply_markup=markup
            )
        except ChatMigrated as moved:
            # Follow the group to its new id, now and for every later view.
            self.migrated[chat_id] = moved.new_chat_id
            return await call_once_more(
                self._bot.send_message, chat_id=moved.new_chat_id, text=text, reply_markup=markup
            )

    async def _send_photo(
        self, chat_id: int, png: bytes, caption: str, markup: Any, filename: str
    ) -> Message:
        async def send(chat: int) -> Message:
            return await call_once_more(
                self._bot.send_photo,
                chat_id=chat,
                photo=InputFile(png, filename=filename),
                caption=caption,
                reply_markup=markup,
            )

        try:
            return await send(chat_id)
        except ChatMigrated as moved:
            self.migrated[chat_id] = moved.new_chat_id
            return await send(moved.new_chat_id)

    async def _edit_media(
        self, known: tuple[int, int], png: bytes, caption: str, markup: Any
    ) -> bool:
        """Replace a photo message's picture and caption in place
        (editMessageMedia); False when it is gone and a new one is needed."""
        chat_id, message_id = known
        media = InputMediaPhoto(InputFile(png, filename="cards.png"), caption=caption)
        return await self._edited(
            known,
            self._bot.edit_message_media,
            chat_id=chat_id,
            message_id=message_id,
            media=media,
            reply_markup=markup,
        )

    async def _edit_caption(self, known: tuple[int, int], caption: str, markup: Any) -> bool:
        chat_id, message_id = known
        return await self._edited(
            known,
            self._bot.edit_message_caption,
            chat_id=chat_id,
            message_id=message_id,
            caption=caption,
            reply_markup=markup,
        )

    async def _edited(
        self, known: tuple[int, int], fn: Callable[..., Awaitable[Any]], **kwargs: Any
    ) -> bool:
        try:
            await call_once_more(fn, **kwargs)
        except ChatMigrated as moved:
            self.migrated[known[0]] = moved.new_chat_id
            return False
        except BadRequest as error:
            text = error.message.lower()
            if "not modified" in text:
                return True
            if "not found" in text or "can't be edited" in text or "no caption" in text:
                return False
            raise
        return True

    async def _retire(self, known: tuple[int, int]) -> None:
        """A fresh table message took over: take the buttons off the old one
        so nobody keeps pressing a message that no longer changes."""
        try:
            await call_once_more(
                self._bot.edit_message_reply_markup,
                chat_id=known[0],
                message_id=known[1],
                reply_markup=None,
            )
        except BadRequest:
            log.debug("old message %s already gone or unchanged", known)

    async def _edit(self, known: tuple[int, int], text: str, markup: Any) -> bool:
        """Edit in place; False when the message is gone and a new one is needed."""
        chat_id, message_id = known
        try:
            await call_once_more(
                self._bot.edit_message_text,
                chat_id=chat_id,
                message_id=message_id,
                text=text,
                reply_markup=markup,
            )
        except ChatMigrated as moved:
            self.migrated[chat_id] = moved.new_chat_id
            return False  # the old group's messages are read-only now: post anew
        except BadRequest as error:
            if "not modified" in error.message.lower():
                return True
            if "not found" in error.message.lower() or "can't be edited" in error.message.lower():
                return False
            raise
        return True
