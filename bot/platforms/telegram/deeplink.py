"""Deep links into the private chat: ``https://t.me/<bot>?start=<payload>``.

A bot cannot write first to a user who never opened it, so the group shows
a link that opens the private chat and sends ``/start <payload>``. Payloads
are short and only use the characters Telegram allows (A-Z a-z 0-9 _ -):

    h<room>   deliver my hand (and anything else held for me)
    j<room>   join the room and open the private chat in one tap
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

MAX_PAYLOAD = 64


class Payload(StrEnum):
    HAND = "h"
    JOIN = "j"


@dataclass(frozen=True, slots=True)
class StartPayload:
    kind: Payload
    room_id: str


def make_payload(kind: Payload, room_id: str) -> str:
    return f"{kind.value}{room_id}"


def deep_link(bot_username: str, kind: Payload, room_id: str) -> str:
    return f"https://t.me/{bot_username}?start={make_payload(kind, room_id)}"


def parse_payload(text: str | None) -> StartPayload | None:
    """The payload of ``/start <payload>``, or None for a plain or unknown
    one (a forged payload just means "plain /start")."""
    if not text or len(text) > MAX_PAYLOAD:
        return None
    try:
        kind = Payload(text[0])
    except ValueError:
        return None
    room_id = text[1:]
    if not room_id or not room_id.isascii() or not room_id.isalnum() or len(room_id) > 16:
        return None
    return StartPayload(kind, room_id)
