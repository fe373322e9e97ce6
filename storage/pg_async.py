"""PostgreSQL's hot path: native async psycopg on the event loop.

Profiled (BENCHMARKS.md): with SQLAlchemy in 8 worker threads a
``save_room`` was 3 round trips (BEGIN, UPDATE, COMMIT) plus SQLAlchemy's
execution layer, and every call paid two GIL hand-offs between the event
loop and a worker. On 2 cores the threads fought the event loop (and the
server) for CPU, so the bench saturated near 540 actions/s with p99 of
seconds. Here the calls the manager makes per action run on
``psycopg.AsyncConnection``s owned by the event loop: no threads, no GIL
hand-off, and the network wait is an ordinary await.

Round trips: a plain save (no round record, no settlement: ~95% of them) is
ONE autocommit ``UPDATE ... WHERE version = :expected`` - a single statement
is its own transaction, committed (and flushed: synchronous_commit is left
alone) before the server answers, so durability is unchanged. A save with a
round record or a settlement runs in an explicit transaction, exactly as
before: the settlement is written once (``ON CONFLICT DO NOTHING RETURNING``)
in the same transaction as the room state. The plain save is a server-side
prepared statement sent straight through libpq; the other statements are
prepared by psycopg after a few uses (its ``prepare_threshold``).

Several connections (``size``) keep several commits in flight, so the server
can flush them together (group commit).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

import psycopg
from psycopg import AsyncConnection, generators
from psycopg.pq import ExecStatus, TransactionStatus

from storage.api import (
    RoomExists,
    RoomRecord,
    RoomStatus,
    RoundRecord,
    SettlementRecord,
    StaleVersion,
    StorageError,
)
from storage.common import settlement_rows, to_utc_naive
from storage.delivery import OutboxEntry, TimerChange
from storage.engine import compact_json

# Kept in step with storage/models.py (the same columns SQLAlchemy writes).
# JSON goes in as compact text cast to json: serialized before the call, so
# a state that is not JSON fails before anything is sent.
# The plain save, prepared once per connection under our own name (psycopg
# names its own "_pg3_*", so they never collide) and sent through libpq
# directly: psycopg's cursor layer cost more client CPU than the rest of
# the save (profiled in BENCHMARKS.md).
PLAIN_SAVE = "thirteen_save_room"
PREPARE_PLAIN_SAVE = (
    f"PREPARE {PLAIN_SAVE} (text, integer, text, text, timestamp, text, integer) AS"
    " UPDATE rooms SET state = $1::json, version = $2, status = $3, language = $4,"
    " updated_at = $5 WHERE room_id = $6 AND version = $7"
)
UPDATE_ROOM = (
    "UPDATE rooms SET state = %(state)s::json, version = %(version)s, status = %(status)s,"
    " language = %(language)s, updated_at = %(updated_at)s"
    " WHERE room_id = %(room_id)s AND version = %(expected)s"
)
INSERT_ROOM = (
    "INSERT INTO rooms (room_id, platform, chat_id, status, version, language, state,"
    " created_at, updated_at) VALUES (%(room_id)s, %(platform)s, %(chat_id)s, %(status)s,"
    " %(version)s, %(language)s, %(state)s::json, %(created_at)s, %(updated_at)s)"
)
ROOM_BY_ID = (
    "SELECT room_id, platform, chat_id, state, version, status FROM rooms WHERE room_id = %s"
)
INSERT_ROUND = (
    "INSERT INTO rounds (room_id, round_no, platform, chat_id, deck, salt, deck_hash, seats,"
    " options, started_at) VALUES (%(room_id)s, %(round_no)s, %(platform)s, %(chat_id)s,"
    " %(deck)s::json, %(salt)s, %(deck_hash)s, %(seats)s::json, %(options)s::json,"
    " %(started_at)s) ON CONFLICT (room_id, round_no) DO NOTHING"
)
INSERT_SETTLEMENT = (
    "INSERT INTO settlements (room_id, round_no, platform, chat_id, settled_at, detail)"
    " VALUES (%(room_id)s, %(round_no)s, %(platform)s, %(chat_id)s, %(settled_at)s,"
    " %(detail)s::json) ON CONFLICT (room_id, round_no) DO NOTHING RETURNING round_no"
)
INSERT_LEDGER = (
    "INSERT INTO score_ledger (room_id, round_no, player_key, platform, chat_id, name, points,"
    " win, scoops, home_run, special, is_ai, settled_at) VALUES (%(room_id)s, %(round_no)s,"
    " %(player_key)s, %(platform)s, %(chat_id)s, %(name)s, %(points)s, %(win)s, %(scoops)s,"
    " %(home_run)s, %(special)s, %(is_ai)s, %(settled_at)s)"
)
INSERT_ARRANGEMENT = (
    "INSERT INTO arrangements (room_id, round_no, player_key, lanes, special, auto_arranged,"
    " escaped) VALUES (%(room_id)s, %(round_no)s, %(player_key)s, %(lanes)s::json,"
    " %(special)s, %(auto_arranged)s, %(escaped)s)"
)
UPSERT_PLAYER = (
    "INSERT INTO players (player_key, platform, user_id, name, last_seen) VALUES"
    " (%(player_key)s, %(platform)s, %(user_id)s, %(name)s, %(last_seen)s)"
    " ON CONFLICT (player_key) DO UPDATE SET name = EXCLUDED.name,"
    " last_seen = EXCLUDED.last_seen"
)
# Kept in step with storage/delivery_sql.py's upsert (a later state of one
# message replaces an undelivered one in place: docs/delivery.md).
UPSERT_OUTBOX = (
    "INSERT INTO outbox (platform, chat_id, view_key, kind, payload, fresh, seq, state,"
    " attempts, next_attempt_at, created_at, last_error) VALUES (%(platform)s, %(chat_id)s,"
    " %(view_key)s, %(kind)s, %(payload)s::json, %(fresh)s, 1, 'pending', 0, %(now)s, %(now)s,"
    " NULL) ON CONFLICT (platform, chat_id, view_key) DO UPDATE SET kind = EXCLUDED.kind,"
    " payload = EXCLUDED.payload,"
    " fresh = EXCLUDED.fresh OR (outbox.state = 'pending' AND outbox.fresh),"
    " seq = outbox.seq + 1, state = 'pending', attempts = 0,"
    " next_attempt_at = EXCLUDED.next_attempt_at, last_error = NULL"
)
UPSERT_TIMER = (
    "INSERT INTO room_timers (room_id, due_at, owner, lease_until) VALUES (%(room_id)s,"
    " %(due_at)s, NULL, NULL) ON CONFLICT (room_id) DO UPDATE SET due_at = EXCLUDED.due_at,"
    " owner = NULL, lease_until = NULL"
)


class AsyncPgConnections:
    """A small pool of autocommit AsyncConnections, opened on first use (so
    on the loop that uses them); a connection left broken or inside a
    transaction (a cancelled call) is closed and replaced.

    Strictly first come, first served: a returned connection goes straight
    to the longest waiter. (With an asyncio.Queue the task that returns a
    connection takes it right back for its next call before the woken waiter
    runs, and that waiter queues again at the end: measured p99 of seconds.)
    """

    def __init__(self, conninfo: str, size: int) -> None:
        self._conninfo = conninfo
        # None: a free slot whose connection is not open (yet, or any more).
        self._idle: deque[AsyncConnection[Any] | None] = deque([None] * max(size, 1))
        self._waiters: deque[asyncio.Future[AsyncConnection[Any] | None]] = deque()
        self._open: set[AsyncConnection[Any]] = set()
        self._closed = False

    async def _acquire(self) -> AsyncConnection[Any] | None:
        if self._idle and not self._waiters:
            return self._idle.popleft()
        waiter: asyncio.Future[AsyncConnection[Any] | None]
        waiter = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self._release(waiter.result())  # handed over just as we were cancelled
            else:
                with contextlib.suppress(ValueError):
                    self._waiters.remove(waiter)
            raise

    def _release(self, conn: AsyncConnection[Any] | None) -> None:
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(conn)
                return
        self._idle.append(conn)

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[AsyncConnection[Any]]:
        if self._closed:
            raise StorageError("the repository is closed")
        conn = await self._acquire()
        try:
            if conn is None or conn.closed:
                self._open.discard(conn)
                conn = await AsyncConnection.connect(self._conninfo, autocommit=True)
                self._open.add(conn)
                await conn.execute(PREPARE_PLAIN_SAVE)
            yield conn
        finally:
            self._release(await self._reusable(conn))

    async def _reusable(self, conn: AsyncConnection[Any] | None) -> AsyncConnection[Any] | None:
        if conn is None or conn.closed:
            return None
        if self._closed or conn.broken or conn.info.transaction_status != TransactionStatus.IDLE:
            self._open.discard(conn)
            await conn.close()
            return None
        return conn

    def backend_pids(self) -> list[int]:
        """Server process ids of the open connections (for diagnostics)."""
        return [c.info.backend_pid for c in self._open if not c.closed]

    async def close(self) -> None:
        """Close the idle connections; one in use closes when it comes back."""
        self._closed = True
        while self._idle:
            conn = self._idle.popleft()
            if conn is not None:
                self._open.discard(conn)
                await conn.close()


class AsyncPgRooms:
    """The per-action calls of SqlRepository on PostgreSQL (see module doc)."""

    def __init__(self, conninfo: str, size: int) -> None:
        self._pool = AsyncPgConnections(conninfo, size)

    @property
    def pool(self) -> AsyncPgConnections:
        return self._pool

    async def close(self) -> None:
        await self._pool.close()

    async def insert_room(self, row: dict[str, Any], outbox: Sequence[OutboxEntry] = ()) -> bool:
        """Insert a new room row (with ``outbox``, the views it produced, in
        the same transaction); False when a unique constraint refused it."""
        params = {
            **row,
            "state": compact_json(row["state"]),
            "created_at": to_utc_naive(row["created_at"]),
            "updated_at": to_utc_naive(row["updated_at"]),
        }
        outbox_rows = [_outbox_row(e, params["created_at"]) for e in outbox]
        try:
            async with self._pool.connection() as conn:
                if not outbox_rows:
                    await conn.execute(INSERT_ROOM, params)
                else:
                    async with conn.transaction():
                        await conn.execute(INSERT_ROOM, params)
                        async with conn.cursor() as cur:
                            await cur.executemany(UPSERT_OUTBOX, outbox_rows)
        except psycopg.errors.UniqueViolation:
            return False
        except psycopg.Error as exc:
            raise _storage_error(exc) from exc
        return True

    async def load_room(self, room_id: str) -> RoomRecord | None:
        try:
            async with self._pool.connection() as conn:
                cur = await conn.execute(ROOM_BY_ID, (room_id,))
                row = await cur.fetchone()
        except psycopg.Error as exc:
            raise _storage_error(exc) from exc
        if row is None:
            return None
        room_id, platform, chat_id, state, version, status = row
        return RoomRecord(room_id, platform, chat_id, state, version, RoomStatus(status))

    async def save_room(
        self,
        room_id: str,
        state_json: str,
        language: str | None,
        expected_version: int,
        status: RoomStatus,
        round_record: RoundRecord | None,
        settlement: SettlementRecord | None,
        outbox: Sequence[OutboxEntry] = (),
        timer: TimerChange | None = None,
    ) -> int:
        now = to_utc_naive(datetime.now(UTC))
        params = {
            "room_id": room_id,
            "expected": expected_version,
            "state": state_json,
            "version": expected_version + 1,
            "status": status.value,
            "language": language,
            "updated_at": now,
        }
        # Serialize the records before taking a connection: a bad value fails early.
        round_row = None if round_record is None else _round_row(round_record)
        outbox_rows = [_outbox_row(e, now) for e in outbox]
        try:
            async with self._pool.connection() as conn:
                plain = round_row is None and settlement is None and timer is None
                if plain and not outbox_rows:
                    # One statement, one round trip, its own transaction.
                    changed = await _plain_save(conn, params)
                    _check_updated(changed, room_id, expected_version)
                else:
                    async with conn.transaction():
                        cur = await conn.execute(UPDATE_ROOM, params)
                        _check_updated(cur.rowcount, room_id, expected_version)
                        if round_row is not None:
                            await conn.execute(INSERT_ROUND, round_row)
                        if settlement is not None:
                            await _insert_settlement(conn, settlement)
                        if outbox_rows:
                            async with conn.cursor() as cur:
                                await cur.executemany(UPSERT_OUTBOX, outbox_rows)
                        if timer is not None:
                            await conn.execute(
                                UPSERT_TIMER, {"room_id": room_id, "due_at": timer.due_at}
                            )
        except psycopg.errors.UniqueViolation as exc:
            # The one constraint the UPDATE can break: reopening a closed
            # room in a chat that has opened another room since.
            raise RoomExists(f"room {room_id}: its chat already has an open room") from exc
        except psycopg.Error as exc:
            raise _storage_error(exc) from exc
        return expected_version + 1


async def _plain_save(conn: AsyncConnection[Any], params: dict[str, Any]) -> int:
    """PREPARE_PLAIN_SAVE with ``params``, straight through libpq (text
    parameters, typed by the prepared statement); the rows it changed."""
    language = params["language"]
    conn.pgconn.send_query_prepared(
        PLAIN_SAVE.encode(),
        [
            params["state"].encode(),
            str(params["version"]).encode(),
            params["status"].encode(),
            None if language is None else language.encode(),
            params["updated_at"].isoformat().encode(),
            params["room_id"].encode(),
            str(params["expected"]).encode(),
        ],
    )
    results = await conn.wait(generators.execute(conn.pgconn))
    for result in results:
        if result.status == ExecStatus.FATAL_ERROR:
            raise psycopg.errors.error_from_result(result, encoding="utf-8")
    return results[-1].command_tuples or 0


def _check_updated(rowcount: int, room_id: str, expected_version: int) -> None:
    if rowcount != 1:
        raise StaleVersion(f"room {room_id} is not at version {expected_version}")


def _storage_error(exc: psycopg.Error) -> StorageError:
    return StorageError(f"database error: {exc}".splitlines()[0])


def _outbox_row(entry: OutboxEntry, now: datetime) -> dict[str, Any]:
    return {
        "platform": entry.platform,
        "chat_id": entry.chat_id,
        "view_key": entry.key,
        "kind": entry.kind,
        "payload": compact_json(entry.payload),
        "fresh": entry.fresh,
        "now": now,
    }


def _round_row(record: RoundRecord) -> dict[str, Any]:
    return {
        "room_id": record.room_id,
        "round_no": record.round_no,
        "platform": record.platform,
        "chat_id": record.chat_id,
        "deck": compact_json(list(record.deck)),
        "salt": record.salt,
        "deck_hash": record.deck_hash,
        "seats": compact_json(list(record.seats)),
        "options": compact_json(record.options),
        "started_at": to_utc_naive(record.started_at),
    }


async def _insert_settlement(conn: AsyncConnection[Any], record: SettlementRecord) -> None:
    settled_at = to_utc_naive(record.settled_at)
    base = {"room_id": record.room_id, "round_no": record.round_no}
    cur = await conn.execute(
        INSERT_SETTLEMENT,
        {
            **base,
            "platform": record.platform,
            "chat_id": record.chat_id,
            "settled_at": settled_at,
            "detail": compact_json(record.detail),
        },
    )
    if await cur.fetchone() is None or not record.entries:
        return  # already settled: a retried round never pays twice
    ledger, placed, people = settlement_rows(record, settled_at, compact_json)
    async with conn.cursor() as cur:
        # executemany pipelines the rows: one round trip per statement kind.
        await cur.executemany(INSERT_LEDGER, ledger)
        if placed:
            await cur.executemany(INSERT_ARRANGEMENT, placed)
        if people:
            await cur.executemany(UPSERT_PLAYER, people)
