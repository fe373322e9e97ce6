"""The room a manager stored, as tests and benchmarks read it: from the
manager's rooms (``TableManager.rooms``: its cache, or the database), not
through hooks on the manager (the table's own reading is
``TableManager.room``)."""

from __future__ import annotations

from typing import Any

from bot.core.state import Phase
from bot.table.manager import TableManager


async def stored_json(manager: TableManager, room_id: str) -> dict[str, Any] | None:
    """The room as stored now (read from the database), as its JSON."""
    rec = await manager.rooms.load(room_id, fresh=True)
    return rec.room.to_json() if rec else None


def cached_json(manager: TableManager, room_id: str) -> dict[str, Any] | None:
    """The room as this manager last stored or read it (no I/O), as its JSON."""
    rec = manager.rooms.cached(room_id)
    return rec.room.to_json() if rec else None


def cached_phase(manager: TableManager, room_id: str) -> Phase | None:
    """The cached room's phase (no I/O, no copy): for drivers that wait for
    a round to end, as benchmarks do for a thousand rooms at once."""
    rec = manager.rooms.cached(room_id)
    return rec.room.phase if rec else None
