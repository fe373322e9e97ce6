"""Actions and the compact action-id codec, below both the table and the views.

A platform adapter turns every command, button press or keystroke into an
``Action``. Who acts always comes from the platform (the update's sender),
never from button data: ``decode`` only yields where and what.

Action ids travel in Telegram callback_data (at most 64 bytes) and Discord
custom_id (at most 100 characters), so the format is short and versioned:

    t1|<room>|<round>|<verb>|<arg>

``room`` is the room id (base-36), ``round`` the round number (0 in the
lobby), ``verb`` a short code from ``Verb``, ``arg`` optional (card index,
option name=value, suggestion number).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .verbs import MAX_ROUND_DIGITS, VERBS, Verb

__all__ = [
    "ACTION_PREFIX",
    "MAX_ACTION_ID_BYTES",
    "MAX_ROUND_DIGITS",
    "NUMBER_ARGS",
    "Action",
    "ActionIdError",
    "Actor",
    "Verb",
    "decode",
    "encode",
    "small_number",
]

ACTION_PREFIX = "t1"
MAX_ACTION_ID_BYTES = 64
_ROOM = re.compile(r"[0-9A-Za-z]{1,16}")
_ROUND = re.compile(rf"[0-9]{{1,{MAX_ROUND_DIGITS}}}")
_ARG = re.compile(r"[\x21-\x7e]{1,32}")  # printable ASCII, no spaces


@dataclass(frozen=True, slots=True)
class Actor:
    """A person (or AI seat) as the platform names them."""

    platform: str  # a platform's name (bot.core.traits), "console" or "ai"
    user_id: str
    name: str = ""
    language: str | None = None  # the user's client language, a hint only

    @property
    def key(self) -> str:
        return f"{self.platform}:{self.user_id}"


@dataclass(frozen=True, slots=True)
class Action:
    """One thing a user asked for. ``chat_id`` is the group chat/channel of
    the room (for private presses it is taken from the room). ``room_id`` and
    ``round_no`` come from button data and are checked against the state;
    a command typed in a group carries only ``chat_id``."""

    actor: Actor
    verb: Verb
    chat_id: str = ""
    room_id: str | None = None
    round_no: int | None = None
    arg: str | None = None


class ActionIdError(ValueError):
    """Button data that is not a well-formed action id."""


def encode(room_id: str, round_no: int, verb: Verb, arg: str | None = None) -> str:
    """Build an action id; raises ValueError if it would exceed 64 bytes."""
    parts = [ACTION_PREFIX, room_id, str(round_no), verb.value]
    if arg is not None:
        parts.append(arg)
    data = "|".join(parts)
    if len(data.encode()) > MAX_ACTION_ID_BYTES:
        raise ValueError(f"action id too long: {data!r}")
    return data


def decode(data: str) -> tuple[str, int, Verb, str | None]:
    """Parse an action id defensively: (room_id, round_no, verb, arg).

    Raises :class:`ActionIdError` for anything malformed, oversized, of
    another version or naming an unknown verb.
    """
    if not isinstance(data, str) or not data or len(data.encode()) > MAX_ACTION_ID_BYTES:
        raise ActionIdError("malformed action")
    parts = data.split("|")
    if len(parts) not in (4, 5) or parts[0] != ACTION_PREFIX:
        raise ActionIdError("malformed action")
    _, room_id, round_text, verb_text, *rest = parts
    # ASCII only: str.isdigit() and int() also take "²" and "٣", str.isalnum() "Ⅻ".
    if not _ROOM.fullmatch(room_id) or not _ROUND.fullmatch(round_text):
        raise ActionIdError("malformed action")
    try:
        verb = Verb(verb_text)
    except ValueError:
        raise ActionIdError("unknown action") from None
    arg = rest[0] if rest else None
    if arg is not None and not _ARG.fullmatch(arg):
        raise ActionIdError("malformed action")
    high = VERBS[verb].number
    if high is not None and arg is not None and small_number(arg, high) is None:
        raise ActionIdError("malformed action")
    return room_id, int(round_text), verb, arg


# Verbs whose argument is a number, and the largest it may be (``VerbInfo.number``).
NUMBER_ARGS = {v: i.number for v, i in VERBS.items() if i.number is not None}


def small_number(text: str | None, high: int) -> int | None:
    """``text`` as a whole number from 0 to ``high`` written in ASCII digits,
    else None (``int()`` would take "²", "٣", " 7" and 5,000 digits)."""
    if text is None or not text.isascii() or not text.isdigit() or len(text) > len(str(high)):
        return None
    number = int(text)
    return number if number <= high else None
