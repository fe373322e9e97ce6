"""Which Discord message shows which view key.

The manager names messages by key (``table:<room>``, ``settle:<room>:<round>``,
``hand:<room>:<player>``, ``settings:<room>``); Discord names them by channel
and message id. Group messages and DM'd hands are stored in the database
(the ``messages`` table, through the DeliveryStore), so every process knows
them. What lives only here is what only the process that got an interaction
can use: the live ephemeral hand messages, editable through that
interaction's token. A pressed message no one recorded (an ephemeral after a
restart, or a message of an older version of the bot) gets its key from
the press itself: its buttons say which room it belongs to and what kind of
message it is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord

from bot.core.verbs import VERBS, Private
from bot.table.actions import ActionIdError, Verb, decode
from bot.views.keys import KeyKind, ViewKey

HAND_DM = "hand_dm"  # the preference: "1" the player's hand goes to their DMs
DM_CLOSED = "closed"  # ... its value when a DM was refused: the player is told, DMs off
DM_PREFIX = "dm:"


def dm_chat(user_id: str) -> str:
    """The outbox's and the ``messages`` table's chat for a user's DMs."""
    return f"{DM_PREFIX}{user_id}"


@dataclass(frozen=True, slots=True)
class MessageRef:
    """A DM message (stored in the ``messages`` table as ``<channel>/<message>``)."""

    channel_id: int
    message_id: int

    def stored(self) -> str:
        return f"{self.channel_id}/{self.message_id}"

    @classmethod
    def parse(cls, text: str) -> MessageRef | None:
        channel, _, message = text.partition("/")
        if channel.isdigit() and message.isdigit():
            return cls(int(channel), int(message))
        return None


@dataclass(frozen=True, slots=True)
class HandRef:
    """An ephemeral hand message, editable through its interaction's token
    (valid 15 minutes). ``message_id`` None: the interaction's own response."""

    interaction: discord.Interaction[Any]
    message_id: int | None


def _message_actions(message: discord.Message) -> list[tuple[str, Verb]]:
    """(room, verb) of every action button on a message."""
    out: list[tuple[str, Verb]] = []
    for row in message.components:
        for child in getattr(row, "children", ()):
            custom_id = getattr(child, "custom_id", None)
            if not custom_id:
                continue
            try:
                room_id, _round, verb, _arg = decode(custom_id)
            except ActionIdError:
                continue
            out.append((room_id, verb))
    return out


def _message_verbs(message: discord.Message) -> set[Verb]:
    return {verb for _room, verb in _message_actions(message)}


def pressed_key(
    message: discord.Message, room_id: str, round_no: int, verb: Verb, user_id: str
) -> str:
    """The view key of a pressed message we have no record of (e.g. after a restart)."""
    private = message.flags.ephemeral or message.guild is None
    if private:
        if VERBS[verb].private is Private.PANEL:
            return str(ViewKey(KeyKind.SETTINGS, room_id))
        return str(ViewKey(KeyKind.HAND, room_id, player=f"discord:{user_id}"))
    if any(VERBS[v].table_only for v in _message_verbs(message)):
        return str(ViewKey(KeyKind.TABLE, room_id))
    return str(ViewKey(KeyKind.SETTLE, room_id, round=round_no))


@dataclass(slots=True)
class Registry:
    hands: dict[str, HandRef] = field(default_factory=dict)  # live ephemerals by hand key
    keys_by_message: dict[int, str] = field(default_factory=dict)  # private messages' keys

    def learn_pressed(
        self, message: discord.Message, room_id: str, round_no: int, verb: Verb, user_id: str
    ) -> str:
        """The pressed private message's key."""
        key = self.keys_by_message.get(message.id)
        return key or pressed_key(message, room_id, round_no, verb, user_id)
