"""The SQL Repository: SQLite by default, PostgreSQL by URL.

Core statements built once (storage/statements.py,
storage/delivery_statements.py), bound to the rows of storage/rows.py, run
inline or in worker threads (storage/sql_base.py).

On PostgreSQL ``SqlRepository(url)`` makes a ``PgRepository``
(storage/postgres.py): the per-action calls (save_room, load_room,
create_room's insert) on native async psycopg on the event loop, running
these same statements compiled once (storage/pg_statements.py); the rare
ones (migrations, boards, lookups, delivery) here, in 2 worker threads.
``pg_native=False`` keeps everything here, in ``pool_size`` threads (kept
for comparison). Either way the conditional UPDATE (row lock) keeps
concurrent writers of one room correct across connections and processes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError

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
)
from storage.common import check_belongs, json_copy, period_start, player_key
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
from storage.engine import MIGRATIONS, normalize_url
from storage.rows import (
    Row,
    new_room_row,
    room_of,
    room_update,
    round_of,
    round_row,
    settlement_row,
    settlement_rows,
)
from storage.sql_base import SqlBase
from storage.statements import Query, build

__all__ = ["DEFAULT_URL", "MIGRATIONS", "SqlRepository", "normalize_url"]

DEFAULT_URL = "sqlite:///thirteen.db"
_ROOM_ID_ATTEMPTS = 8
# A database's own repository, by SQLAlchemy backend name, made by
# ``SqlRepository(url)`` in its place. Registered where the package is
# assembled (storage/__init__.py), so that this module, the base, never
# imports its subclasses.
NATIVE: dict[str, type[SqlRepository]] = {}


class SqlRepository(SqlBase):
    """The Repository and the DeliveryStore over SQLAlchemy Core (see the
    module doc; the threading: storage/sql_base.py)."""

    def __new__(
        cls,
        database_url: str = DEFAULT_URL,
        *,
        pool_size: int = 8,
        threaded: bool | None = None,
        pg_native: bool = True,
    ) -> SqlRepository:
        """With ``pg_native``, the native repository registered for the
        URL's database (``NATIVE``; PostgreSQL's is ``PgRepository``)."""
        native = NATIVE.get(normalize_url(database_url).get_backend_name())
        if cls is SqlRepository and pg_native and native is not None:
            return super().__new__(native)
        return super().__new__(cls)

    def __init__(
        self,
        database_url: str = DEFAULT_URL,
        *,
        pool_size: int = 8,
        threaded: bool | None = None,
        pg_native: bool = True,
    ) -> None:
        """``threaded``: run calls in worker threads (default for PostgreSQL)
        or inline on the event loop (default for SQLite; storage/sql_base.py).
        ``pg_native``: PostgreSQL's per-action calls on async psycopg."""
        url = normalize_url(database_url)
        sqlite = url.get_backend_name() == "sqlite"
        super().__init__(
            url,
            workers=1 if sqlite else self._workers(pool_size),
            threaded=(not sqlite) if threaded is None else threaded,
        )
        self._sql = build(self._dialect)
        self._delivery = SqlDelivery(self._dialect)

    def _workers(self, pool_size: int) -> int:
        """Worker threads (one connection each) on a database server."""
        return max(pool_size, 1)

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
        for _ in range(_ROOM_ID_ATTEMPTS):
            row = new_room_row(platform, chat_id, state)
            # Built for this id (a taken id is tried again under another one).
            entries = tuple(outbox(state)) if outbox is not None else ()
            if await self._insert_room(row, entries):
                return RoomRecord(row["room_id"], platform, chat_id, state, 1, RoomStatus.OPEN)
            # Either the chat has an open room (maybe opened by another
            # process a moment ago) or the random id was taken: tell apart.
            if await self.open_room_for_chat(platform, chat_id) is not None:
                raise RoomExists(f"chat {platform}:{chat_id} already has an open room")
        raise RuntimeError("could not allocate a free room id")

    async def _insert_room(self, row: Row, outbox: Sequence[OutboxEntry]) -> bool:
        """Insert the room ``row`` and its views in one transaction; False
        when a unique constraint refused it (the chat's open room, the id)."""
        return await self._call(self._insert_room_now, row, outbox)

    def _insert_room_now(self, row: Row, outbox: Sequence[OutboxEntry]) -> bool:
        try:
            with self._conns.write() as conn:
                conn.execute(self._sql.insert_room, row)
                if outbox:
                    self._delivery.enqueue(conn, outbox, row["created_at"])
        except IntegrityError:
            return False
        return True

    async def load_room(self, room_id: str) -> RoomRecord | None:
        return await self._call(
            self._read, self._one_room, self._sql.room_by_id, {"b_room_id": room_id}
        )

    async def open_room_for_chat(self, platform: str, chat_id: str) -> RoomRecord | None:
        params = {"b_platform": platform, "b_chat_id": chat_id}
        return await self._call(self._read, self._one_room, self._sql.open_room_by_chat, params)

    @staticmethod
    def _one_room(conn: Connection, query: Query, params: Row) -> RoomRecord | None:
        row = conn.execute(query, params).first()
        return None if row is None else room_of(row)

    async def load_open_rooms(self) -> list[RoomRecord]:
        return await self._call(self._read, self._open_rooms)

    def _open_rooms(self, conn: Connection) -> list[RoomRecord]:
        return [room_of(row) for row in conn.execute(self._sql.open_rooms)]

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
        check_belongs(room_id, round_record, settlement)
        now = datetime.now(UTC)
        update = room_update(room_id, state, expected_version, RoomStatus(status), now)
        return await self._save(update, round_record, settlement, tuple(outbox), timer)

    async def _save(
        self,
        update: Row,
        round_record: RoundRecord | None,
        settlement: SettlementRecord | None,
        outbox: Sequence[OutboxEntry],
        timer: TimerChange | None,
    ) -> int:
        """``update_room`` with ``update`` (storage/rows.py: room_update) and
        the rest in the same transaction; the new version."""
        return await self._call(
            self._write, self._save_now, update, round_record, settlement, outbox, timer
        )

    def _save_now(
        self,
        conn: Connection,
        update: Row,
        round_record: RoundRecord | None,
        settlement: SettlementRecord | None,
        outbox: Sequence[OutboxEntry],
        timer: TimerChange | None,
    ) -> int:
        try:
            changed = conn.execute(self._sql.update_room, update).rowcount
        except IntegrityError as exc:
            raise reopened(update) from exc
        if changed != 1:
            raise stale(update)
        if round_record is not None:
            conn.execute(self._sql.insert_round, round_row(round_record))
        if settlement is not None:
            self._insert_settlement(conn, settlement)
        if outbox:
            self._delivery.enqueue(conn, outbox, update["updated_at"])
        if timer is not None:
            self._delivery.set_timer(conn, update["b_room_id"], timer)
        return int(update["version"])

    def _insert_settlement(self, conn: Connection, record: SettlementRecord) -> None:
        inserted = conn.execute(self._sql.insert_settlement, settlement_row(record)).first()
        if inserted is None or not record.entries:
            return  # already settled: a retried round never pays twice
        ledger, placed, people = settlement_rows(record)
        conn.execute(self._sql.insert_ledger, ledger)
        if placed:
            conn.execute(self._sql.insert_arrangements, placed)
        if people:
            conn.execute(self._sql.upsert_players, people)

    # rounds and settlements

    async def get_round(self, room_id: str, round_no: int) -> RoundRecord | None:
        return await self._call(self._read, self._get_round, room_id, round_no)

    def _get_round(self, conn: Connection, room_id: str, round_no: int) -> RoundRecord | None:
        params = {"b_room_id": room_id, "b_round_no": round_no}
        row = conn.execute(self._sql.round_by_key, params).first()
        return None if row is None else round_of(row)

    async def has_settlement(self, room_id: str, round_no: int) -> bool:
        return await self._call(self._read, self._has_settlement, room_id, round_no)

    def _has_settlement(self, conn: Connection, room_id: str, round_no: int) -> bool:
        params = {"b_room_id": room_id, "b_round_no": round_no}
        return conn.execute(self._sql.settlement_exists, params).first() is not None

    # leaderboards and stats (rare, so built per call: storage/boards.py)

    async def leaderboard(
        self, platform: str, chat_id: str, period: Period, now: datetime, limit: int = 10
    ) -> list[LeaderRow]:
        since = period_start(Period(period), now)
        return await self._call(self._read, boards.leaderboard, platform, chat_id, since, limit)

    async def player_stats(self, platform: str, user_id: str) -> PlayerStats | None:
        return await self._call(self._read, boards.player_stats, player_key(platform, user_id))

    async def room_settlements(
        self, room_id: str, first_round: int, last_round: int
    ) -> list[SettlementRecord]:
        return await self._call(
            self._read, history.room_settlements, room_id, first_round, last_round
        )

    async def chat_settlement(
        self, platform: str, chat_id: str, n: int
    ) -> tuple[SettlementRecord | None, int]:
        return await self._call(self._read, history.chat_settlement, platform, chat_id, n)

    async def settlement_details(
        self, platform: str, *, chat_id: str | None = None, player_key: str | None = None
    ) -> list[SettlementRecord]:
        return await self._call(
            self._read, history.settlement_details, platform, chat_id, player_key
        )

    # durable delivery (storage/delivery.py; the statements in delivery_sql.py)

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

    async def lane_rows(self, platform: str, chat_id: str, now: datetime) -> list[OutboxRow]:
        return await self._call(self._read, self._delivery.lane_rows, platform, chat_id, now)

    async def mark_sending(self, row: OutboxRow) -> bool:
        return await self._call(self._write, self._delivery.mark_sending, row)

    async def finish(self, row: OutboxRow, sent: SentRef | None) -> bool:
        now = datetime.now(UTC)
        return await self._call(self._write, self._delivery.finish, row, sent, now)

    async def retry(
        self, row: OutboxRow, at: datetime, error: str, *, still_a_post: bool = False
    ) -> None:
        await self._call(self._write, self._delivery.retry, row, at, error, still_a_post)

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


def stale(update: Row) -> StaleVersion:
    """The room of ``update`` (rows.room_update) is not at its expected version."""
    return StaleVersion(f"room {update['b_room_id']} is not at version {update['b_expected']}")


def reopened(update: Row) -> RoomExists:
    """The one constraint an UPDATE of a room can break: reopening a closed
    room in a chat that has opened another room since."""
    return RoomExists(f"room {update['b_room_id']}: its chat already has an open room")
