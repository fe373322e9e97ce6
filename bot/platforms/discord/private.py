"""A player's private views: ephemeral messages and, on request, DMs.

Discord cannot show an ephemeral message unprompted: a player's view goes
out as an ephemeral reply to their own interaction, and later changes (the
deal, the auto-arrange at the deadline) edit that ephemeral through the
interaction's token while it lives (15 minutes), or the player's DM when
they chose DMs. Otherwise the table's "my hand" button shows it again.

The choice of DMs is a per-user preference in the ``prefs`` table and a DM
message's id is stored in the ``messages`` table: both survive a restart and
are shared by every process (a shard process edits the DM another sent).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import discord

from bot.table.actions import Verb
from bot.views.model import View, ViewKind
from storage.delivery import DeliveryStore, SentRef

from .refs import HandRef, MessageRef, Registry
from .render import prepare
from .turn import PLATFORM, Turn

log = logging.getLogger(__name__)
HAND_DM = "hand_dm"  # the preference: the player's hand goes to their DMs


def dm_chat(user_id: str) -> str:
    """The ``messages`` table's chat for a user's DMs."""
    return f"dm:{user_id}"


class PrivateViews:
    """Delivers PLAYER views; shares the adapter's message registry."""

    def __init__(
        self,
        refs: Registry,
        client: Callable[[], discord.Client | None],
        store: DeliveryStore,
    ) -> None:
        self.refs = refs
        self.client = client
        self.store = store

    async def wants_dm(self, user_id: str) -> bool:
        return await self.store.get_pref(PLATFORM, user_id, HAND_DM) == "1"

    async def set_pref(self, user_id: str, name: str, on: bool) -> None:
        await self.store.set_pref(PLATFORM, user_id, name, "1" if on else None)

    async def deliver_to_actor(self, view: View, turn: Turn) -> None:
        rendered = await prepare(view)
        if turn.pressed is not None and view.key == turn.pressed_key:
            await turn.edit_pressed(rendered)
            assert turn.pressed is not None
            if turn.interaction.guild_id is None:
                ref = MessageRef(turn.pressed.channel.id, turn.pressed.id)
                await self._remember_dm(turn.user_id, view.key, ref)
            elif view.kind is ViewKind.HAND:
                self.refs.hands[view.key] = HandRef(turn.interaction, None)
            self.refs.keys_by_message[turn.pressed.id] = view.key
            return
        if view.kind is ViewKind.HAND and turn.verb is Verb.SHOW_HAND:
            # "My hand" pressed: the ephemeral is the player's latest choice.
            await self.set_pref(turn.user_id, HAND_DM, False)
        elif view.kind is ViewKind.HAND and await self.wants_dm(turn.user_id):
            await self.send_dm_to(view)
            return
        await self.new_ephemeral(turn, view)

    async def new_ephemeral(self, turn: Turn, view: View) -> None:
        """A private view for the actor as a new ephemeral message (DM when that fails)."""
        rendered = await prepare(view)
        interaction = turn.interaction
        try:
            if not turn.responded:
                await interaction.response.send_message(ephemeral=True, **rendered.send_kwargs())
                message: discord.Message = await interaction.original_response()
                ref = HandRef(interaction, None)
            else:
                message = await interaction.followup.send(
                    ephemeral=True, wait=True, **rendered.send_kwargs()
                )
                turn.followed_up = True
                ref = HandRef(interaction, message.id)
        except discord.HTTPException:
            log.info("ephemeral %s failed; trying DM", view.key)
            await self.send_dm(view, interaction.user)
            return
        self.refs.keys_by_message[message.id] = view.key
        if view.kind is ViewKind.HAND:
            self.refs.hands[view.key] = ref

    async def refresh_hand(self, view: View) -> None:
        """Someone's hand changed without them pressing (deal, auto-arrange):
        edit their open ephemeral while its token lives, or their DM."""
        if view.user_id is not None and await self.wants_dm(view.user_id):
            await self.send_dm_to(view)
            return
        ref = self.refs.hands.get(view.key)
        if ref is None:
            return
        if ref.interaction.is_expired():
            del self.refs.hands[view.key]
            return
        rendered = await prepare(view)
        try:
            if ref.message_id is None:
                await ref.interaction.edit_original_response(**rendered.kwargs())
            else:
                await ref.interaction.followup.edit_message(ref.message_id, **rendered.kwargs())
        except discord.HTTPException as error:
            # Expired or dismissed: the player re-opens it with "my hand".
            log.info("hand message of %s not editable (%s)", view.key, error)
            self.refs.hands.pop(view.key, None)

    async def send_dm_to(self, view: View) -> None:
        client = self.client()
        if view.user_id is None or client is None:
            return
        try:
            user = client.get_user(int(view.user_id)) or await client.fetch_user(int(view.user_id))
        except discord.HTTPException:
            return
        await self.send_dm(view, user)

    async def send_dm(self, view: View, user: discord.User | discord.Member) -> bool:
        """Send or edit the player's hand DM; False when DMs are closed to us."""
        rendered = await prepare(view)
        ref = await self._dm_ref(str(user.id), view.key)
        try:
            if ref is not None:
                try:
                    await self.dm_message(ref).edit(**rendered.kwargs())
                    return True
                except discord.NotFound:
                    pass
            message = await user.send(**rendered.send_kwargs())
        except discord.HTTPException:
            return False
        await self._remember_dm(str(user.id), view.key, MessageRef(message.channel.id, message.id))
        self.refs.keys_by_message[message.id] = view.key
        return True

    async def _dm_ref(self, user_id: str, key: str) -> MessageRef | None:
        sent = await self.store.sent_message(PLATFORM, dm_chat(user_id), key)
        return MessageRef.parse(sent.message_id) if sent is not None else None

    async def _remember_dm(self, user_id: str, key: str, ref: MessageRef) -> None:
        await self.store.put_sent(SentRef(PLATFORM, dm_chat(user_id), key, ref.stored()))

    def dm_message(self, ref: MessageRef) -> discord.PartialMessage:
        client = self.client()
        assert client is not None
        channel = client.get_partial_messageable(ref.channel_id, type=discord.ChannelType.private)
        return channel.get_partial_message(ref.message_id)
