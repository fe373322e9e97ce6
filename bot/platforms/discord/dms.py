"""A player's DMs through the outbox: the rows of the chat ``dm:<user>``.

The hand of a player who chose "hand by DM" (and any private view for
them) is posted once to their DM channel and then edited by the id stored
in the ``messages`` table as ``<channel>/<message>``, by whichever process
delivers it; the outbox decides which (bot/delivery/outbox.py), these are
the calls. A DM Discord refuses (the user's DMs are closed to the bot)
turns the choice off (``hand_dm`` = ``closed``) and is recorded as failed
(transport.py); the player is told privately at their next turn
(private.py).
"""

from __future__ import annotations

from collections.abc import Iterable

import discord

from bot.delivery.outbox import Outbox
from bot.views.model import View
from storage.delivery import DeliveryStore, OutboxRow, SentRef

from .posting import nonce_of
from .refs import DM_CLOSED, DM_PREFIX, HAND_DM, MessageRef, dm_chat
from .render import prepare
from .turn import PLATFORM


def is_dm(chat_id: str) -> bool:
    return chat_id.startswith(DM_PREFIX)


def dm_user(chat_id: str) -> str:
    return chat_id.removeprefix(DM_PREFIX)


def dm_message(client: discord.Client, stored: str) -> discord.PartialMessage | None:
    """The DM message stored as ``<channel>/<message>`` (None: not such an id)."""
    at = MessageRef.parse(stored)
    if at is None:
        return None
    channel = client.get_partial_messageable(at.channel_id, type=discord.ChannelType.private)
    return channel.get_partial_message(at.message_id)


async def edit_dm(client: discord.Client, known: SentRef, view: View) -> bool:
    """Edit the player's DM that shows ``known``'s key; False when it is gone."""
    message = dm_message(client, known.message_id)
    if message is None:
        return False
    rendered = await prepare(view)
    try:
        await message.edit(**rendered.kwargs())
    except discord.NotFound:
        return False
    return True


async def post_dm(client: discord.Client, row: OutboxRow, view: View) -> str:
    """Post ``view`` to the player's DMs (with the row's nonce); its stored id."""
    user_id = int(dm_user(row.chat_id))
    user = client.get_user(user_id) or await client.fetch_user(user_id)
    dm = await user.create_dm()
    rendered = await prepare(view)
    message = await dm.send(**rendered.send_kwargs(), nonce=nonce_of(row))
    return MessageRef(message.channel.id, message.id).stored()


class Dms:
    """The players' DMs as the adapter sends to them: through the outbox
    (the lane of each player's DM chat), the choice kept in ``prefs``."""

    def __init__(self, outbox: Outbox[View], store: DeliveryStore) -> None:
        self.outbox = outbox
        self.store = store

    async def wanted(self, user_id: str) -> bool:
        return await self.store.get_pref(PLATFORM, user_id, HAND_DM) == "1"

    async def submit(self, views: Iterable[View]) -> list[str]:
        """Deliver private ``views`` to their players' DMs (written to the
        outbox, in the lane of each player's DM chat); those chats."""
        return await self.outbox.send(
            (view, dm_chat(view.user_id)) for view in views if view.user_id is not None
        )

    async def now(self, view: View, timeout: float = 5.0) -> bool:
        """Send ``view`` to its player's DMs and wait (at most ``timeout``
        s) for the answer: False when Discord refused it (DMs closed)."""
        for chat in await self.submit([view]):
            await self.outbox.engine.settle(chat, timeout)
        assert view.user_id is not None
        return await self.store.get_pref(PLATFORM, view.user_id, HAND_DM) != DM_CLOSED

    async def adopt(self, user_id: str, key: str, message: discord.Message) -> None:
        """As ``Outbox.adopt``, for a press on a DM message."""
        stored = MessageRef(message.channel.id, message.id).stored()
        await self.outbox.adopt(key, dm_chat(user_id), stored)
