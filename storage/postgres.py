"""The repository on PostgreSQL: the hot path on native async psycopg.

Profiled (BENCHMARKS.md): with SQLAlchemy in 8 worker threads a
``save_room`` was 3 round trips (BEGIN, UPDATE, COMMIT) plus SQLAlchemy's
execution layer, and every call paid two GIL hand-offs between the event
loop and a worker. On 2 cores the threads fought the event loop (and the
server) for CPU, so the bench saturated near 540 actions/s with p99 of
seconds. Here the calls the manager makes per action (``create_room``'s
insert, ``load_room``, ``save_room``) run on ``psycopg.AsyncConnection``s
owned by the event loop: no threads, no GIL hand-off, and the network wait
is an ordinary await. Everything else is ``SqlRepository``'s, through
SQLAlchemy in 2 worker threads.

The statements are SqlRepository's own, compiled once for psycopg
(storage/pg_statements.py), with the same parameters (storage/rows.py).

Round trips: a plain save (no round record, no settlement: ~95% of them) is
ONE autocommit ``UPDATE ... WHERE version = :expected`` - a single statement
is its own transaction, committed (and flushed: synchronous_commit is left
alone) before the server answers, so durability is unchanged. A save with a
round record or a settlement runs in an explicit transaction: the
settlement is written once (``ON CONFLICT DO NOTHING RETURNING``) in the
same transaction as the room state. The plain save is a server-side
prepared statement sent straight through libpq (psycopg's cursor layer
cost more client CPU than the rest of the save: BENCHMARKS.md); the other
statements are prepared by psycopg after a few uses (its
``prepare_threshold``).

Several connections (``pool_size``) keep several commits in flight, so the
server can flush them together (group commit).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import psycopg
from psycopg import AsyncConnection, generators
from psycopg.pq import ExecStatus
from psycopg_pool import AsyncConnectionPool, PoolClosed, PoolTimeout

from storage.api import RoomRecord, RoundRecord, SettlementRecord, StorageError
from storage.delivery import OutboxEntry, TimerChange
from storage.engine import libpq_conninfo
from storage.pg_statements import Params, PgPrepared, PgStatements, compile_statements
from storage.rows import (
    Row,
    outbox_rows,
    room_of,
    round_row,
    settlement_row,
    settlement_rows,
    timer_row,
)
from storage.sql import DEFAULT_URL, SqlRepository, reopened, stale

_RARE_WORKERS = 2  # SQLAlchemy's threads, for the calls not made per action


class PgPool:
    """``size`` autocommit AsyncConnections, each with ``prepare`` run on it
    once, opened on first use.

    psycopg_pool hands a returned connection straight to the longest waiter
    (first come, first served: with an asyncio.Queue the task returning a
    connection took it right back for its next call, measured p99 of
    seconds), rolls back one returned inside a transaction, and replaces
    one returned broken or mid-query (a cancelled call). Not opened when
    made: ``open`` starts it on the loop that uses it.
    """

    def __init__(self, conninfo: str, size: int, prepare: str) -> None:
        async def configure(conn: AsyncConnection[Any]) -> None:
            await conn.execute(prepare)

        size = max(size, 1)
        self._pool: AsyncConnectionPool[AsyncConnection[Any]] = AsyncConnectionPool(
            conninfo,
            min_size=size,
            max_size=size,
            kwargs={"autocommit": True},
            configure=configure,
            open=False,
            name="thirteen",
        )
        self._opening = asyncio.Lock()
        self._opened = False
        self._closed = False

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


class PgRepository(SqlRepository):
    """``SqlRepository`` on PostgreSQL with the per-action calls on psycopg
    (see the module doc). ``SqlRepository(url)`` makes one for a
    PostgreSQL URL."""

    def __init__(
        self,
        database_url: str = DEFAULT_URL,
        *,
        pool_size: int = 8,
        threaded: bool | None = None,
        pg_native: bool = True,
    ) -> None:
        super().__init__(database_url, pool_size=pool_size, threaded=threaded)
        if self._dialect != "postgresql" or not pg_native:
            raise ValueError("PgRepository: a PostgreSQL URL, native (else SqlRepository)")
        self._pg_sql: PgStatements = compile_statements(self._sql, self._delivery.sql)
        self._pg = PgPool(libpq_conninfo(self.url), pool_size, self._pg_sql.save_room.prepare)

    def _workers(self, pool_size: int) -> int:
        return _RARE_WORKERS

    async def init(self) -> None:
        await super().init()
        await self._pg.open()

    async def close(self) -> None:
        if not self._closed:
            await self._pg.close()
        await super().close()

    async def _insert_room(self, row: Row, outbox: Sequence[OutboxEntry]) -> bool:
        pg = self._pg_sql
        room = pg.insert_room.bind(row)
        rows = outbox_rows(outbox, row["created_at"])
        entries = pg.upsert_outbox.bind_many(rows) if rows else None
        try:
            async with self._pg.connection() as conn:
                if entries is None:
                    await conn.execute(*room)
                else:
                    async with conn.transaction():
                        await conn.execute(*room)
                        async with conn.cursor() as cur:
                            await cur.executemany(*entries)
        except psycopg.errors.UniqueViolation:
            return False
        except psycopg.Error as exc:
            raise _storage_error(exc) from exc
        return True

    async def load_room(self, room_id: str) -> RoomRecord | None:
        query = self._pg_sql.room_by_id.bind({"b_room_id": room_id})
        try:
            async with self._pg.connection() as conn:
                cur = await conn.execute(*query)
                row = await cur.fetchone()
        except psycopg.Error as exc:
            raise _storage_error(exc) from exc
        return None if row is None else room_of(row)

    async def _save(
        self,
        update: Row,
        round_record: RoundRecord | None,
        settlement: SettlementRecord | None,
        outbox: Sequence[OutboxEntry],
        timer: TimerChange | None,
    ) -> int:
        pg = self._pg_sql
        if round_record is None and settlement is None and timer is None and not outbox:
            # One statement, one round trip, its own transaction.
            args = pg.save_room.args(update)
            try:
                async with self._pg.connection() as conn:
                    changed = await _run_prepared(conn, pg.save_room, args)
            except psycopg.errors.UniqueViolation as exc:
                raise reopened(update) from exc
            except psycopg.Error as exc:
                raise _storage_error(exc) from exc
            if changed != 1:
                raise stale(update)
            return int(update["version"])
        # Every parameter before a connection is taken: a bad value fails early.
        room = pg.update_room.bind(update)
        dealt = None if round_record is None else pg.insert_round.bind(round_row(round_record))
        settled = None if settlement is None else _settlement_params(pg, settlement)
        rows = outbox_rows(outbox, update["updated_at"])
        entries = pg.upsert_outbox.bind_many(rows) if rows else None
        moved = (
            None if timer is None else pg.upsert_timer.bind(timer_row(update["b_room_id"], timer))
        )
        try:
            async with self._pg.connection() as conn, conn.transaction():
                cur = await conn.execute(*room)
                if cur.rowcount != 1:
                    raise stale(update)
                if dealt is not None:
                    await conn.execute(*dealt)
                if settled is not None:
                    await _settle(conn, *settled)
                if entries is not None:
                    async with conn.cursor() as cur:
                        await cur.executemany(*entries)
                if moved is not None:
                    await conn.execute(*moved)
        except psycopg.errors.UniqueViolation as exc:
            raise reopened(update) from exc
        except psycopg.Error as exc:
            raise _storage_error(exc) from exc
        return int(update["version"])


Bound = tuple[str, Params]
BoundMany = tuple[str, list[Params]]


def _settlement_params(
    pg: PgStatements, record: SettlementRecord
) -> tuple[Bound, BoundMany | None, BoundMany | None, BoundMany | None]:
    """A settlement's statements with their parameters: its own row, then
    its ledger, arrangements and people (rows.settlement_rows), None where
    it has none."""
    ledger, placed, people = settlement_rows(record)
    return (
        pg.insert_settlement.bind(settlement_row(record)),
        pg.insert_ledger.bind_many(ledger) if ledger else None,
        pg.insert_arrangements.bind_many(placed) if placed else None,
        pg.upsert_players.bind_many(people) if people else None,
    )


async def _settle(
    conn: AsyncConnection[Any],
    settlement: Bound,
    ledger: BoundMany | None,
    placed: BoundMany | None,
    people: BoundMany | None,
) -> None:
    cur = await conn.execute(*settlement)
    if await cur.fetchone() is None or ledger is None:
        return  # already settled: a retried round never pays twice
    async with conn.cursor() as cur:
        # executemany pipelines the rows: one round trip per statement kind.
        for rows in (ledger, placed, people):
            if rows is not None:
                await cur.executemany(*rows)


async def _run_prepared(
    conn: AsyncConnection[Any], prepared: PgPrepared, args: list[bytes | None]
) -> int:
    """``prepared`` (prepared on every pooled connection) with ``args``,
    straight through libpq; the rows it changed."""
    conn.pgconn.send_query_prepared(prepared.name.encode(), args)
    results = await conn.wait(generators.execute(conn.pgconn))
    for result in results:
        if result.status == ExecStatus.FATAL_ERROR:
            raise psycopg.errors.error_from_result(result, encoding="utf-8")
    return results[-1].command_tuples or 0


def _storage_error(exc: psycopg.Error) -> StorageError:
    return StorageError(f"database error: {exc}".splitlines()[0])
