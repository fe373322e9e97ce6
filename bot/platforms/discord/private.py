"""A player's private views: ephemeral messages and, on request, DMs.

Discord cannot show an ephemeral message unprompted: a player's view goes
out as an ephemeral reply to their own interaction, and later changes (the
deal, the auto-arrange at the deadline) edit that ephemeral through the
interaction's token while it lives (15 minutes). Otherwise the table's
"my hand" button shows it again.

A player who chose DMs gets their hand as a DM through the durable outbox
(transport.py: the lane of their DM chat, retried, posted once and edited by
the id stored in the ``messages`` table, so a restarted process or another
shard's process edits the same DM). The choice is a per-user preference in
the ``prefs`` table; a DM Discord refuses (DMs closed) turns it off, and
the player is told privately at their next turn.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

import discord

from bot.i18n import t
from bot.table.actions import Verb
from bot.views.model import View, ViewKind

from .refs import DM_CLOSED, HAND_DM, HandRef, Registry, dm_chat
from .render import prepare, with_page
from .turn import PLATFORM, Turn

if TYPE_CHECKING:
    from .transport import DiscordPlatform

log = logging.getLogger(__name__)
__all__ = ["HAND_DM", "PrivateViews", "dm_chat"]


class PrivateViews:
    """Delivers PLAYER views; shares the adapter's message registry."""

    def __init__(
        self,
        refs: Registry,
        client: Callable[[], discord.Client | None],
        platform: DiscordPlatform,
    ) -> None:
        self.refs = refs
        self.client = client
        self.platform = platform
        self.store = platform.store

    async def set_pref(self, user_id: str, name: str, on: bool) -> None:
        await self.store.set_pref(PLATFORM, user_id, name, "1" if on else None)

    def _ephemeral(self, view: View) -> View:
        """The hand as an ephemeral in the room's channel shows it: its page
        button launches the Activity where that is on (a DM's is the link,
        made by the transport)."""
        return with_page(view, self.platform.page_links, in_channel=True)

    async def deliver_to_actor(self, view: View, turn: Turn) -> None:
        if turn.pressed is not None and view.key == turn.pressed_key:
            if turn.interaction.guild_id is None:
                # A press in the DM: acknowledged, and the outbox edits that DM
                # by its stored id (one path, as for the table).
                await self.platform.adopt_dm(turn.user_id, view.key, turn.pressed)
                if not turn.responded:
                    await turn.interaction.response.defer()
                    turn.deferred = True
                await self.platform.submit_dm([view])
                return
            await turn.edit_pressed(await prepare(self._ephemeral(view)))
            assert turn.pressed is not None
            if view.kind is ViewKind.HAND:
                self.refs.hands[view.key] = HandRef(turn.interaction, None)
            self.refs.keys_by_message[turn.pressed.id] = view.key
            return
        if view.kind is ViewKind.HAND:
            choice = await self.store.get_pref(PLATFORM, turn.user_id, HAND_DM)
            if choice == DM_CLOSED:
                # A DM of this hand was refused since: say so, show it here.
                await self.set_pref(turn.user_id, HAND_DM, False)
                await turn.say(t(view.language, "dc.hand.dm_failed"))
            elif turn.verb is Verb.SHOW_HAND:
                # "My hand" pressed: the ephemeral is the player's latest choice.
                if choice is not None:
                    await self.set_pref(turn.user_id, HAND_DM, False)
            elif choice == "1":
                await self.platform.submit_dm([view])
                return
        await self.new_ephemeral(turn, view)

    async def new_ephemeral(self, turn: Turn, view: View) -> None:
        """A private view for the actor as a new ephemeral message (DM when that fails)."""
        rendered = await prepare(self._ephemeral(view))
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
            await self.platform.submit_dm([view])
            return
        self.refs.keys_by_message[message.id] = view.key
        if view.kind is ViewKind.HAND:
            self.refs.hands[view.key] = ref

    async def refresh_hand(self, view: View) -> None:
        """Someone's hand changed without them pressing (deal, auto-arrange):
        edit their open ephemeral while its token lives, or their DM."""
        if view.user_id is not None and await self.platform.wants_dm(view.user_id):
            await self.platform.submit_dm([view])
            return
        ref = self.refs.hands.get(view.key)
        if ref is None:
            return
        if ref.interaction.is_expired():
            del self.refs.hands[view.key]
            return
        rendered = await prepare(self._ephemeral(view))
        try:
            if ref.message_id is None:
                await ref.interaction.edit_original_response(**rendered.kwargs())
            else:
                await ref.interaction.followup.edit_message(ref.message_id, **rendered.kwargs())
        except discord.HTTPException as error:
            # Expired or dismissed: the player re-opens it with "my hand".
            log.info("hand message of %s not editable (%s)", view.key, error)
            self.refs.hands.pop(view.key, None)
