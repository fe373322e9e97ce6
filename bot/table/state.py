"""The boundary between a room as stored and a room as the table runs it.

A room is stored as JSON with its format's version under ``"v"``.
``room_from_json`` is called on every room read from the repository and
upgrades an older format to ``STATE_VERSION`` step by step;
``room_to_json`` on every room written. Both are called only by the room
cache (``rooms.py``) and the manager's start, so the rest of the table
sees rooms of today's format only.

- ``"v"`` equal to ``STATE_VERSION``: loaded unchanged.
- ``"v"`` absent: a room stored before the field existed. It is taken as
  version 0, the format of version 1 less the keys that may be missing
  from it; the upgrade fills those with the values a new room starts with.
- ``"v"`` above ``STATE_VERSION``: a room written by newer code (a process
  rolled back while another kept running). It is refused with
  ``StoredRoomError`` instead of being run, and rewritten, by code that
  does not know its format.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from bot.core.state import Phase
from bot.views.deadline import DEFAULT_TIMEZONE
from storage.api import StorageError

STATE_VERSION: Final = 1


class StoredRoomError(StorageError):
    """A stored room this code cannot run: written by a newer version, or
    not a room at all."""


def _from_v0(data: dict[str, Any]) -> dict[str, Any]:
    """Before ``"v"``: the keys a room of version 1 always has, where missing."""
    data.setdefault("round_no", 0)
    data.setdefault("timezone", DEFAULT_TIMEZONE)
    data.setdefault("names", {p["key"]: p["name"] for p in data.get("players", ())})
    seated = [*(p["key"] for p in data.get("players", ())), *data["names"]]
    numbers = [int(k[3:]) for k in seated if k.startswith("ai:") and k[3:].isdigit()]
    data.setdefault("ai_seq", max(numbers, default=0))  # AI keys are ai:<n>, never reused
    data.setdefault("totals", {})
    data.setdefault("round", None)
    return data


# UPGRADES[n] turns a room of version n into one of version n + 1.
UPGRADES: Final[dict[int, Callable[[dict[str, Any]], dict[str, Any]]]] = {0: _from_v0}


def room_from_json(data: dict[str, Any]) -> dict[str, Any]:
    """A stored room in today's format: unchanged when it is already,
    upgraded when older, ``StoredRoomError`` when newer or unreadable."""
    if not isinstance(data, dict):
        raise StoredRoomError(f"a stored room is a JSON object, not {type(data).__name__}")
    version = data.get("v", 0)
    if not isinstance(version, int) or version < 0:
        raise StoredRoomError(f"a stored room's version must be a whole number, not {version!r}")
    if version > STATE_VERSION:
        raise StoredRoomError(
            f"room stored in format v{version}; this code reads up to v{STATE_VERSION}"
            " (run the newer version of the bot)"
        )
    if version == STATE_VERSION:
        room = data
    else:
        room = dict(data)  # the stored record stays as read
        for n in range(version, STATE_VERSION):
            room = UPGRADES[n](room)
        room["v"] = STATE_VERSION
    phase = room.get("phase")
    if phase not in set(Phase):
        raise StoredRoomError(f"a stored room's phase {phase!r} is not one of {[*Phase]}")
    return room


def room_to_json(room: dict[str, Any]) -> dict[str, Any]:
    """The room as it is stored: today's format, under today's version."""
    if room.get("v") != STATE_VERSION:
        room = {**room, "v": STATE_VERSION}
    return room
