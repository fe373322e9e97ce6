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

import logging
import re
from collections.abc import Callable, Sequence
from typing import Any

import discord

from bot.delivery import Permanent, RetryLater
from bot.delivery.outbox import ShownButtons
from bot.delivery.platform import ButtonRows, DeliveryTraits, Prepared
from bot.delivery.transport import Hold
from bot.views.model import Audience, ButtonStyle, View
from bot.web.links import PageLinks
from storage.delivery import DeliveryStore, OutboxRow, SentRef

from .attach import AttachGuard
from .dms import dm_message, dm_user, edit_dm, is_dm, post_dm
from .items import HAND_DM_TEMPLATE, HandDmButton
from .posting import ERRORS, NONCE_WINDOW, classify, fingerprint, nonce_of
from .posting import maybe_posted as _maybe_posted
from .refs import DM_CLOSED, HAND_DM, dm_chat
from .render import make_item, with_page
from .turn import PLATFORM

log = logging.getLogger(__name__)


DiscordPrepared = Prepared[View]


class DiscordPlatform:
    """Discord's side of delivery (the outbox built over it is the
    adapter's): channels and the players' DMs. What a row shows is its view
    (the fingerprint is of the view); it becomes an embed with its picture
    at the call, once, where the bot may attach files (attach.py)."""

    def __init__(
        self,
        client: Callable[[], discord.Client | None],
        store: DeliveryStore,
        page_links: PageLinks | None = None,
    ) -> None:
        self._client = client
        self.store = store
        self.page_links = page_links  # the arranging page, where it is on
        self._routed: set[str] = set()  # channels whose guild this process recorded
        # Pictures where the bot may attach files; text only elsewhere (attach.py).
        self.attach = AttachGuard(client, store)
        self.traits = DeliveryTraits(
            PLATFORM,
            # Discord drops a repeated post by its nonce within this (posting.py).
            repeat_window=NONCE_WINDOW,
            new_round_new_message=False,
            # Private views go out unprompted only to the players who take
            # their hand by DM (the others' are ephemerals of their own
            # interactions).
            dm_chats=self._dm_chats,
        )

    async def route(self, channel_id: int | None, guild_id: int | None) -> None:
        """Record which guild a channel belongs to, once per channel and
        process, before the interaction's action is handled: every outbox row
        written for the channel from then on (by any process) carries the
        guild, and the shard of that guild delivers it."""
        if channel_id is None or guild_id is None or str(channel_id) in self._routed:
            return
        await self.store.set_route(PLATFORM, str(channel_id), guild_id)
        self._routed.add(str(channel_id))

    async def _dm_chats(self, user_ids: Sequence[str]) -> dict[str, str]:
        return {
            u: dm_chat(u)
            for u in user_ids
            if await self.store.get_pref(PLATFORM, u, HAND_DM) == "1"
        }

    # ---- the Platform -----------------------------------------------------------------
    def is_group(self, chat_id: str) -> bool:
        return not is_dm(chat_id)  # a channel, or a player's DMs

    def chat_of(self, view: View) -> str | None:
        """Group views only: a player's view is the adapter's (an ephemeral,
        or its DMs)."""
        return view.chat_id if view.audience is Audience.GROUP and view.chat_id else None

    def _ready(self) -> discord.Client:
        client = self._client()
        if client is None:
            raise RetryLater("the Discord client is not ready", None, "not_ready")
        return client

    def _channel(self, chat_id: str) -> discord.PartialMessageable:
        return self._ready().get_partial_messageable(int(chat_id))

    async def prepare(self, row: OutboxRow, view: View, known: SentRef | None) -> DiscordPrepared:
        self._ready()
        if is_dm(row.chat_id):
            if not dm_user(row.chat_id).isdigit():
                raise Permanent(f"not a Discord user id: {dm_user(row.chat_id)!r}", "bad_chat")
            return Prepared(view, with_page(view, self.page_links), fingerprint(view))
        if not row.chat_id.isdigit():
            raise Permanent(f"not a Discord channel id: {row.chat_id!r}", "bad_chat")
        return Prepared(view, view, fingerprint(view))

    async def edit(self, row: OutboxRow, prepared: DiscordPrepared, known: SentRef) -> bool:
        if is_dm(row.chat_id):
            return await edit_dm(self._ready(), known, prepared.markup)
        old = self._channel(row.chat_id).get_partial_message(int(known.message_id))
        try:
            await self.attach.shown(row.chat_id, prepared, lambda r: old.edit(**r.kwargs()))
        except discord.NotFound:
            return False
        return True

    async def post(self, row: OutboxRow, prepared: DiscordPrepared) -> str:
        if is_dm(row.chat_id):
            return await post_dm(self._ready(), row, prepared.markup)
        channel = self._channel(row.chat_id)
        # discord.py sends enforce_nonce=True with every nonce.
        nonce = nonce_of(row)
        message = await self.attach.shown(
            row.chat_id, prepared, lambda r: channel.send(**r.send_kwargs(), nonce=nonce)
        )
        return str(message.id)

    async def strip(self, chat_id: str, message_id: str, keep: ButtonRows) -> None:
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
