"""Delivery of group Views to Discord over the durable outbox (docs/delivery.md).

The room's table, settlement and 大结算 posts, its notices and reminders and
the information posts (rules, help, leaderboard) are written to the outbox
(by the table manager with the state change, or by the adapter for
read-only actions) and sent by a per-channel lane of the DeliveryEngine:
posted once, then edited in place under the message id stored in the
database, so a restarted process or another shard's process edits the same
message. This module is the Discord Transport: how one row becomes a
``channel.send`` or a ``message.edit`` (posting.py: nonces and what
Discord's errors mean).

A player's hand sent by DM (the "hand by DM" choice) goes the same way,
in the lane of the chat ``dm:<user>`` (dms.py): posted once, edited by its
stored id. Ephemeral views are not here: an ephemeral message exists only as the
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

from bot.delivery import DeliveryEngine, Limits, Permanent, RetryLater, view_entries
from bot.delivery.engine import DEFAULT_RETENTION
from bot.delivery.entries import INFO_NOTICES, is_durable, is_one_off_key
from bot.delivery.payload import view_from_payload
from bot.delivery.transport import is_unsure
from bot.platforms.superseded import (
    RoundNow,
    kept_current,
    room_of,
    still_working,
    without_stale,
)
from bot.views.model import Audience, Button, ButtonStyle, View, ViewKind
from storage.delivery import DeliveryStore, OutboxRow, SentRef, Shards

from .attach import AttachGuard
from .dms import deliver_dm
from .items import HAND_DM_TEMPLATE, HandDmButton
from .posting import (
    NETWORK_ERRORS,
    NONCE_WINDOW,
    discord_limits,
    fingerprint,
    first_handed,
    nonce_of,
    sent_ref,
    verdict,
)
from .refs import DM_CLOSED, DM_PREFIX, HAND_DM, MessageRef, dm_chat
from .render import make_components, make_item
from .turn import PLATFORM

log = logging.getLogger(__name__)
# An information post (rules, help, leaderboard) asked again within this
# time edits the one posted before instead of posting another.
INFO_MERGE = timedelta(minutes=10)


class DiscordOutbox:
    """The Discord side of group delivery: the adapter's entry point
    (submit, adopt, key_of) and the engine's Transport (deliver)."""

    platform = PLATFORM

    def __init__(
        self,
        client: Callable[[], discord.Client | None],
        store: DeliveryStore,
        *,
        limits: Limits | None = None,
        poll_seconds: float = 1.0,
        retention: timedelta | None = DEFAULT_RETENTION,
    ) -> None:
        self._client = client
        self.store = store
        self._routed: set[str] = set()  # channels whose guild this process recorded
        self.engine = DeliveryEngine(
            store,
            self,
            limits=limits or discord_limits(),
            poll_seconds=poll_seconds,
            exclusive=not getattr(store, "shared", False),
            retention=retention,
        )
        # Pictures where the bot may attach files; text only elsewhere (attach.py).
        self.attach = AttachGuard(client, store, self.engine)

    def shard(self, count: int, ids: Sequence[int] | None) -> None:
        """This process serves shards ``ids`` of ``count`` (None: all): its
        poller takes up the rows of its own guilds' channels, selected in
        the database by the guild stored with each row (no gateway cache
        needed, so from the first look after connecting), and - on the
        process with shard 0, the one Discord sends DMs to - the rows with
        no guild (DMs)."""
        shard_ids = tuple(range(count)) if ids is None else tuple(sorted(ids))
        self.engine.shards = Shards(count, shard_ids, unrouted=0 in shard_ids)

    # ---- what the adapter calls -------------------------------------------------------
    async def submit(self, views: Iterable[View]) -> None:
        """Deliver group ``views``: those written with their state change
        already only wake their channels' lanes; the others are written first."""
        chats: list[str] = []
        fresh: list[View] = []
        for view in views:
            if view.platform and view.platform != PLATFORM:
                continue
            if view.audience is not Audience.GROUP or not view.chat_id:
                continue
            if not view.platform:
                view = dataclasses.replace(view, platform=PLATFORM)
            if not is_durable(view):
                fresh.append(view)
            chats.append(view.chat_id)
        if fresh:
            await self.store.enqueue(view_entries(fresh), self.engine.now())
        for chat in dict.fromkeys(chats):
            self.engine.wake(chat)

    async def submit_dm(self, views: Iterable[View]) -> list[str]:
        """Deliver private ``views`` to their players' DMs (written to the
        outbox, in the lane of each player's DM chat); those chats."""
        entries = []
        for view in views:
            user_id = view.user_id
            if user_id is None:
                continue
            view = dataclasses.replace(view, platform=PLATFORM)
            for entry in view_entries([view]):
                entries.append(dataclasses.replace(entry, chat_id=dm_chat(user_id)))
        if entries:
            await self.store.enqueue(entries, self.engine.now())
        chats = list(dict.fromkeys(e.chat_id for e in entries))
        for chat in chats:
            self.engine.wake(chat)
        return chats

    async def dm_now(self, view: View, timeout: float = 5.0) -> bool:
        """Send ``view`` to its player's DMs and wait (at most ``timeout``
        s) for the answer: False when Discord refused it (DMs closed)."""
        for chat in await self.submit_dm([view]):
            await self.engine.settle(chat, timeout)
        assert view.user_id is not None
        return await self.store.get_pref(PLATFORM, view.user_id, HAND_DM) != DM_CLOSED

    async def adopt(self, key: str, message: discord.Message | discord.PartialMessage) -> None:
        """A press on ``message`` is answered with a view of ``key``: when no
        message is stored for that key (one sent by an older version of the
        bot), that view edits the pressed message."""
        chat = str(message.channel.id)
        if await self.store.sent_message(PLATFORM, chat, key) is None:
            await self.store.put_sent(
                SentRef(PLATFORM, chat, key, str(message.id), has_buttons=True)
            )

    async def adopt_dm(self, user_id: str, key: str, message: discord.Message) -> None:
        """As ``adopt``, for a press on a DM message."""
        chat = dm_chat(user_id)
        if await self.store.sent_message(PLATFORM, chat, key) is None:
            stored = MessageRef(message.channel.id, message.id).stored()
            await self.store.put_sent(SentRef(PLATFORM, chat, key, stored, has_buttons=True))

    async def retire_pressed(self, message: discord.Message, round_now: RoundNow) -> None:
        """A press on channel ``message`` was refused as stale: the buttons of
        that message that are themselves of another round go, the others
        stay; a message the outbox keeps current (the live table) is not
        touched. Judged from the message (its stored key, and its buttons as
        Discord has them: what an interaction says the message showed is not
        taken on trust), never from the data pressed."""
        client = self._client()
        chat, message_id = str(message.channel.id), str(message.id)
        if client is None or await kept_current(self.store, PLATFORM, chat, message_id, round_now):
            return
        channel = client.get_partial_messageable(message.channel.id)
        try:
            shown = await channel.fetch_message(message.id)
        except discord.HTTPException:
            log.info("pressed message %s not readable; left as it is", message.id)
            return
        rows = [
            [p for b in getattr(row, "children", ()) if (p := _as_payload(b)) is not None]
            for row in shown.components
        ]
        kept = await without_stale([row for row in rows if row], round_now, also=_hand_dm)
        if kept is not None:
            await self._set_buttons(channel, message_id, kept)

    async def key_of(self, message: discord.Message) -> str | None:
        """The view key a group message was sent for (None if not known)."""
        return await self.store.sent_key(PLATFORM, str(message.channel.id), str(message.id))

    def start(self) -> None:
        self.engine.start()

    async def drain(self) -> None:
        await self.engine.drain()

    async def stop(self) -> None:
        await self.engine.stop()

    # ---- the Transport ----------------------------------------------------------------
    def is_group(self, chat_id: str) -> bool:
        return not chat_id.startswith(DM_PREFIX)  # a channel, or a player's DMs

    async def route(self, channel_id: int | None, guild_id: int | None) -> None:
        """Record which guild a channel belongs to, once per channel and
        process, before the interaction's action is handled: every outbox row
        written for the channel from then on (by any process) carries the
        guild, and the shard of that guild delivers it."""
        if channel_id is None or guild_id is None or str(channel_id) in self._routed:
            return
        await self.store.set_route(PLATFORM, str(channel_id), guild_id)
        self._routed.add(str(channel_id))

    def _channel(self, row: OutboxRow) -> discord.PartialMessageable:
        client = self._client()
        if client is None:
            raise RetryLater("the Discord client is not ready", None, "not_ready")
        if not row.chat_id.isdigit():
            raise Permanent(f"not a Discord channel id: {row.chat_id!r}", "bad_chat")
        return client.get_partial_messageable(int(row.chat_id))

    async def deliver(self, row: OutboxRow) -> SentRef | None:
        view = view_from_payload(row.payload)
        if row.chat_id.startswith(DM_PREFIX):
            return await deliver_dm(self._client(), self.store, row, view)
        channel = self._channel(row)
        one_off = is_one_off_key(row.key)
        known = None if one_off else await self.store.sent_message(PLATFORM, row.chat_id, row.key)
        unsure = is_unsure(row)
        uncertain = unsure and (known is None or row.fresh)
        if (
            uncertain
            and view.kind is ViewKind.SETTLEMENT
            and self.engine.now() - first_handed(row) > NONCE_WINDOW
        ):
            # Posted perhaps, too long ago for Discord's nonce check to drop a
            # repeat: a second settlement post would be worse than none.
            log.warning(
                "delivery: settlement %s may have been posted already; not repeated", row.key
            )
            return None
        shown = fingerprint(view)
        ref = sent_ref(row, view, shown)
        posting = False
        edit = known is not None and not row.fresh
        if edit and known is not None and row.key.startswith(INFO_NOTICES):
            edit = known.at is not None and self.engine.now() - known.at < INFO_MERGE
        try:
            if edit and known is not None:
                if known.fingerprint == shown:
                    return known  # it shows this already
                old = channel.get_partial_message(int(known.message_id))
                try:
                    await self.attach.shown(row.chat_id, view, lambda r: old.edit(**r.kwargs()))
                    return dataclasses.replace(ref, message_id=known.message_id)
                except discord.NotFound:
                    log.info("message of %s is gone; posting it again", row.key)
            await self.store.mark_sending(row)
            posting = True
            # discord.py sends enforce_nonce=True with every nonce.
            nonce = nonce_of(row)
            message = await self.attach.shown(
                row.chat_id, view, lambda r: channel.send(**r.send_kwargs(), nonce=nonce)
            )
        except (discord.HTTPException, discord.RateLimited, *NETWORK_ERRORS) as error:
            raise verdict(error, unsure=unsure, posting=posting) from error
        if known is not None and known.has_buttons and known.message_id != str(message.id):
            await self._retire(channel, known)
        round_tag = view.meta.get("round")
        if view.kind is ViewKind.TABLE and round_tag and round_tag.isdigit():
            await self._retire_settlement(channel, row, int(round_tag) - 1)
        if one_off:
            return None
        return dataclasses.replace(ref, message_id=str(message.id))

    async def _retire(
        self, channel: discord.PartialMessageable, old: SentRef, *, keep_info: bool = False
    ) -> None:
        """A new message took over ``old``'s key: its buttons go, so the
        channel shows one live table (pressing the old one would change
        nothing); with ``keep_info`` those that still answer (verify,
        leaderboard) stay."""
        kept = still_working(old.buttons) if keep_info else ()
        view = View(ViewKind.NOTICE, Audience.GROUP, old.key, "", (), buttons=kept)
        components = make_components(view, dm_button=False) if kept else None
        try:
            await channel.get_partial_message(int(old.message_id)).edit(view=components)
        except discord.HTTPException:
            log.info("old message %s already gone or not editable", old.message_id)

    async def _set_buttons(
        self,
        channel: discord.PartialMessageable,
        message_id: str,
        kept: tuple[tuple[Button, ...], ...],
    ) -> None:
        """A pressed message's buttons become ``kept`` (none: no buttons)."""
        components = discord.ui.View(timeout=None)
        for row_no, row in enumerate(kept):
            for button in row:
                dm = _hand_dm(button.action_id or "")
                if dm is not None:
                    components.add_item(HandDmButton.build(*dm, label=button.label, row=row_no))
                elif (item := make_item(button, row_no)) is not None:
                    components.add_item(item)
        try:
            await channel.get_partial_message(int(message_id)).edit(
                view=components if components.children else None
            )
        except discord.HTTPException:
            log.info("old message %s already gone or not editable", message_id)

    async def _retire_settlement(
        self, channel: discord.PartialMessageable, row: OutboxRow, round_no: int
    ) -> None:
        """A new round's table is up: last round's settlement loses its
        "next round" button."""
        room_id = room_of(row.key)
        if round_no < 1 or not room_id:
            return
        old = await self.store.sent_message(PLATFORM, row.chat_id, f"settle:{room_id}:{round_no}")
        if old is not None and old.has_buttons:
            await self._retire(channel, old, keep_info=True)
            await self.store.put_sent(dataclasses.replace(old, has_buttons=False))


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
