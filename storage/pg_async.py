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
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

import psycopg
from psycopg import AsyncConnection, generators
from psycopg.pq import ExecStatus
from psycopg_pool import AsyncConnectionPool, PoolClosed, PoolTimeout

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
    " attempts, next_attempt_at, created_at, last_error, route) VALUES (%(platform)s,"
    " %(chat_id)s, %(view_key)s, %(kind)s, %(payload)s::json, %(fresh)s, 1, 'pending', 0,"
    " %(now)s, %(now)s, NULL, (SELECT route FROM chat_routes WHERE platform = %(r_platform)s"
    " AND chat_id = %(r_chat_id)s)) ON CONFLICT (platform, chat_id, view_key) DO UPDATE SET"
    " kind = EXCLUDED.kind, payload = EXCLUDED.payload,"
    " fresh = EXCLUDED.fresh OR (outbox.state = 'pending' AND outbox.fresh),"
    " seq = outbox.seq + 1, state = 'pending', attempts = 0,"
    " next_attempt_at = EXCLUDED.next_attempt_at, last_error = NULL,"
    " route = COALESCE(EXCLUDED.route, outbox.route)"
)
UPSERT_TIMER = (
    "INSERT INTO room_timers (room_id, due_at, owner, lease_until) VALUES (%(room_id)s,"
    " %(due_at)s, NULL, NULL) ON CONFLICT (room_id) DO UPDATE SET due_at = EXCLUDED.due_at,"
    " owner = NULL, lease_until = NULL"
)


def connection_pool(conninfo: str, size: int) -> AsyncConnectionPool[AsyncConnection[Any]]:
    """``size`` autocommit AsyncConnections, each with the plain save prepared.

    psycopg_pool hands a returned connection straight to the longest waiter
    (first come, first served: with an asyncio.Queue the task returning a
    connection took it right back for its next call, measured p99 of
    seconds), rolls back one returned inside a transaction, and replaces
    one returned broken or mid-query (a cancelled call). Not opened here:
    ``AsyncPgRooms`` opens it on first use, on the loop that uses it.
    """

    async def prepare(conn: AsyncConnection[Any]) -> None:
        await conn.execute(PREPARE_PLAIN_SAVE)

    size = max(size, 1)
    return AsyncConnectionPool(
        conninfo,
        min_size=size,
        max_size=size,
        kwargs={"autocommit": True},
        configure=prepare,
        open=False,
        name="thirteen",
    )


class AsyncPgRooms:
    """The per-action calls of SqlRepository on PostgreSQL (see module doc),
    on a psycopg_pool opened on first use."""

    def __init__(self, conninfo: str, size: int) -> None:
        self._pool = connection_pool(conninfo, size)
        self._opening = asyncio.Lock()
        self._opened = False
        self._closed = False

    @property
    def pool(self) -> AsyncConnectionPool[AsyncConnection[Any]]:
        return self._pool

    async def open(self) -> None:
        """Start the pool's connections and its worker tasks on the running
        loop. Called by the repository's init, so the workers are not born
        inside the first action's task (a test harness waiting for an
        interaction's tasks would wait on them forever); without waiting,
        the first call takes the first connection as soon as it is ready."""
        if self._closed:
            raise StorageError("the repository is closed")
        async with self._opening:
            if not self._opened:
                await self._pool.open(wait=False)
                self._opened = True

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[AsyncConnection[Any]]:
        if self._closed:
            raise StorageError("the repository is closed")
        if not self._opened:
            await self.open()
        try:
            async with self._pool.connection() as conn:
                yield conn
        except PoolClosed as exc:
            raise StorageError("the repository is closed") from exc
        except PoolTimeout as exc:
            raise StorageError(f"database error: {exc}".splitlines()[0]) from exc

    async def close(self) -> None:
        """Refuse new calls and close the connections (one in use closes
        when it comes back)."""
        self._closed = True
        if self._opened:
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
            async with self.connection() as conn:
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
            async with self.connection() as conn:
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
            async with self.connection() as conn:
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
        # the same values again: a placeholder used twice must have one type
        "r_platform": entry.platform,
        "r_chat_id": entry.chat_id,
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
