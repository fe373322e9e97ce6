"""PostgreSQL's native async hot path (storage/postgres.py) against the
SQLAlchemy path it stands in for: each reads what the other wrote, and the
connection pool survives broken and cancelled calls."""

from __future__ import annotations

import asyncio
from datetime import timedelta, timezone

import psycopg
import pytest

from storage.api import Period, RoomStatus, StaleVersion, StorageError
from storage.sql import SqlRepository
from tests.storage.conftest import _libpq_dsn
from tests.storage.records import NOW, entry, round_record, settle_round


async def _pair(url: str) -> tuple[SqlRepository, SqlRepository]:
    native = SqlRepository(url, pool_size=2)
    legacy = SqlRepository(url, pool_size=2, pg_native=False)
    await native.init()
    await legacy.init()
    return native, legacy


async def test_native_and_sqlalchemy_paths_read_each_other(pg_schema_url) -> None:
    native, legacy = await _pair(pg_schema_url())
    try:
        state = {"language": "zh-Hant", "名": "十三水", "seats": [1, 2.5, None, True]}
        room = await native.create_room("telegram", "-100", state)
        assert room.state["room_id"] == room.room_id and "room_id" not in state
        assert (await legacy.load_room(room.room_id)) == room
        # A round dealt in another time zone is the same instant read back.
        dealt = round_record(
            room.room_id, 1, started_at=NOW.astimezone(timezone(timedelta(hours=8)))
        )
        v = await native.save_room(room.room_id, {**room.state, "n": 1}, 1, round_record=dealt)
        assert await legacy.get_round(room.room_id, 1) == round_record(room.room_id, 1)
        v = await legacy.save_room(room.room_id, {**room.state, "n": 2}, v)
        loaded = await native.load_room(room.room_id)
        assert (loaded.version, loaded.state["n"], loaded.state["名"]) == (v, 2, "十三水")
        await settle_round(native, room, 1, [entry("telegram:1", 5), entry("ai:2", -5, is_ai=True)])
        assert await legacy.has_settlement(room.room_id, 1)
        board = await legacy.leaderboard("telegram", "-100", Period.ALL, NOW)
        assert [(r.player_key, r.points) for r in board] == [("telegram:1", 5)]  # AI seats unranked
        closed = await native.save_room(room.room_id, {}, v + 1, status=RoomStatus.CLOSED)
        assert (await legacy.load_room(room.room_id)).version == closed
        assert await legacy.open_room_for_chat("telegram", "-100") is None
    finally:
        await native.close()
        await legacy.close()


async def test_a_broken_connection_is_replaced(pg_schema_url) -> None:
    url = pg_schema_url()
    repo = SqlRepository(url, pool_size=1)
    await repo.init()
    try:
        room = await repo.create_room("telegram", "-1", {})
        # Kill the one pooled connection from the server side.
        assert repo._pg is not None
        async with repo._pg.connection() as conn:
            pid = conn.info.backend_pid
        with psycopg.connect(_libpq_dsn(url), autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        with pytest.raises(StorageError):
            await repo.save_room(room.room_id, {"n": 1}, 1)
        # The next call opens a fresh connection; the failed save changed nothing.
        assert await repo.save_room(room.room_id, {"n": 1}, 1) == 2
        assert (await repo.load_room(room.room_id)).state["n"] == 1
    finally:
        await repo.close()


async def test_a_cancelled_transaction_leaves_the_pool_usable(pg_schema_url) -> None:
    url = pg_schema_url()
    repo = SqlRepository(url, pool_size=1)
    await repo.init()
    try:
        room = await repo.create_room("telegram", "-1", {})
        # Hold the room's row lock so the next save waits inside its transaction.
        with psycopg.connect(_libpq_dsn(url)) as blocker:
            blocker.execute("SELECT 1 FROM rooms WHERE room_id = %s FOR UPDATE", (room.room_id,))
            waiting = asyncio.create_task(
                repo.save_room(room.room_id, {"n": 1}, 1, round_record=round_record(room.room_id))
            )
            await asyncio.sleep(0.3)
            assert not waiting.done()
            waiting.cancel()
            with pytest.raises(asyncio.CancelledError):
                await waiting
            blocker.rollback()
        # Whatever became of it, the room is at one consistent version, and a
        # stale retry is refused while a fresh one is written.
        current = await repo.load_room(room.room_id)
        assert current.version in (1, 2)
        assert (await repo.get_round(room.room_id, 1) is not None) == (current.version == 2)
        with pytest.raises(StaleVersion):
            await repo.save_room(room.room_id, {"n": 9}, current.version - 1)
        assert await repo.save_room(room.room_id, {"n": 2}, current.version) == current.version + 1
    finally:
        await repo.close()


async def test_closed_repository_refuses(pg_schema_url) -> None:
    repo = SqlRepository(pg_schema_url())
    await repo.init()
    room = await repo.create_room("telegram", "-1", {})
    await repo.close()
    with pytest.raises(StorageError):
        await repo.save_room(room.room_id, {}, 1)


async def test_the_pool_serves_waiters_first_come_first_served(pg_schema_url) -> None:
    """A task that returns a connection and asks again at once queues behind
    those already waiting (an asyncio.Queue let it jump the line)."""
    repo = SqlRepository(pg_schema_url(), pool_size=1)
    await repo.init()
    assert repo._pg is not None
    pool = repo._pg
    order: list[str] = []
    holding = asyncio.Event()
    release = asyncio.Event()

    async def greedy() -> None:
        async with pool.connection():
            order.append("g1")
            holding.set()
            await release.wait()
        async with pool.connection():
            order.append("g2")

    async def other(name: str) -> None:
        async with pool.connection():
            order.append(name)

    try:
        first = asyncio.create_task(greedy())
        await holding.wait()
        others = [asyncio.create_task(other(n)) for n in ("b", "c")]
        await asyncio.sleep(0)  # both are waiting now
        release.set()
        await asyncio.gather(first, *others)
        assert order == ["g1", "b", "c", "g2"]
    finally:
        await repo.close()
