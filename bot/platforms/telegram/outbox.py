"""Delivery of Views to Telegram over the durable outbox (docs/delivery.md).

Views of accepted actions are in the database already (written with the
state change); the others (answers to read-only presses, held private
views) are written here. Either way a per-chat lane of the DeliveryEngine
sends them: the latest state of each message, edited in place under the
message id stored in the database, so a restarted process or another one
edits the same message. This module is the Telegram Transport: how one row
becomes a sendMessage or an editMessageText, and what Telegram's errors mean.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import logging
import warnings
from collections.abc import Awaitable, Callable, Iterable
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

import httpx
from telegram import Bot, InlineKeyboardButton, InputFile, InputMediaPhoto, Message
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
    TimedOut,
)
from telegram.warnings import PTBDeprecationWarning

from bot.delivery import DeliveryEngine, Limits, Permanent, RetryLater, view_entries
from bot.delivery.engine import DEFAULT_RETENTION
from bot.delivery.entries import INFO_NOTICES, is_durable, is_one_off_key, target_chat
from bot.delivery.payload import view_from_payload
from bot.delivery.transport import Hold, as_unsure, is_unsure
from bot.pictures import render_async
from bot.platforms.superseded import RoundNow, kept_current, still_working, without_stale
from bot.platforms.telegram.reach import PrivateReach, room_of_key
from bot.platforms.telegram.render import (
    NOOP,
    fingerprint,
    render_caption,
    render_markup,
    render_text,
)
from bot.views.model import Audience, Button, Picture, View, ViewKind
from storage.delivery import DeliveryStore, OutboxRow, SentRef

log = logging.getLogger(__name__)
T = TypeVar("T")
PLATFORM = "telegram"
# An information post (rules, help, leaderboard) asked again within this
# time edits the one posted before instead of posting another.
INFO_MERGE = timedelta(minutes=10)


def _seconds(error: RetryAfter) -> float:
    with warnings.catch_warnings():  # int-vs-timedelta deprecation: both handled here
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        value = error.retry_after
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


async def call_once_more(fn: Callable[..., Awaitable[T]], /, **kwargs: Any) -> T:
    """A direct Bot API call (a press's answer, a short reply): on 429 wait
    the time Telegram asks for and try once more."""
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


def _gone(error: BadRequest) -> bool:
    text = error.message.lower()
    return "not found" in text or "can't be edited" in text or "no caption" in text


# A stored fingerprint of a photo message starts with this: the message keeps
# its photo (and is edited by media or caption) for as long as it lives.
PHOTO = "p:"


def _digest(text: str, markup: Any, picture: str | None = None, *, photo: bool = False) -> str:
    digest = hashlib.sha256(fingerprint(text, markup, picture).encode()).hexdigest()
    # messages.fingerprint holds 64 characters (PostgreSQL enforces it): a
    # photo's mark takes the place of the digest's last two hex digits.
    return PHOTO + digest[: -len(PHOTO)] if photo else digest


def is_group_chat(chat_id: str) -> bool:
    return chat_id.startswith("-")


class Outbox:
    """The Telegram side of delivery: the adapter's entry point (submit,
    adopt, key_of, user_opened) and the engine's Transport (deliver)."""

    platform = PLATFORM

    def __init__(
        self,
        bot: Bot,
        reach: PrivateReach,
        store: DeliveryStore,
        *,
        coalesce_seconds: float = 0.3,
        limits: Limits | None = None,
        poll_seconds: float = 1.0,
        retention: timedelta | None = DEFAULT_RETENTION,
    ) -> None:
        self._bot = bot
        self.reach = reach
        self.store = store
        self.bot_username = ""
        self.pictures = True  # the PICTURES setting: False sends every view as text
        self.rooms: dict[str, str] = {}  # room id -> group chat id
        # A group upgraded to a supergroup changes its id; the room keeps the old one.
        self.migrated: dict[int, int] = {}
        self.engine = DeliveryEngine(
            store,
            self,
            limits=limits,
            poll_seconds=poll_seconds,
            retention=retention,
            coalesce_seconds=coalesce_seconds,
            exclusive=not getattr(store, "shared", False),
        )

    @property
    def window(self) -> float:
        return self.engine.coalesce_seconds

    @window.setter
    def window(self, seconds: float) -> None:
        self.engine.coalesce_seconds = seconds

    # ---- what the adapter calls -------------------------------------------------------
    async def submit(self, views: Iterable[View]) -> None:
        """Deliver ``views``: those written with their state change already
        only wake their chats' lanes; the others are written first."""
        chats: list[str] = []
        fresh: list[View] = []
        for view in views:
            if view.platform and view.platform != PLATFORM:
                continue  # another platform's view from a shared manager
            view = view if view.platform else _with_platform(view)
            room_id = room_of_key(view.key)
            if room_id and view.audience is Audience.GROUP and view.chat_id:
                self.rooms[room_id] = view.chat_id
            chat = target_chat(view)
            if not chat:
                log.warning("no chat for view %s", view.key)
                continue
            if not is_durable(view):
                fresh.append(view)
            chats.append(chat)
        if fresh:
            await self.store.enqueue(view_entries(fresh), datetime.now(UTC))
        for chat in dict.fromkeys(chats):
            self.engine.wake(chat)

    async def adopt(self, key: str, message: Message) -> None:
        """A press on ``message`` answered with a view of ``key``: when no
        message is stored for that key (a message of an older version of the
        bot), edit the pressed one."""
        chat = str(message.chat_id)
        if await self.store.sent_message(PLATFORM, chat, key) is None:
            await self.store.put_sent(
                SentRef(PLATFORM, chat, key, str(message.message_id), has_buttons=True)
            )

    async def retire_pressed(self, message: Message, round_now: RoundNow) -> None:
        """A press on group ``message`` was refused as stale: the buttons of
        that message that are themselves of another round go, the others
        stay; a message the outbox keeps current (the live table) is not
        touched. Judged from the message (its stored key and the keyboard
        Telegram says it shows), never from the data pressed."""
        chat, message_id = str(message.chat_id), str(message.message_id)
        if await kept_current(self.store, PLATFORM, chat, message_id, round_now):
            return
        markup = message.reply_markup
        rows = [[_as_payload(b) for b in row] for row in (markup.inline_keyboard if markup else ())]
        kept = await without_stale([row for row in rows if row], round_now)
        if kept is not None:
            await self._set_buttons(message.chat_id, message_id, kept)

    async def key_of(self, message: Message) -> str | None:
        """The view key a message was sent for (None if not known)."""
        return await self.store.sent_key(PLATFORM, str(message.chat_id), str(message.message_id))

    def start(self) -> None:
        self.engine.start()

    async def drain(self) -> None:
        """Wait until everything this process was given has been delivered."""
        await self.engine.drain()

    async def stop(self) -> None:
        await self.engine.stop()

    # ---- private reach --------------------------------------------------------------
    async def user_opened(self, user_id: str) -> int:
        """The user wrote to us in private: deliver what was held for them
        (held in the database: also what another process or an earlier run
        held) and update the group notices. Returns how many views were held."""
        rooms = await self.reach.opened(user_id)
        held = await self.store.release_held(PLATFORM, user_id, datetime.now(UTC))
        if held:
            self.engine.wake(user_id)
        for room_id, chat_id, language in rooms:
            await self._notify_room(room_id, chat_id, language)
        return held

    async def _notify_room(self, room_id: str, chat_id: str, language: str) -> None:
        chat_id = chat_id or self.rooms.get(room_id, "")
        if chat_id and self.bot_username:
            notice = await self.reach.notice(room_id, chat_id, language, self.bot_username)
            await self.submit([notice])

    async def _hold(self, view: View) -> None:
        room_id = await self.reach.hold(view)
        if room_id:
            await self._notify_room(room_id, view.chat_id, view.language)

    # ---- the Transport ----------------------------------------------------------------
    def is_group(self, chat_id: str) -> bool:
        return is_group_chat(chat_id)

    def _chat(self, row: OutboxRow) -> int:
        if not row.chat_id.lstrip("-").isdigit():
            raise Permanent(f"not a Telegram chat id: {row.chat_id!r}", "bad_chat")
        chat = int(row.chat_id)
        return self.migrated.get(chat, chat)

    async def deliver(self, row: OutboxRow) -> SentRef | None:
        view = view_from_payload(row.payload)
        private = view.audience is Audience.PLAYER
        if private and await self.reach.is_unreachable(row.chat_id):
            await self._hold(view)
            raise Hold("the user has not opened the private chat")
        chat_id = self._chat(row)
        picture = view.picture if self.pictures else None
        text = render_caption(view) if picture else render_text(view)
        markup = render_markup(view, self.bot_username)
        seen = picture.fingerprint if picture else None
        shown = _digest(text, markup, seen, photo=picture is not None)
        one_off = is_one_off_key(row.key)
        round_tag = view.meta.get("round")
        known = None if one_off else await self.store.sent_message(PLATFORM, row.chat_id, row.key)
        was_unsure = is_unsure(row)
        uncertain = was_unsure and (known is None or row.fresh)
        if uncertain and view.kind is ViewKind.SETTLEMENT:
            # It may have been posted just before a crash or a lost answer:
            # a second settlement post would be worse than none
            # (docs/delivery.md).
            log.warning(
                "delivery: settlement %s may have been posted already; not repeated", row.key
            )
            return None
        ref = SentRef(
            PLATFORM,
            row.chat_id,
            row.key,
            "",
            shown,
            round_tag,
            markup is not None,
            buttons=row.payload.get("buttons"),
        )
        posting = False
        edit = known is not None and not row.fresh
        if edit and known is not None and round_tag and known.round_tag not in (None, round_tag):
            edit = False  # a new round's hand: a new message, so the player hears it
        if edit and known is not None and row.key.startswith(INFO_NOTICES):
            edit = known.at is not None and datetime.now(UTC) - known.at < INFO_MERGE
        try:
            if edit and known is not None:
                photo = (known.fingerprint or "").startswith(PHOTO)
                if photo and picture is None:
                    # A photo message cannot lose its photo: its caption changes.
                    text = render_caption(view)
                    shown = _digest(text, markup, photo=True)
                if known.fingerprint == shown:
                    return known  # same text and buttons: an edit would be refused anyway
                if await self._edit_any(chat_id, known, photo, picture, text, markup):
                    return _replace_id(
                        dataclasses.replace(ref, fingerprint=shown), known.message_id
                    )
                # Gone (deleted by someone), or a text message that now has a
                # picture (it cannot become a photo): post it again.
            await self.store.mark_sending(row)
            posting = True
            if picture is not None:
                png = await render_async(picture.render, picture.data)
                message = await self._send_photo(chat_id, png, text, markup, picture.filename)
            else:
                message = await self._send(chat_id, text, markup)
        except (Forbidden, BadRequest) as error:
            if private and _unreachable(error):
                await self._hold(view)
                raise Hold(f"the user has not opened the private chat: {error.message}") from error
            raise _classify(error) from error
        except TelegramError as error:
            found = _classify(error)
            if isinstance(found, RetryLater) and (was_unsure or (posting and _maybe_posted(error))):
                found = as_unsure(found)
            raise found from error
        if known is not None and known.has_buttons and known.message_id != str(message.message_id):
            # Last round's hand keeps its Review button (it answers for any round).
            await self._retire(chat_id, known, keep_info=known.key.startswith("hand:"))
        if view.kind is ViewKind.TABLE and round_tag and round_tag.isdigit():
            await self._retire_settlement(chat_id, row, int(round_tag) - 1)
        return None if one_off else _replace_id(ref, str(message.message_id))

    async def _send(self, chat_id: int, text: str, markup: Any) -> Message:
        try:
            return await self._bot.send_message(chat_id=chat_id, text=text, reply_markup=markup)
        except ChatMigrated as moved:
            # Follow the group to its new id, now and for every later view.
            self.migrated[chat_id] = moved.new_chat_id
            return await self._bot.send_message(
                chat_id=moved.new_chat_id, text=text, reply_markup=markup
            )

    async def _send_photo(
        self, chat_id: int, png: bytes, caption: str, markup: Any, filename: str
    ) -> Message:
        async def send(chat: int) -> Message:
            return await self._bot.send_photo(
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

    async def _edit_any(
        self,
        chat_id: int,
        known: SentRef,
        photo: bool,
        picture: Picture | None,
        text: str,
        markup: Any,
    ) -> bool:
        """Edit ``known`` in place the way its kind of message allows; False
        when a new message is needed."""
        message_id = int(known.message_id)
        if photo and picture is not None:
            png = await render_async(picture.render, picture.data)
            # Bytes, not an InputFile: PTB then names the upload as an ``attach://``
            # part, which the Bot API requires inside an InputMedia.
            media = InputMediaPhoto(png, caption=text, filename=picture.filename)
            return await self._edited(
                self._bot.edit_message_media,
                chat_id=chat_id,
                message_id=message_id,
                media=media,
                reply_markup=markup,
            )
        if photo:
            return await self._edited(
                self._bot.edit_message_caption,
                chat_id=chat_id,
                message_id=message_id,
                caption=text,
                reply_markup=markup,
            )
        if picture is not None:
            return False  # a text message cannot become a photo
        return await self._edit(chat_id, known, text, markup)

    async def _edited(self, fn: Callable[..., Awaitable[Any]], **kwargs: Any) -> bool:
        try:
            await fn(**kwargs)
        except ChatMigrated as moved:
            self.migrated[int(kwargs["chat_id"])] = moved.new_chat_id
            return False
        except BadRequest as error:
            if "not modified" in error.message.lower():
                return True
            if _gone(error):
                return False
            raise
        return True

    async def _retire(self, chat_id: int, old: SentRef, *, keep_info: bool = False) -> None:
        """A new message took over: take the buttons off the old one so
        nobody keeps pressing a message that no longer changes (with
        ``keep_info``, the ones that still answer - verify, leaderboard - stay)."""
        kept = still_working(old.buttons) if keep_info else ()
        if keep_info and sum(map(len, kept)) == _button_count(old.buttons):
            return  # every button still answers: an edit would change nothing
        await self._set_buttons(chat_id, old.message_id, kept)

    async def _set_buttons(
        self, chat_id: int, message_id: str, kept: tuple[tuple[Button, ...], ...]
    ) -> None:
        """An old message's keyboard becomes ``kept`` (none: no keyboard)."""
        view = View(ViewKind.NOTICE, Audience.GROUP, "", "", (), buttons=kept)
        markup = render_markup(view, None) if kept else None
        try:
            await self._bot.edit_message_reply_markup(
                chat_id=chat_id, message_id=int(message_id), reply_markup=markup
            )
        except TelegramError:
            log.debug("old message %s already gone or unchanged", message_id)

    async def _retire_settlement(self, chat_id: int, row: OutboxRow, round_no: int) -> None:
        """A new round's table is up: last round's settlement loses its
        "next round" button."""
        room_id = room_of_key(row.key)
        if round_no < 1 or not room_id:
            return
        key = f"settle:{room_id}:{round_no}"
        old = await self.store.sent_message(PLATFORM, row.chat_id, key)
        if old is not None and old.has_buttons:
            await self._retire(chat_id, old, keep_info=True)
            await self.store.put_sent(dataclasses.replace(old, has_buttons=False))

    async def _edit(self, chat_id: int, known: SentRef, text: str, markup: Any) -> bool:
        """Edit in place; False when the message is gone and a new one is needed."""
        try:
            await self._bot.edit_message_text(
                chat_id=chat_id, message_id=int(known.message_id), text=text, reply_markup=markup
            )
        except ChatMigrated as moved:
            self.migrated[chat_id] = moved.new_chat_id
            return False  # the old group's messages are read-only now: post anew
        except BadRequest as error:
            if "not modified" in error.message.lower():
                return True
            if _gone(error):
                return False
            raise
        return True


def _as_payload(button: InlineKeyboardButton) -> dict[str, Any]:
    """A button of a keyboard as Telegram shows it, in payload form."""
    if button.url:
        return {"label": button.text, "url": button.url}
    data = button.callback_data
    if isinstance(data, str) and data != NOOP:
        return {"label": button.text, "action_id": data}
    return {"label": button.text, "disabled": True}


def _button_count(buttons: list[Any] | None) -> int:
    """How many buttons a stored keyboard (payload form) has."""
    view = view_from_payload(
        {"kind": "notice", "audience": "group", "key": "", "buttons": buttons or []}
    )
    return sum(map(len, view.buttons))


def _replace_id(ref: SentRef, message_id: str) -> SentRef:
    return dataclasses.replace(ref, message_id=message_id)


def _with_platform(view: View) -> View:
    return dataclasses.replace(view, platform=PLATFORM)


def _maybe_posted(error: TelegramError) -> bool:
    """Whether a failed send may have reached Telegram: the request went
    out and its answer never came (a read timeout, a dropped connection).
    A connection never made created nothing, and a 5xx is Telegram's own
    answer that it did not handle the call (docs/delivery.md §5)."""
    cause = error.__cause__
    if isinstance(cause, httpx.ConnectError | httpx.ConnectTimeout | httpx.PoolTimeout):
        return False
    return isinstance(error, TimedOut) or isinstance(cause, httpx.TransportError)


def _classify(error: TelegramError) -> RetryLater | Permanent:
    """What a Bot API error means for delivery."""
    if isinstance(error, RetryAfter):
        return RetryLater("429 Too Many Requests", _seconds(error), "rate_limited")
    if isinstance(error, ChatMigrated):
        return RetryLater("group migrated", 0.0, "migrated")
    if isinstance(error, Forbidden):
        return Permanent(f"forbidden: {error.message}", "forbidden")
    if isinstance(error, BadRequest):
        if "chat not found" in error.message.lower():
            return Permanent(error.message, "chat_not_found")
        return Permanent(f"bad request: {error.message}", "bad_request")
    if isinstance(error, NetworkError):  # timeouts, 5xx, connection errors
        return RetryLater(f"network: {error.message}", None, "network")
    return RetryLater(f"{type(error).__name__}: {error.message}", None, "other")
