"""The engine's periodic clean-up (docs/delivery.md §7): its poller purges
what a closed room left behind and keeps an open room's message ids; with
no retention it deletes nothing."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from bot.delivery import DeliveryEngine, Limits
from storage.api import RoomStatus
from storage.delivery import SentRef
from storage.memory import MemoryRepository
from tests.delivery.scripts import Script


async def two_rooms(repo: MemoryRepository) -> tuple[str, str]:
    live = await repo.create_room("telegram", "-1", {"phase": "lobby"})
    closed = await repo.create_room("telegram", "-2", {"phase": "lobby"})
    await repo.save_room(closed.room_id, {"phase": "closed"}, 1, status=RoomStatus.CLOSED)
    for room, chat in ((live.room_id, "-1"), (closed.room_id, "-2")):
        await repo.put_sent(SentRef("telegram", chat, f"table:{room}", "1"))
    return live.room_id, closed.room_id


async def test_the_poller_purges_a_closed_rooms_ids_and_keeps_an_open_ones() -> None:
    repo = MemoryRepository()
    live, closed = await two_rooms(repo)
    engine = DeliveryEngine(
        repo, Script(), limits=Limits.off(), poll_seconds=0.02, retention=timedelta(0)
    )
    engine.start()
    for _ in range(400):  # a hang guard, not a speed limit
        if await repo.sent_message("telegram", "-2", f"table:{closed}") is None:
            break
        await asyncio.sleep(0.01)
    await engine.stop()
    assert await repo.sent_message("telegram", "-2", f"table:{closed}") is None
    assert await repo.sent_message("telegram", "-1", f"table:{live}") is not None


async def test_no_retention_deletes_nothing() -> None:
    repo = MemoryRepository()
    live, closed = await two_rooms(repo)
    engine = DeliveryEngine(repo, Script(), limits=Limits.off(), poll_seconds=0.02, retention=None)
    engine.start()
    await asyncio.sleep(0.2)  # ten polls
    await engine.stop()
    assert await repo.sent_message("telegram", "-2", f"table:{closed}") is not None
    # the same rows go as soon as a pass runs with a retention
    purged = await repo.purge("telegram", datetime.now(UTC) + timedelta(seconds=1))
    assert purged.messages == 1
