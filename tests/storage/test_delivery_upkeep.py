"""The delivery tables' upkeep on every backend (memory, SQLite, PostgreSQL):
a new room's table post written in the room's own transaction, the
"open the bot first" list kept in ``prefs``, and the bounded clean-up of
failed rows and of closed rooms' message ids (docs/delivery.md)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from storage.api import RoomExists
from storage.delivery import OutboxEntry


def table_post(state: dict) -> list[OutboxEntry]:  # type: ignore[type-arg]
    key = f"table:{state['room_id']}"
    return [OutboxEntry("telegram", "-100", key, "table", {"room": state["room_id"]}, True)]


async def test_a_new_room_and_its_table_post_are_written_together(backend) -> None:
    repo = await backend.new()
    rec = await repo.create_room("telegram", "-100", {"phase": "lobby"}, outbox=table_post)
    later = datetime.now(UTC) + timedelta(seconds=1)
    [row] = await repo.lane_rows("telegram", "-100", later)
    assert row.key == f"table:{rec.room_id}" and row.payload == {"room": rec.room_id}
    assert row.fresh
    # A second room in the same chat is refused: and nothing of it is written.
    with pytest.raises(RoomExists):
        await repo.create_room("telegram", "-100", {"phase": "lobby"}, outbox=table_post)
    assert [r.key for r in await repo.lane_rows("telegram", "-100", later)] == [row.key]
    if backend.url is not None:  # another process on the same database sees it
        other = await backend.new()
        assert [r.key for r in await other.lane_rows("telegram", "-100", later)] == [row.key]
