"""A player's DMs through the outbox: the rows of the chat ``dm:<user>``.

The hand of a player who chose "hand by DM" (and any private view for
them) is posted once to their DM channel and then edited by the id stored
in the ``messages`` table as ``<channel>/<message>``, by whichever process
delivers it. A DM Discord refuses (the user's DMs are closed to the bot)
turns the choice off (``hand_dm`` = ``closed``) and is recorded as failed;
the player is told privately at their next turn (private.py).
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging

import discord

from bot.delivery import Permanent, RetryLater
from bot.delivery.entries import is_one_off_key
from bot.views.model import View
from storage.delivery import DeliveryStore, OutboxRow, SentRef

from .posting import NETWORK_ERRORS, classify, fingerprint, nonce_of, sent_ref
from .refs import DM_CLOSED, DM_PREFIX, HAND_DM, MessageRef
from .render import prepare
from .turn import PLATFORM

log = logging.getLogger(__name__)


async def deliver_dm(
    client: discord.Client | None, store: DeliveryStore, row: OutboxRow, view: View
) -> SentRef | None:
    """Edit the player's DM that shows ``row.key`` (by its stored
    ``<channel>/<message>``), or post it; a refused DM (closed to the
    bot) turns "hand by DM" off and is recorded, and the player is told
    privately at their next turn (private.py)."""
    if client is None:
        raise RetryLater("the Discord client is not ready", None, "not_ready")
    user_id = row.chat_id.removeprefix(DM_PREFIX)
    if not user_id.isdigit():
        raise Permanent(f"not a Discord user id: {user_id!r}", "bad_chat")
    one_off = is_one_off_key(row.key)
    known = None if one_off else await store.sent_message(PLATFORM, row.chat_id, row.key)
    at = MessageRef.parse(known.message_id) if known is not None else None
    shown = fingerprint(view)
    ref = sent_ref(row, view, shown)
    try:
        if known is not None and at is not None and not row.fresh:
            if known.fingerprint == shown:
                return known  # it shows this already
            rendered = await prepare(view)
            try:
                await _dm_message(client, at).edit(**rendered.kwargs())
                return dataclasses.replace(ref, message_id=known.message_id)
            except discord.NotFound:
                log.info("DM of %s is gone; posting it again", row.key)
        user = client.get_user(int(user_id)) or await client.fetch_user(int(user_id))
        dm = await user.create_dm()
        await store.mark_sending(row)
        rendered = await prepare(view)
        message = await dm.send(**rendered.send_kwargs(), nonce=nonce_of(row))
    except discord.Forbidden as error:
        await store.set_pref(PLATFORM, user_id, HAND_DM, DM_CLOSED)
        raise Permanent(f"DMs closed: {error.text}", "dm_closed") from error
    except (discord.HTTPException, discord.RateLimited, *NETWORK_ERRORS) as error:
        raise classify(error) from error
    if known is not None and at is not None and known.has_buttons and at.message_id != message.id:
        with contextlib.suppress(discord.HTTPException):  # the old DM loses its buttons
            await _dm_message(client, at).edit(view=None)
    if one_off:
        return None
    stored = MessageRef(message.channel.id, message.id).stored()
    return dataclasses.replace(ref, message_id=stored)


def _dm_message(client: discord.Client, at: MessageRef) -> discord.PartialMessage:
    channel = client.get_partial_messageable(at.channel_id, type=discord.ChannelType.private)
    return channel.get_partial_message(at.message_id)
