"""Discord's side of delivery (the Platform of bot/delivery/platform.py).

The room's table, showdown, settlement and 大结算 posts, its notices and
reminders and the information posts (rules, help, leaderboard) go through
the outbox, and so do the hands of players who chose "my hand by DM" (the
lane of the chat ``dm:<user>``, dms.py). Whether a row is skipped, edited or
posted is the outbox's (bot/delivery/outbox.py); here is how one becomes a
``channel.send`` or a ``message.edit``: posts carry a nonce (posting.py),
pictures go as text where the bot may not attach files (attach.py).
Ephemeral views are not here: an ephemeral message exists only as the
answer to the player's own interaction (adapter.py, private.py).
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Callable, Iterable, Sequence
from datetime import timedelta
from typing import Any

import discord

from bot.delivery import Permanent, RetryLater
from bot.delivery.outbox import STEADY, Outbox, Pacing, ShownButtons
from bot.delivery.platform import ButtonRows, PrivateChats
from bot.delivery.transport import Hold
from bot.views.model import Audience, ButtonStyle, View
from bot.web.links import PageLinks
from storage.delivery import DeliveryStore, OutboxRow, SentRef, Shards

from .attach import AttachGuard
from .dms import dm_message, dm_user, edit_dm, is_dm, post_dm
from .items import HAND_DM_TEMPLATE, HandDmButton
from .posting import ERRORS, NONCE_WINDOW, classify, discord_limits, fingerprint, nonce_of
from .posting import maybe_posted as _maybe_posted
from .refs import DM_CLOSED, HAND_DM, MessageRef, dm_chat
from .render import make_item, with_page
from .turn import PLATFORM

log = logging.getLogger(__name__)


class DiscordPlatform:
    """Discord's side of delivery, with its outbox (``outbox``: what the
    adapter submits the channel's views to) and the players' DMs."""

    name = PLATFORM
    # Discord drops a repeated post by its nonce within this (posting.py).
    repeat_window: timedelta | None = NONCE_WINDOW
    new_round_new_message = False

    def __init__(
        self,
        client: Callable[[], discord.Client | None],
        store: DeliveryStore,
        pacing: Pacing = STEADY,
    ) -> None:
        self._client = client
        self.store = store
        self.page_links: PageLinks | None = None  # the arranging page, where it is on
        self._routed: set[str] = set()  # channels whose guild this process recorded
        if pacing.limits is None:
            pacing = dataclasses.replace(pacing, limits=discord_limits())
        self.outbox = Outbox(store, self, pacing)
        # Pictures where the bot may attach files; text only elsewhere (attach.py).
        self.attach = AttachGuard(client, store, self.outbox)

    def shard(self, count: int, ids: Sequence[int] | None) -> None:
        """This process serves shards ``ids`` of ``count`` (None: all): its
        poller takes up the rows of its own guilds' channels, selected in
        the database by the guild stored with each row (no gateway cache
        needed, so from the first look after connecting), and - on the
        process with shard 0, the one Discord sends DMs to - the rows with
        no guild (DMs)."""
        shard_ids = tuple(range(count)) if ids is None else tuple(sorted(ids))
        self.outbox.engine.shards = Shards(count, shard_ids, unrouted=0 in shard_ids)

    async def route(self, channel_id: int | None, guild_id: int | None) -> None:
        """Record which guild a channel belongs to, once per channel and
        process, before the interaction's action is handled: every outbox row
        written for the channel from then on (by any process) carries the
        guild, and the shard of that guild delivers it."""
        if channel_id is None or guild_id is None or str(channel_id) in self._routed:
            return
        await self.store.set_route(PLATFORM, str(channel_id), guild_id)
        self._routed.add(str(channel_id))

    # ---- DMs --------------------------------------------------------------------------
    async def wants_dm(self, user_id: str) -> bool:
        return await self.store.get_pref(PLATFORM, user_id, HAND_DM) == "1"

    @property
    def dm_chats(self) -> PrivateChats:
        """Private views go out unprompted only to the players who take their
        hand by DM (the others' are ephemerals of their own interactions)."""
        return self._dm_chats

    async def _dm_chats(self, user_ids: Sequence[str]) -> dict[str, str]:
        return {u: dm_chat(u) for u in user_ids if await self.wants_dm(u)}

    async def submit_dm(self, views: Iterable[View]) -> list[str]:
        """Deliver private ``views`` to their players' DMs (written to the
        outbox, in the lane of each player's DM chat); those chats."""
        return await self.outbox.send(
            (view, dm_chat(view.user_id)) for view in views if view.user_id is not None
        )

    async def dm_now(self, view: View, timeout: float = 5.0) -> bool:
        """Send ``view`` to its player's DMs and wait (at most ``timeout``
        s) for the answer: False when Discord refused it (DMs closed)."""
        for chat in await self.submit_dm([view]):
            await self.outbox.engine.settle(chat, timeout)
        assert view.user_id is not None
        return await self.store.get_pref(PLATFORM, view.user_id, HAND_DM) != DM_CLOSED

    async def adopt_dm(self, user_id: str, key: str, message: discord.Message) -> None:
        """As ``Outbox.adopt``, for a press on a DM message."""
        stored = MessageRef(message.channel.id, message.id).stored()
        await self.outbox.adopt(key, dm_chat(user_id), stored)

    # ---- the Platform -----------------------------------------------------------------
    def is_group(self, chat_id: str) -> bool:
        return not is_dm(chat_id)  # a channel, or a player's DMs

    def chat_of(self, view: View) -> str | None:
        """Group views only: a player's view is the adapter's (an ephemeral,
        or ``submit_dm``)."""
        return view.chat_id if view.audience is Audience.GROUP and view.chat_id else None

    def _ready(self) -> discord.Client:
        client = self._client()
        if client is None:
            raise RetryLater("the Discord client is not ready", None, "not_ready")
        return client

    def _channel(self, chat_id: str) -> discord.PartialMessageable:
        return self._ready().get_partial_messageable(int(chat_id))

    async def check(self, row: OutboxRow, view: View) -> None:
        self._ready()
        if is_dm(row.chat_id):
            if not dm_user(row.chat_id).isdigit():
                raise Permanent(f"not a Discord user id: {dm_user(row.chat_id)!r}", "bad_chat")
        elif not row.chat_id.isdigit():
            raise Permanent(f"not a Discord channel id: {row.chat_id!r}", "bad_chat")

    def fingerprint(self, view: View, known: SentRef | None) -> str:
        return fingerprint(view)

    async def edit(self, row: OutboxRow, view: View, known: SentRef) -> bool:
        if is_dm(row.chat_id):
            return await edit_dm(self._ready(), known, with_page(view, self.page_links))
        old = self._channel(row.chat_id).get_partial_message(int(known.message_id))
        try:
            await self.attach.shown(row.chat_id, view, lambda r: old.edit(**r.kwargs()))
        except discord.NotFound:
            return False
        return True

    async def post(self, row: OutboxRow, view: View) -> str:
        if is_dm(row.chat_id):
            return await post_dm(self._ready(), row, with_page(view, self.page_links))
        channel = self._channel(row.chat_id)
        # discord.py sends enforce_nonce=True with every nonce.
        nonce = nonce_of(row)
        message = await self.attach.shown(
            row.chat_id, view, lambda r: channel.send(**r.send_kwargs(), nonce=nonce)
        )
        return str(message.id)

    async def strip_buttons(self, chat_id: str, message_id: str, keep: ButtonRows) -> None:
        client = self._client()
        if client is None:
            return
        if is_dm(chat_id):
            message = dm_message(client, message_id)
        else:
            channel = client.get_partial_messageable(int(chat_id))
            message = channel.get_partial_message(int(message_id))
        if message is None:
            return
        components = discord.ui.View(timeout=None)
        for row_no, row in enumerate(keep):
            for button in row:
                dm = _hand_dm(button.action_id or "")
                if dm is not None:
                    components.add_item(HandDmButton.build(*dm, label=button.label, row=row_no))
                elif (item := make_item(button, row_no)) is not None:
                    components.add_item(item)
        try:
            await message.edit(view=components if components.children else None)
        except discord.HTTPException:
            log.info("old message %s already gone or not editable", message_id)

    async def classify(
        self, error: Exception, row: OutboxRow, view: View
    ) -> RetryLater | Permanent | Hold | None:
        if is_dm(row.chat_id) and isinstance(error, discord.Forbidden):
            # The player's DMs are closed to the bot: "hand by DM" goes off,
            # and they are told privately at their next turn (private.py).
            await self.store.set_pref(PLATFORM, dm_user(row.chat_id), HAND_DM, DM_CLOSED)
            return Permanent(f"DMs closed: {error.text}", "dm_closed")
        return classify(error) if isinstance(error, ERRORS) else None

    def maybe_posted(self, error: Exception) -> bool:
        return _maybe_posted(error)

    def own_button(self, action_id: str) -> tuple[str, int] | None:
        return _hand_dm(action_id)

    def buttons_shown(self, message: discord.Message) -> ShownButtons:
        """The buttons of a pressed channel message as Discord has them (one
        fetch: what an interaction says the message showed is not taken on
        trust)."""

        async def read() -> list[list[dict[str, Any]]] | None:
            client = self._client()
            if client is None:
                return None
            channel = client.get_partial_messageable(message.channel.id)
            try:
                shown = await channel.fetch_message(message.id)
            except discord.HTTPException:
                log.info("pressed message %s not readable; left as it is", message.id)
                return None
            return [
                [p for b in getattr(row, "children", ()) if (p := _as_payload(b)) is not None]
                for row in shown.components
            ]

        return read


_HAND_DM = re.compile(HAND_DM_TEMPLATE)
_OUR_STYLES = {style.value: style for style in ButtonStyle}


def _hand_dm(custom_id: str) -> tuple[str, int] | None:
    """The room and round of a "my hand by DM" button."""
    match = _HAND_DM.fullmatch(custom_id)
    return (match["room"], int(match["round"])) if match else None


def _as_payload(component: Any) -> dict[str, Any] | None:
    """A button of a message as Discord has it, in payload form (the custom
    id of "my hand by DM" kept as it is)."""
    if not isinstance(component, discord.Button):
        return None
    label = component.label or ""
    if component.url:
        return {"label": label, "url": component.url}
    if not component.custom_id:
        return None
    style = _OUR_STYLES.get(component.style.name, ButtonStyle.SECONDARY)
    return {
        "label": label,
        "action_id": component.custom_id,
        "style": style.value,
        "disabled": component.disabled,
    }
