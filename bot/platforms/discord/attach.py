"""Card pictures in a channel where the bot may not attach files.

The showdown, the settlement and the table during the showdown carry a PNG
attachment; Discord refuses such a post or edit (403, code 50013 Missing
Permissions) when the bot's role lacks **Attach Files** in the channel,
although it may send the same message without the file. There the bot
posts text only (the same embed without its image) instead of losing the
post, and says so once in the channel, in the room's language, naming the
permission (docs/discord.md).

Whether the bot may attach is read from the gateway's cache of the channel
(the ``guilds`` intent keeps its roles and overwrites current, so a
permission given back counts at once) when it has the channel; else - a
shard process that has not seen the guild yet - a refused attachment is
what tells, and the channel then gets text for ``RECHECK_SECONDS`` before a
picture is tried again. The notice is said
once per channel: a pref of the channel (``channel:<id>``,
``attach_notice``) remembers it across restarts and processes.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

import discord

from bot.delivery.platform import Prepared
from bot.i18n import t
from bot.views.model import Audience, View, ViewKind
from storage.delivery import DeliveryStore

from .render import Rendered, prepare, render
from .turn import PLATFORM

log = logging.getLogger(__name__)
T = TypeVar("T")

MISSING_PERMISSIONS = 50013  # Discord's error code of a 403 for a missing permission
RECHECK_SECONDS = 600.0
NOTICE_KEY = "perm:attach"
TOLD = "attach_notice"


def channel_pref(chat_id: str) -> str:
    """The prefs' user id under which a channel's own prefs are kept."""
    return f"channel:{chat_id}"


class AttachGuard:
    """Which channels get pictures, the text-only retry, the notice."""

    def __init__(
        self,
        client: Callable[[], discord.Client | None],
        store: DeliveryStore,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self._client = client
        self._store = store
        self._now = now
        self._refused: dict[str, float] = {}  # channel -> when an attachment was refused
        self._told: set[str] = set()

    def cached(self, chat_id: str) -> bool | None:
        """Whether the gateway's cache says the bot may attach files in the
        channel; None when the cache does not have the channel."""
        client = self._client()
        if client is None or not chat_id.isdigit():
            return None
        channel = client.get_channel(int(chat_id))
        if not isinstance(channel, discord.abc.GuildChannel | discord.Thread):
            return None
        me = channel.guild.me
        if me is None:
            return None
        return channel.permissions_for(me).attach_files

    def allowed(self, chat_id: str) -> bool:
        cached = self.cached(chat_id)
        if cached is not None:
            return cached
        when = self._refused.get(chat_id)
        return when is None or self._now() - when >= RECHECK_SECONDS

    async def shown(
        self, chat_id: str, prepared: Prepared[View], call: Callable[[Rendered], Awaitable[T]]
    ) -> T:
        """``call`` with the view rendered with its picture where the bot
        may attach files, else (or when Discord refuses the attachment)
        text only, the channel told once (a notice the outbox writes:
        ``prepared.notices``)."""
        view = prepared.markup
        if view.picture is None:
            return await call(await prepare(view))
        if self.allowed(chat_id):
            rendered = await prepare(view)
            try:
                return await call(rendered)
            except discord.Forbidden as error:
                if rendered.png is None or error.code != MISSING_PERMISSIONS:
                    raise
                self._refused[chat_id] = self._now()
                log.info("channel %s refused a picture (Attach Files): text only", chat_id)
        result = await call(render(view))
        notice = await self._tell(chat_id, view.language)
        if notice is not None:
            prepared.notices.append(notice)
        return result

    async def _tell(self, chat_id: str, language: str) -> View | None:
        """The notice to say, once per channel (None: said already)."""
        if chat_id in self._told:
            return None
        self._told.add(chat_id)
        if await self._store.get_pref(PLATFORM, channel_pref(chat_id), TOLD) is not None:
            return None
        await self._store.set_pref(PLATFORM, channel_pref(chat_id), TOLD, "said")
        return View(
            ViewKind.NOTICE,
            Audience.GROUP,
            NOTICE_KEY,
            "",
            (t(language, "dc.notice.no_attach"),),
            platform=PLATFORM,
            chat_id=chat_id,
            language=language,
        )
