"""Telegram's side of delivery (the Platform of bot/delivery/platform.py).

How one outbox row becomes a sendMessage or sendPhoto, an editMessageText,
editMessageCaption or editMessageMedia, and what Telegram's errors mean;
whether to skip, edit or post is the outbox's (bot/delivery/outbox.py).
Telegram's own: a private chat the user never opened holds their views
(reach.py) until they write to the bot, a group upgraded to a supergroup is
followed to its new id, and a photo message stays a photo for as long as it
lives.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

from telegram import Bot, InlineKeyboardButton, InputFile, InputMediaPhoto, Message
from telegram.error import BadRequest, ChatMigrated, TelegramError

from bot.delivery import Permanent, RetryLater
from bot.delivery.entries import target_chat
from bot.delivery.outbox import STEADY, Outbox, Pacing, ShownButtons
from bot.delivery.platform import ButtonRows
from bot.delivery.transport import Hold
from bot.pictures import render_async
from bot.platforms.telegram import errors
from bot.platforms.telegram.reach import PrivateReach, room_of_key
from bot.platforms.telegram.render import (
    NOOP,
    fingerprint,
    mention_entities,
    render_caption,
    render_markup,
    render_text,
)
from bot.platforms.telegram.traits import PLATFORM
from bot.views.model import Audience, View, ViewKind
from bot.web.links import PageLinks
from storage.delivery import DeliveryStore, OutboxRow, SentRef

log = logging.getLogger(__name__)
# A stored fingerprint of a photo message starts with this: the message keeps
# its photo (and is edited by media or caption) for as long as it lives.
PHOTO = "p:"


# A photo's fingerprint starts with its picture's own digest, this long: an
# edit that keeps the picture changes the caption only (nothing uploaded).
PICTURE_MARK = 12


def _picture_mark(picture: str | None) -> str:
    return hashlib.sha256((picture or "").encode()).hexdigest()[:PICTURE_MARK]


def _digest(text: str, markup: Any, picture: str | None, *, photo: bool) -> str:
    digest = hashlib.sha256(fingerprint(text, markup, picture).encode()).hexdigest()
    if not photo:
        return digest
    # messages.fingerprint holds 64 characters (PostgreSQL enforces it): the
    # photo's mark and its picture's digest, then the whole message's.
    return (PHOTO + _picture_mark(picture) + digest)[: len(digest)]


def _same_picture(known: SentRef, picture: str) -> bool:
    """Whether the photo message ``known`` shows this picture already."""
    mark = (known.fingerprint or "")[len(PHOTO) : len(PHOTO) + PICTURE_MARK]
    return mark == _picture_mark(picture)


def _is_photo(known: SentRef) -> bool:
    return (known.fingerprint or "").startswith(PHOTO)


class TelegramPlatform:
    """Telegram's side of delivery, with its outbox (``outbox``: what the
    adapter submits views to) and the private chats' reach."""

    name = PLATFORM
    repeat_window: timedelta | None = None  # no way to drop a repeated post
    new_round_new_message = True
    dm_chats = None  # every private view can be sent to the user's chat

    def __init__(self, bot: Bot, store: DeliveryStore, pacing: Pacing = STEADY) -> None:
        self._bot = bot
        self.reach = PrivateReach(store)
        self.bot_username = ""
        self.page_links: PageLinks | None = None  # the arranging page, where it is on
        self.rooms: dict[str, str] = {}  # room id -> group chat id
        # A group upgraded to a supergroup changes its id; the room keeps the old one.
        self.migrated: dict[int, int] = {}
        self.outbox = Outbox(store, self, pacing)

    # ---- private reach ----------------------------------------------------------------
    async def user_opened(self, user_id: str) -> int:
        """The user wrote to us in private: deliver what was held for them
        (held in the database: also what another process or an earlier run
        held) and update the group notices. Returns how many views were held."""
        rooms = await self.reach.opened(user_id)
        held = await self.outbox.release(user_id)
        for room_id, chat_id, language in rooms:
            await self._notify_room(room_id, chat_id, language)
        return held

    async def _notify_room(self, room_id: str, chat_id: str, language: str) -> None:
        chat_id = chat_id or self.rooms.get(room_id, "")
        if chat_id and self.bot_username:
            notice = await self.reach.notice(room_id, chat_id, language, self.bot_username)
            await self.outbox.submit([notice])

    async def _hold(self, view: View, why: str) -> Hold:
        room_id = await self.reach.hold(view)
        if room_id:
            await self._notify_room(room_id, view.chat_id, view.language)
        return Hold(f"the user has not opened the private chat{why}")

    # ---- the Platform -----------------------------------------------------------------
    def is_group(self, chat_id: str) -> bool:
        return chat_id.startswith("-")

    def chat_of(self, view: View) -> str | None:
        room_id = room_of_key(view.key)
        if room_id and view.audience is Audience.GROUP and view.chat_id:
            self.rooms[room_id] = view.chat_id
        chat = target_chat(view)
        if not chat:
            log.warning("no chat for view %s", view.key)
        return chat or None

    def _chat(self, chat_id: str) -> int:
        if not chat_id.lstrip("-").isdigit():
            raise Permanent(f"not a Telegram chat id: {chat_id!r}", "bad_chat")
        chat = int(chat_id)
        return self.migrated.get(chat, chat)

    async def check(self, row: OutboxRow, view: View) -> None:
        if view.audience is Audience.PLAYER and await self.reach.is_unreachable(row.chat_id):
            raise await self._hold(view, "")
        self._chat(row.chat_id)

    def fingerprint(self, view: View, known: SentRef | None) -> str:
        picture = view.picture
        # A message stays what it was posted as: a photo cannot lose its
        # photo (without a picture its caption changes), a text message
        # cannot get one (a picture turned on later: its text changes).
        photo = _is_photo(known) if known is not None else picture is not None
        text = render_caption(view) if photo else render_text(view)
        seen = picture.fingerprint if picture and photo else None
        return _digest(
            text, render_markup(view, self.bot_username, self.page_links), seen, photo=photo
        )

    async def edit(self, row: OutboxRow, view: View, known: SentRef) -> bool:
        where = {"chat_id": self._chat(row.chat_id), "message_id": int(known.message_id)}
        markup = render_markup(view, self.bot_username, self.page_links)
        picture = view.picture
        if not _is_photo(known):
            text = render_text(view)  # a text message stays text (fingerprint)
            return await self._edited(
                self._bot.edit_message_text,
                text=text,
                reply_markup=markup,
                entities=mention_entities(view, text),
                **where,
            )
        caption = render_caption(view)
        if picture is None or _same_picture(known, picture.fingerprint):
            return await self._edited(
                self._bot.edit_message_caption, caption=caption, reply_markup=markup, **where
            )
        png = await render_async(picture.render, picture.data)
        # Bytes, not an InputFile: PTB then names the upload as an ``attach://``
        # part, which the Bot API requires inside an InputMedia.
        media = InputMediaPhoto(png, caption=caption, filename=picture.filename)
        return await self._edited(
            self._bot.edit_message_media, media=media, reply_markup=markup, **where
        )

    async def _edited(self, fn: Callable[..., Awaitable[Any]], **kwargs: Any) -> bool:
        """Make the edit; False when a new message is needed."""
        try:
            await fn(**kwargs)
        except ChatMigrated as moved:
            # The old group's messages are read-only now: post anew, at the new id.
            self.migrated[int(kwargs["chat_id"])] = moved.new_chat_id
            return False
        except BadRequest as error:
            if errors.not_modified(error):
                return True
            if errors.gone(error):
                return False
            raise
        return True

    async def post(self, row: OutboxRow, view: View) -> str:
        chat_id = self._chat(row.chat_id)
        markup = render_markup(view, self.bot_username, self.page_links)
        picture = view.picture
        png = None if picture is None else await render_async(picture.render, picture.data)

        async def send(chat: int) -> Message:
            if picture is None or png is None:
                text = render_text(view)
                return await self._bot.send_message(
                    chat_id=chat,
                    text=text,
                    reply_markup=markup,
                    entities=mention_entities(view, text),
                )
            return await self._bot.send_photo(
                chat_id=chat,
                photo=InputFile(png, filename=picture.filename),
                caption=render_caption(view),
                reply_markup=markup,
            )

        try:
            message = await send(chat_id)
        except ChatMigrated as moved:
            # Follow the group to its new id, now and for every later view.
            self.migrated[chat_id] = moved.new_chat_id
            message = await send(moved.new_chat_id)
        return str(message.message_id)

    async def strip_buttons(self, chat_id: str, message_id: str, keep: ButtonRows) -> None:
        view = View(ViewKind.NOTICE, Audience.GROUP, "", "", (), buttons=keep)
        markup = render_markup(view, None) if keep else None
        try:
            await self._bot.edit_message_reply_markup(
                chat_id=self._chat(chat_id), message_id=int(message_id), reply_markup=markup
            )
        except TelegramError:
            log.debug("old message %s already gone or unchanged", message_id)

    async def classify(
        self, error: Exception, row: OutboxRow, view: View
    ) -> RetryLater | Permanent | Hold | None:
        if not isinstance(error, TelegramError):
            return None
        if view.audience is Audience.PLAYER and errors.unreachable(error):
            return await self._hold(view, f": {error.message}")
        return errors.classify(error)

    def maybe_posted(self, error: Exception) -> bool:
        return errors.maybe_posted(error)

    def own_button(self, action_id: str) -> tuple[str, int] | None:
        return None  # every button of ours carries an action id


def buttons_shown(message: Message) -> ShownButtons:
    """The buttons of a pressed message as Telegram says it shows them."""

    async def read() -> list[list[dict[str, Any]]]:
        markup = message.reply_markup
        return [[_as_payload(b) for b in row] for row in (markup.inline_keyboard if markup else ())]

    return read


def _as_payload(button: InlineKeyboardButton) -> dict[str, Any]:
    """A button of a keyboard as Telegram shows it, in payload form."""
    if button.url:
        return {"label": button.text, "url": button.url}
    data = button.callback_data
    if isinstance(data, str) and data != NOOP:
        return {"label": button.text, "action_id": data}
    return {"label": button.text, "disabled": True}
