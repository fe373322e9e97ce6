"""The SQL Repository: SQLite by default, PostgreSQL by URL.

A synchronous SQLAlchemy engine with Core statements built once (no ORM
session: the hot path is one short transaction per accepted action).

- SQLite (default: inline). Calls run right on the event loop, on one
  long-lived connection. Measured (BENCHMARKS.md): a save costs
  ~0.25 ms of CPU, and handing it to a worker thread cost more than that in
  GIL hand-offs, with far worse p99 under load. Nothing in it waits on a
  disk: WAL with synchronous=NORMAL does no fsync per commit, and the
  checkpoints that do fsync run in a background thread (engine.Checkpointer).
  busy_timeout and ``BEGIN IMMEDIATE`` for writes cover a second process on
  the same file. ``threaded=True`` runs SQLite in one worker thread instead.
- PostgreSQL. The per-action calls (save_room, load_room, create_room's
  insert) run on ``pool_size`` native psycopg AsyncConnections on the event
  loop (storage/pg_async.py: one round trip for a plain save, no thread
  hand-off); the rare ones (migrations, boards, lookups) in 2 worker threads
  through SQLAlchemy. ``pg_native=False`` puts everything in ``pool_size``
  threads through SQLAlchemy, as before (kept for comparison). Either way the
  conditional UPDATE (row lock) keeps concurrent writers of one room correct
  across connections and processes.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from storage import boards, history
from storage.api import (
    LeaderRow,
    Period,
    PlayerStats,
    RoomExists,
    RoomRecord,
    RoomStatus,
    RoundRecord,
    SettlementRecord,
    StaleVersion,
    StorageError,
)
from storage.common import (
    json_copy,
    new_room_id,
    period_start,
    player_key,
    settlement_rows,
)
from storage.delivery import (
    OutboxEntry,
    OutboxRow,
    OutboxStats,
    Purged,
    SentRef,
    Shards,
    TimerChange,
)
from storage.delivery_sql import SqlDelivery
from storage.engine import (
    MIGRATIONS,
    Checkpointer,
    ThreadConnections,
    compact_json,
    is_memory_sqlite,
    libpq_conninfo,
    make_engine,
    migrate,
    normalize_url,
)
from storage.pg_async import AsyncPgRooms
from storage.statements import build

__all__ = ["DEFAULT_URL", "MIGRATIONS", "SqlRepository", "normalize_url"]

T = TypeVar("T")

DEFAULT_URL = "sqlite:///thirteen.db"
_ROOM_ID_ATTEMPTS = 8
_PG_RARE_WORKERS = 2  # threads for PostgreSQL's rare calls when pg_native


class SqlRepository:
    """Repository over SQLAlchemy; see the module docstring for the threading."""

    def __init__(
        self,
        database_url: str = DEFAULT_URL,
        *,
        pool_size: int = 8,
        threaded: bool | None = None,
        pg_native: bool = True,
    ) -> None:
        """``threaded``: run calls in worker threads (default for PostgreSQL)
        or inline on the event loop (default for SQLite; see the module doc).
        ``pg_native``: PostgreSQL's per-action calls on async psycopg."""
        self.url = normalize_url(database_url)
        self._dialect = self.url.get_backend_name()
        sqlite = self._dialect == "sqlite"
        self._threaded = (not sqlite) if threaded is None else threaded
        self._pg: AsyncPgRooms | None = None
        if self._dialect == "postgresql" and pg_native:
            self._pg = AsyncPgRooms(libpq_conninfo(self.url), max(pool_size, 1))
            workers = _PG_RARE_WORKERS
        else:
            workers = 1 if sqlite else max(pool_size, 1)
        # +1 connection on SQLite files for the checkpointer.
        connections = 1 if is_memory_sqlite(self.url) else workers + int(sqlite)
        self._engine = make_engine(self.url, connections)
        self._conns = ThreadConnections(self._engine)
        self._executor = (
            ThreadPoolExecutor(max_workers=workers, thread_name_prefix="storage")
            if self._threaded
            else None
        )
        self._checkpointer: Checkpointer | None = None
        self._sql = build(self._dialect)
        self._delivery = SqlDelivery(self._dialect)
        self._closed = False

    async def _call(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn`` inline or in a worker; database failures other than the
        protocol's own (StaleVersion, RoomExists) surface as StorageError."""
        try:
            if self._executor is None:
                return fn(*args)
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._executor, functools.partial(fn, *args))
        except SQLAlchemyError as exc:
            raise StorageError(f"database error: {exc}".splitlines()[0]) from exc

    # lifecycle

    async def init(self) -> None:
        await self._call(self._migrate)
        if self._pg is not None:
            await self._pg.open()
        if self._dialect == "sqlite" and not is_memory_sqlite(self.url) and not self._checkpointer:
            self._checkpointer = Checkpointer(self._engine)

    def _migrate(self) -> None:
        with self._conns.write() as conn:
            migrate(conn)

    async def close(self) -> None:
        """Release the connections; a second close does nothing."""
        if self._closed:
            return
        self._closed = True
        if self._checkpointer is not None:
            await asyncio.to_thread(self._checkpointer.stop)
        if self._pg is not None:
            await self._pg.close()
        await self._call(self._conns.close_all)
        if self._executor is not None:
            self._executor.shutdown(wait=True)

    # rooms

    async def create_room(
        self,
        platform: str,
        chat_id: str,
        state: dict[str, Any],
        *,
        outbox: Callable[[dict[str, Any]], Sequence[OutboxEntry]] | None = None,
    ) -> RoomRecord:
        # A deep copy: the returned state shares nothing with the caller's.
        state = json_copy(state)
        if self._pg is None:
            return await self._call(self._create_room, platform, chat_id, state, outbox)
        for _ in range(_ROOM_ID_ATTEMPTS):
            row = _new_room_row(platform, chat_id, state)
            entries = tuple(outbox(state)) if outbox is not None else ()
            if await self._pg.insert_room(row, entries):
                return RoomRecord(row["room_id"], platform, chat_id, state, 1, RoomStatus.OPEN)
            # Either the chat has an open room (maybe opened by another
            # process a moment ago) or the random id was taken: tell apart.
            if await self.open_room_for_chat(platform, chat_id) is not None:
                raise RoomExists(f"chat {platform}:{chat_id} already has an open room")
        raise RuntimeError("could not allocate a free room id")

    def _create_room(
        self,
        platform: str,
        chat_id: str,
        state: dict[str, Any],
        outbox: Callable[[dict[str, Any]], Sequence[OutboxEntry]] | None,
    ) -> RoomRecord:
        for _ in range(_ROOM_ID_ATTEMPTS):
            row = _new_room_row(platform, chat_id, state)
            room_id = row["room_id"]
            # Built for this id (a taken id is tried again under another one).
            entries = tuple(outbox(state)) if outbox is not None else ()
            try:
                with self._conns.write() as conn:
                    conn.execute(self._sql.insert_room, row)
                    if entries:
                        self._delivery.enqueue(conn, entries, row["created_at"])
            except IntegrityError:
                # Either the chat has an open room (maybe opened by another
                # process a moment ago) or the random id was taken: tell apart.
                if self._open_room_for_chat(platform, chat_id) is not None:
                    raise RoomExists(
                        f"chat {platform}:{chat_id} already has an open room"
                    ) from None
                continue
            return RoomRecord(room_id, platform, chat_id, state, 1, RoomStatus.OPEN)
        raise RuntimeError("could not allocate a free room id")

    async def load_room(self, room_id: str) -> RoomRecord | None:
        if self._pg is not None:
            return await self._pg.load_room(room_id)
        return await self._call(self._one_room, self._sql.room_by_id, {"b_room_id": room_id})

    async def open_room_for_chat(self, platform: str, chat_id: str) -> RoomRecord | None:
        return await self._call(self._open_room_for_chat, platform, chat_id)

    def _open_room_for_chat(self, platform: str, chat_id: str) -> RoomRecord | None:
        params = {"b_platform": platform, "b_chat_id": chat_id}
        return self._one_room(self._sql.open_room_by_chat, params)

    def _one_room(self, query: Any, params: dict[str, Any]) -> RoomRecord | None:
        with self._conns.read() as conn:
            row = conn.execute(query, params).first()
        return None if row is None else _room_record(row)

    async def load_open_rooms(self) -> list[RoomRecord]:
        return await self._call(self._load_open_rooms)

    def _load_open_rooms(self) -> list[RoomRecord]:
        with self._conns.read() as conn:
            return [_room_record(row) for row in conn.execute(self._sql.open_rooms)]

    async def save_room(
        self,
        room_id: str,
        state: dict[str, Any],
        expected_version: int,
        *,
        status: RoomStatus = RoomStatus.OPEN,
        round_record: RoundRecord | None = None,
        settlement: SettlementRecord | None = None,
        outbox: Sequence[OutboxEntry] = (),
        timer: TimerChange | None = None,
    ) -> int:
        if round_record is not None and round_record.room_id != room_id:
            raise ValueError(
                f"round record of room {round_record.room_id} saved with room {room_id}"
            )
        if settlement is not None and settlement.room_id != room_id:
            raise ValueError(f"settlement of room {settlement.room_id} saved with room {room_id}")
        if self._pg is not None:
            return await self._pg.save_room(
                room_id,
                compact_json(state),
                _language(state),
                expected_version,
                RoomStatus(status),
                round_record,
                settlement,
                tuple(outbox),
                timer,
            )
        return await self._call(
            self._save_room,
            room_id,
            state,
            expected_version,
            RoomStatus(status),
            round_record,
            settlement,
            tuple(outbox),
            timer,
        )

    def _save_room(
        self,
        room_id: str,
        state: dict[str, Any],
        expected_version: int,
        status: RoomStatus,
        round_record: RoundRecord | None,
        settlement: SettlementRecord | None,
        outbox: Sequence[OutboxEntry] = (),
        timer: TimerChange | None = None,
    ) -> int:
        new_version = expected_version + 1
        now = datetime.now(UTC)
        params = {
            "b_room_id": room_id,
            "b_expected": expected_version,
            "state": state,
            "version": new_version,
            "status": status.value,
            "language": _language(state),
            "updated_at": now,
        }
        with self._conns.write() as conn:
            try:
                changed = conn.execute(self._sql.update_room, params).rowcount
            except IntegrityError as exc:
                # The one constraint an UPDATE can break: reopening a closed
                # room in a chat that has opened another room since.
                raise RoomExists(f"room {room_id}: its chat already has an open room") from exc
            if changed != 1:
                raise StaleVersion(f"room {room_id} is not at version {expected_version}")
            if round_record is not None:
                conn.execute(self._sql.insert_round, _round_row(round_record))
            if settlement is not None:
                self._insert_settlement(conn, settlement)
            if outbox:
                self._delivery.enqueue(conn, outbox, now)
            if timer is not None:
                self._delivery.set_timer(conn, room_id, timer)
        return new_version

    def _insert_settlement(self, conn: Connection, record: SettlementRecord) -> None:
        base = {"room_id": record.room_id, "round_no": record.round_no}
        inserted = conn.execute(
            self._sql.insert_settlement,
            {
                **base,
                "platform": record.platform,
                "chat_id": record.chat_id,
                "settled_at": record.settled_at,
                "detail": record.detail,
            },
        ).first()
        if inserted is None or not record.entries:
            return  # already settled: a retried round never pays twice
        ledger, placed, people = settlement_rows(record, record.settled_at, lambda lanes: lanes)
        conn.execute(self._sql.insert_ledger, ledger)
        if placed:
            conn.execute(self._sql.insert_arrangements, placed)
        if people:
            conn.execute(self._sql.upsert_players, people)

    # rounds and settlements

    async def get_round(self, room_id: str, round_no: int) -> RoundRecord | None:
        return await self._call(self._get_round, room_id, round_no)

    def _get_round(self, room_id: str, round_no: int) -> RoundRecord | None:
        with self._conns.read() as conn:
            row = conn.execute(
                self._sql.round_by_key, {"b_room_id": room_id, "b_round_no": round_no}
            ).first()
        if row is None:
            return None
        return RoundRecord(
            room_id=row.room_id,
            round_no=row.round_no,
            platform=row.platform,
            chat_id=row.chat_id,
            deck=tuple(row.deck),
            salt=row.salt,
            deck_hash=row.deck_hash,
            seats=tuple(row.seats),
            options=row.options,
            started_at=row.started_at,
        )

    async def has_settlement(self, room_id: str, round_no: int) -> bool:
        return await self._call(self._has_settlement, room_id, round_no)

    def _has_settlement(self, room_id: str, round_no: int) -> bool:
        with self._conns.read() as conn:
            params = {"b_room_id": room_id, "b_round_no": round_no}
            return conn.execute(self._sql.settlement_exists, params).first() is not None

    # leaderboards and stats (rare, so built per call: storage/boards.py)

    async def leaderboard(
        self, platform: str, chat_id: str, period: Period, now: datetime, limit: int = 10
    ) -> list[LeaderRow]:
        since = period_start(Period(period), now)
        return await self._call(
            self._read_with, boards.leaderboard, platform, chat_id, since, limit
        )

    async def player_stats(self, platform: str, user_id: str) -> PlayerStats | None:
        return await self._call(self._read_with, boards.player_stats, player_key(platform, user_id))

    async def room_settlements(
        self, room_id: str, first_round: int, last_round: int
    ) -> list[SettlementRecord]:
        return await self._call(
            self._read_with, history.room_settlements, room_id, first_round, last_round
        )

    async def chat_settlement(
        self, platform: str, chat_id: str, n: int
    ) -> tuple[SettlementRecord | None, int]:
        return await self._call(self._read_with, history.chat_settlement, platform, chat_id, n)

    async def settlement_details(
        self, platform: str, *, chat_id: str | None = None, player_key: str | None = None
    ) -> list[SettlementRecord]:
        return await self._call(
            self._read_with, history.settlement_details, platform, chat_id, player_key
        )

    def _read_with(self, query: Callable[..., T], *args: Any) -> T:
        with self._conns.read() as conn:
            return query(conn, *args)

    # durable delivery (storage/delivery.py; the statements in delivery_sql.py)

    def _write(self, fn: Callable[..., T], *args: Any) -> T:
        with self._conns.write() as conn:
            return fn(conn, *args)

    def _read(self, fn: Callable[..., T], *args: Any) -> T:
        with self._conns.read() as conn:
            return fn(conn, *args)

    async def enqueue(self, entries: Sequence[OutboxEntry], now: datetime) -> None:
        if entries:
            await self._call(self._write, self._delivery.enqueue, tuple(entries), now)

    async def due_lanes(
        self, platform: str, now: datetime, limit: int = 100, shards: Shards | None = None
    ) -> list[str]:
        return await self._call(self._read, self._delivery.due_lanes, platform, now, limit, shards)

    async def set_route(self, platform: str, chat_id: str, route: int) -> None:
        now = datetime.now(UTC)
        await self._call(self._write, self._delivery.set_route, platform, chat_id, route, now)

    async def claim_lane(
        self, platform: str, chat_id: str, owner: str, until: datetime, now: datetime
    ) -> bool:
        return await self._call(
            self._write, self._delivery.claim_lane, platform, chat_id, owner, until, now
        )

    async def release_lane(self, platform: str, chat_id: str, owner: str) -> None:
        await self._call(self._write, self._delivery.release_lane, platform, chat_id, owner)

    async def lane_owners(self, platform: str) -> list[str]:
        return await self._call(self._read, self._delivery.lane_owners, platform)

    async def release_lanes_of(self, platform: str, owners: Sequence[str]) -> None:
        await self._call(self._write, self._delivery.release_lanes_of, platform, tuple(owners))

    async def release_all_lanes(self, platform: str) -> None:
        await self._call(self._write, self._delivery.release_all_lanes, platform)

    @property
    def shared(self) -> bool:
        """Whether other processes may use this database (PostgreSQL) or it
        is one process's (SQLite: docs/deploy.md)."""
        return self._dialect != "sqlite"

    async def lane_rows(self, platform: str, chat_id: str, now: datetime) -> list[OutboxRow]:
        return await self._call(self._read, self._delivery.lane_rows, platform, chat_id, now)

    async def mark_sending(self, row: OutboxRow) -> bool:
        return await self._call(self._write, self._delivery.mark_sending, row)

    async def finish(self, row: OutboxRow, sent: SentRef | None) -> bool:
        now = datetime.now(UTC)
        return await self._call(self._write, self._delivery.finish, row, sent, now)

    async def retry(self, row: OutboxRow, at: datetime, error: str) -> None:
        await self._call(self._write, self._delivery.retry, row, at, error)

    async def hold(self, row: OutboxRow, reason: str) -> None:
        await self._call(self._write, self._delivery.hold, row, reason)

    async def release_held(self, platform: str, chat_id: str, now: datetime) -> int:
        return await self._call(self._write, self._delivery.release_held, platform, chat_id, now)

    async def fail(self, row: OutboxRow, error: str) -> None:
        await self._call(self._write, self._delivery.fail, row, error)

    async def sent_message(self, platform: str, chat_id: str, key: str) -> SentRef | None:
        return await self._call(self._read, self._delivery.sent_message, platform, chat_id, key)

    async def sent_key(self, platform: str, chat_id: str, message_id: str) -> str | None:
        return await self._call(self._read, self._delivery.sent_key, platform, chat_id, message_id)

    async def put_sent(self, ref: SentRef) -> None:
        await self._call(self._write, self._delivery.put_sent, ref, datetime.now(UTC))

    async def forget_sent(self, platform: str, chat_id: str, key: str) -> None:
        await self._call(self._write, self._delivery.forget_sent, platform, chat_id, key)

    async def outbox_stats(self, platform: str | None = None) -> OutboxStats:
        return await self._call(self._read, self._delivery.stats, platform)

    async def claim_due_timers(
        self, now: float, owner: str, until: datetime, wall_now: datetime, limit: int = 50
    ) -> list[str]:
        return await self._call(
            self._write, self._delivery.claim_due_timers, now, owner, until, wall_now, limit
        )

    async def get_pref(self, platform: str, user_id: str, name: str) -> str | None:
        return await self._call(self._read, self._delivery.get_pref, platform, user_id, name)

    async def set_pref(self, platform: str, user_id: str, name: str, value: str | None) -> None:
        now = datetime.now(UTC)
        await self._call(self._write, self._delivery.set_pref, platform, user_id, name, value, now)

    async def prefs_named(self, platform: str, name: str) -> dict[str, str]:
        return await self._call(self._read, self._delivery.prefs_named, platform, name)

    async def pop_prefs(self, platform: str, user_id: str, prefix: str) -> dict[str, str]:
        return await self._call(self._write, self._delivery.pop_prefs, platform, user_id, prefix)

    async def purge(self, platform: str, before: datetime, limit: int = 500) -> Purged:
        return await self._call(self._write, self._delivery.purge, platform, before, limit)


def _language(state: dict[str, Any]) -> str | None:
    """The room's language, copied out of the state so it can be queried."""
    language = state.get("language")
    if language is None and isinstance(state.get("options"), dict):
        language = state["options"].get("language")
    return language if isinstance(language, str) else None


def _new_room_row(platform: str, chat_id: str, state: dict[str, Any]) -> dict[str, Any]:
    """A version-1 room row under a fresh random id (also set in ``state``)."""
    room_id = new_room_id()
    state["room_id"] = room_id
    now = datetime.now(UTC)
    return {
        "room_id": room_id,
        "platform": platform,
        "chat_id": chat_id,
        "status": RoomStatus.OPEN.value,
        "version": 1,
        "language": _language(state),
        "state": state,
        "created_at": now,
        "updated_at": now,
    }


def _round_row(record: RoundRecord) -> dict[str, Any]:
    return {
        "room_id": record.room_id,
        "round_no": record.round_no,
        "platform": record.platform,
        "chat_id": record.chat_id,
        "deck": list(record.deck),
        "salt": record.salt,
        "deck_hash": record.deck_hash,
        "seats": list(record.seats),
        "options": record.options,
        "started_at": record.started_at,
    }


def _room_record(row: Any) -> RoomRecord:
    return RoomRecord(
        room_id=row.room_id,
        platform=row.platform,
        chat_id=row.chat_id,
        state=row.state,
        version=row.version,
        status=RoomStatus(row.status),
    )
