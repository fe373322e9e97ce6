"""The boundary of a stored room, as the table's repository code sees it.

The format, its version and the upgrades live with the typed room
(``bot.core.room``). Here ``room_from_json`` is called on every room read
from the repository: it upgrades an older format to ``STATE_VERSION``
step by step (a room of today's format is returned as it is, not even
copied) and refuses one it cannot run with ``StoredRoomError``, a storage
error; ``room_to_json`` on every room written. Both are called only by the
room cache (``rooms.py``) and the manager's start, so the rest of the
table sees rooms of today's format only.
"""

from __future__ import annotations

from typing import Any

from bot.core.room import STATE_VERSION, UPGRADES, Room, RoomFormatError, upgrade
from storage.api import StorageError

__all__ = [
    "STATE_VERSION",
    "UPGRADES",
    "StoredRoomError",
    "load_room",
    "room_from_json",
    "room_to_json",
]


class StoredRoomError(StorageError, RoomFormatError):
    """A stored room this code cannot run: written by a newer version, or
    not a room at all."""


def room_from_json(data: dict[str, Any]) -> dict[str, Any]:
    """A stored room in today's format: unchanged when it is already,
    upgraded when older, ``StoredRoomError`` when newer or unreadable."""
    try:
        return upgrade(data)
    except RoomFormatError as e:
        raise StoredRoomError(str(e)) from None


def load_room(data: dict[str, Any]) -> Room:
    """A stored room, typed (``StoredRoomError`` where it cannot be run)."""
    return Room.from_json(room_from_json(data))


def room_to_json(room: dict[str, Any]) -> dict[str, Any]:
    """The room as it is stored: today's format, under today's version."""
    if room.get("v") != STATE_VERSION:
        room = {**room, "v": STATE_VERSION}
    return room
