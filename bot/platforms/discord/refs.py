"""Which Discord message shows which view key.

The manager names messages by key (``table:<room>``, ``settle:<room>:<round>``,
``hand:<room>:<player>``, ``settings:<room>``); Discord names them by channel
and message id. The registry keeps that map in memory. After a restart it is
empty, so a pressed message's key is recovered from the press itself: the
buttons on it say which room it belongs to and what kind of message it is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord

from bot.table.actions import ActionIdError, Verb, decode

# Verbs only ever found on the room's table message.
TABLE_VERBS = frozenset({Verb.JOIN, Verb.LEAVE, Verb.SHOW_HAND, Verb.SETTINGS})
# Verbs pressed on a player's private hand message.
HAND_VERBS = frozenset(
    {
        Verb.PICK,
        Verb.UNDO,
        Verb.RESET,
        Verb.SORT,
        Verb.SUGGEST,
        Verb.APPLY,
        Verb.DECLARE,
        Verb.CONFIRM,
    }
)
# Verbs pressed on the owner's private settings panel.
SETTINGS_VERBS = frozenset(
    {Verb.SET_OPTION, Verb.ADD_AI, Verb.REMOVE_AI, Verb.REMOVE_PLAYER, Verb.LANGUAGE, Verb.CANCEL}
)


@dataclass(frozen=True, slots=True)
class MessageRef:
    channel_id: int
    message_id: int


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


def is_table_message(message: discord.Message, room_id: str, title: str) -> bool:
    """Whether a message of ours is the room's table message: it carries the
    room's table buttons, or (buttonless during the showdown) its title."""
    if any(room == room_id and verb in TABLE_VERBS for room, verb in _message_actions(message)):
        return True
    return bool(message.embeds) and bool(title) and message.embeds[0].title == title


def pressed_key(
    message: discord.Message, room_id: str, round_no: int, verb: Verb, user_id: str
) -> str:
    """The view key of a pressed message we have no record of (e.g. after a restart)."""
    private = message.flags.ephemeral or message.guild is None
    if private:
        if verb in SETTINGS_VERBS:
            return f"settings:{room_id}"
        return f"hand:{room_id}:discord:{user_id}"
    if _message_verbs(message) & TABLE_VERBS:
        return f"table:{room_id}"
    return f"settle:{room_id}:{round_no}"


@dataclass(slots=True)
class Registry:
    messages: dict[str, MessageRef] = field(default_factory=dict)  # group messages by key
    keys_by_message: dict[int, str] = field(default_factory=dict)
    hands: dict[str, HandRef] = field(default_factory=dict)  # live ephemerals by hand key
    dm: dict[str, MessageRef] = field(default_factory=dict)  # DM'd views by key
    dm_wanted: set[str] = field(default_factory=set)  # hand keys whose player chose DMs
    searched: set[str] = field(default_factory=set)  # keys looked up in the channel history

    def remember(self, key: str, channel_id: int, message_id: int) -> None:
        old = self.messages.get(key)
        if old is not None and old.message_id != message_id:
            self.keys_by_message.pop(old.message_id, None)
        self.messages[key] = MessageRef(channel_id, message_id)
        self.keys_by_message[message_id] = key

    def learn_pressed(
        self, message: discord.Message, room_id: str, round_no: int, verb: Verb, user_id: str
    ) -> str:
        """The pressed message's key; a group message is remembered under it."""
        key = self.keys_by_message.get(message.id)
        if key is None:
            key = pressed_key(message, room_id, round_no, verb, user_id)
            private = message.flags.ephemeral or message.guild is None
            if not private and key not in self.messages:
                self.remember(key, message.channel.id, message.id)
        return key
