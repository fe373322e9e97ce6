"""The SQL Repository: SQLite by default, PostgreSQL by URL.

A synchronous SQLAlchemy engine (Core statements, no ORM session: the hot
path is one short transaction per accepted action) runs in a private thread
pool, so the event loop never blocks on the database.

- SQLite: ONE worker thread. SQLite has a single writer anyway; funnelling
  every call through one thread and one connection means no lock contention
  and no busy-wait sleeps inside this process (those sleeps are what spoil a
  p99). WAL lets other processes read meanwhile; busy_timeout and
  ``BEGIN IMMEDIATE`` for writes cover a second process on the same file.
- PostgreSQL: a few threads over an equally sized connection pool; row
  locks and the conditional UPDATE keep concurrent writers correct.
"""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine, and_, case, create_engine, event, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.pool import StaticPool

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
from storage.common import (
    new_room_id,
    period_start,
    player_key,
    rank_leaders,
    split_player_key,
)
from storage.models import arrangements, players, rooms, rounds, score_ledger, settlements

T = TypeVar("T")

DEFAULT_URL = "sqlite:///thirteen.db"
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
_MIGRATION_LOCK_ID = 0x13_57A7E  # pg advisory lock: one process migrates at a time
_ROOM_ID_ATTEMPTS = 8


def normalize_url(database_url: str) -> URL:
    """``postgresql://`` / ``postgres://`` use psycopg 3 (the driver we ship)."""
    url = make_url(database_url)
    if url.drivername in ("postgresql", "postgres"):
        url = url.set(drivername="postgresql+psycopg")
    return url


def _compact_json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _make_engine(url: URL, pool_size: int) -> Engine:
    common: dict[str, Any] = {"json_serializer": _compact_json}
    if url.get_backend_name() != "sqlite":
        return create_engine(url, pool_size=pool_size, max_overflow=0, pool_pre_ping=True, **common)
    in_memory = url.database in (None, "", ":memory:")
    if in_memory:
        # One shared connection, or every checkout would see its own empty database.
        engine = create_engine(
            url,
            poolclass=StaticPool,
            connect_args={"check_same_thread": False},
            **common,
        )
    else:
        engine = create_engine(
            url, pool_size=1, max_overflow=0, connect_args={"check_same_thread": False}, **common
        )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Take BEGIN away from the sqlite3 module so our BEGIN (IMMEDIATE for
        # writes) is the one that runs, and DDL is transactional.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        if not in_memory:
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable at checkpoints
        cursor.execute("PRAGMA busy_timeout=5000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        # A write that starts as a reader can fail to upgrade its lock without
        # the busy handler ever waiting; IMMEDIATE takes the write lock first.
        immediate = conn.get_execution_options().get("sqlite_immediate", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine


class SqlRepository:
    """Repository over SQLAlchemy; see the module docstring for the threading."""

    def __init__(self, database_url: str = DEFAULT_URL, *, pool_size: int = 8) -> None:
        self.url = normalize_url(database_url)
        self._dialect = self.url.get_backend_name()
        workers = 1 if self._dialect == "sqlite" else max(pool_size, 1)
        self._engine = _make_engine(self.url, workers)
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="storage")
        insert_fn = postgresql.insert if self._dialect == "postgresql" else sqlite.insert
        self._insert = insert_fn

    # plumbing

    async def _call(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, functools.partial(fn, *args))

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        with self._engine.connect() as conn:
            if self._dialect == "sqlite":
                conn.execution_options(sqlite_immediate=True)
            with conn.begin():
                yield conn

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        with self._engine.connect() as conn, conn.begin():
            yield conn

    # lifecycle

    async def init(self) -> None:
        await self._call(self._migrate)

    def _migrate(self) -> None:
        from alembic import command
        from alembic.config import Config

        config = Config()  # no alembic.ini: works the same from an installed package
        config.set_main_option("script_location", str(MIGRATIONS))
        with self._write() as conn:
            if self._dialect == "postgresql":
                conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK_ID})")
            config.attributes["connection"] = conn
            command.upgrade(config, "head")

    async def close(self) -> None:
        await self._call(self._engine.dispose)
        self._executor.shutdown(wait=True)

    # rooms

    async def create_room(self, platform: str, chat_id: str, state: dict[str, Any]) -> RoomRecord:
        return await self._call(self._create_room, platform, chat_id, dict(state))

    def _create_room(self, platform: str, chat_id: str, state: dict[str, Any]) -> RoomRecord:
        for _ in range(_ROOM_ID_ATTEMPTS):
            room_id = new_room_id()
            state["room_id"] = room_id
            now = datetime.now(UTC)
            try:
                with self._write() as conn:
                    conn.execute(
                        rooms.insert().values(
                            room_id=room_id,
                            platform=platform,
                            chat_id=chat_id,
                            status=RoomStatus.OPEN.value,
                            version=1,
                            language=_language(state),
                            state=state,
                            created_at=now,
                            updated_at=now,
                        )
                    )
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
        return await self._call(self._load_room, room_id)

    def _load_room(self, room_id: str) -> RoomRecord | None:
        with self._read() as conn:
            row = conn.execute(_room_select().where(rooms.c.room_id == room_id)).first()
        return None if row is None else _room_record(row)

    async def open_room_for_chat(self, platform: str, chat_id: str) -> RoomRecord | None:
        return await self._call(self._open_room_for_chat, platform, chat_id)

    def _open_room_for_chat(self, platform: str, chat_id: str) -> RoomRecord | None:
        query = _room_select().where(
            rooms.c.platform == platform,
            rooms.c.chat_id == chat_id,
            rooms.c.status == RoomStatus.OPEN.value,
        )
        with self._read() as conn:
            row = conn.execute(query).first()
        return None if row is None else _room_record(row)

    async def load_open_rooms(self) -> list[RoomRecord]:
        return await self._call(self._load_open_rooms)

    def _load_open_rooms(self) -> list[RoomRecord]:
        query = (
            _room_select().where(rooms.c.status == RoomStatus.OPEN.value).order_by(rooms.c.room_id)
        )
        with self._read() as conn:
            return [_room_record(row) for row in conn.execute(query)]

    async def save_room(
        self,
        room_id: str,
        state: dict[str, Any],
        expected_version: int,
        *,
        status: RoomStatus = RoomStatus.OPEN,
        round_record: RoundRecord | None = None,
        settlement: SettlementRecord | None = None,
    ) -> int:
        if round_record is not None and round_record.room_id != room_id:
            raise ValueError(
                f"round record of room {round_record.room_id} saved with room {room_id}"
            )
        if settlement is not None and settlement.room_id != room_id:
            raise ValueError(f"settlement of room {settlement.room_id} saved with room {room_id}")
        return await self._call(
            self._save_room,
            room_id,
            state,
            expected_version,
            RoomStatus(status),
            round_record,
            settlement,
        )

    def _save_room(
        self,
        room_id: str,
        state: dict[str, Any],
        expected_version: int,
        status: RoomStatus,
        round_record: RoundRecord | None,
        settlement: SettlementRecord | None,
    ) -> int:
        new_version = expected_version + 1
        update = (
            rooms.update()
            .where(rooms.c.room_id == room_id, rooms.c.version == expected_version)
            .values(
                state=state,
                version=new_version,
                status=status.value,
                language=_language(state),
                updated_at=datetime.now(UTC),
            )
        )
        with self._write() as conn:
            try:
                changed = conn.execute(update).rowcount
            except IntegrityError as exc:
                # The one constraint an UPDATE can break: reopening a closed
                # room in a chat that has opened another room since.
                raise RoomExists(f"room {room_id}: its chat already has an open room") from exc
            if changed != 1:
                raise StaleVersion(f"room {room_id} is not at version {expected_version}")
            if round_record is not None:
                self._insert_round(conn, round_record)
            if settlement is not None:
                self._insert_settlement(conn, settlement)
        return new_version

    def _insert_round(self, conn: Connection, record: RoundRecord) -> None:
        conn.execute(
            self._insert(rounds)
            .values(
                room_id=record.room_id,
                round_no=record.round_no,
                platform=record.platform,
                chat_id=record.chat_id,
                deck=list(record.deck),
                salt=record.salt,
                deck_hash=record.deck_hash,
                seats=list(record.seats),
                options=record.options,
                started_at=record.started_at,
            )
            .on_conflict_do_nothing(index_elements=["room_id", "round_no"])
        )

    def _insert_settlement(self, conn: Connection, record: SettlementRecord) -> None:
        inserted = conn.execute(
            self._insert(settlements)
            .values(
                room_id=record.room_id,
                round_no=record.round_no,
                platform=record.platform,
                chat_id=record.chat_id,
                settled_at=record.settled_at,
                detail=record.detail,
            )
            .on_conflict_do_nothing(index_elements=["room_id", "round_no"])
            # RETURNING, not rowcount: drivers disagree on rowcount for upserts
            .returning(settlements.c.round_no)
        ).first()
        if inserted is None or not record.entries:
            return  # already settled: a retried round never pays twice
        base = {"room_id": record.room_id, "round_no": record.round_no}
        conn.execute(
            score_ledger.insert(),
            [
                {
                    **base,
                    "player_key": e.player_key,
                    "platform": record.platform,
                    "chat_id": record.chat_id,
                    "name": e.name,
                    "points": e.points,
                    "win": e.points > 0,
                    "scoops": e.scoops,
                    "home_run": e.home_run,
                    "special": e.special,
                    "is_ai": e.is_ai,
                    "settled_at": record.settled_at,
                }
                for e in record.entries
            ],
        )
        placed = [
            {
                **base,
                "player_key": e.player_key,
                "lanes": e.arrangement,
                "special": e.special,
                "auto_arranged": e.auto_arranged,
                "escaped": e.escaped,
            }
            for e in record.entries
            if e.arrangement is not None or e.special is not None
        ]
        if placed:
            conn.execute(arrangements.insert(), placed)
        people = [
            {
                "player_key": e.player_key,
                "platform": split_player_key(e.player_key)[0],
                "user_id": split_player_key(e.player_key)[1],
                "name": e.name,
                "last_seen": record.settled_at,
            }
            for e in record.entries
            if not e.is_ai
        ]
        if people:
            upsert = self._insert(players)
            conn.execute(
                upsert.on_conflict_do_update(
                    index_elements=["player_key"],
                    set_={"name": upsert.excluded.name, "last_seen": upsert.excluded.last_seen},
                ),
                people,
            )

    # rounds and settlements

    async def get_round(self, room_id: str, round_no: int) -> RoundRecord | None:
        return await self._call(self._get_round, room_id, round_no)

    def _get_round(self, room_id: str, round_no: int) -> RoundRecord | None:
        query = select(rounds).where(rounds.c.room_id == room_id, rounds.c.round_no == round_no)
        with self._read() as conn:
            row = conn.execute(query).first()
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
        query = select(settlements.c.round_no).where(
            settlements.c.room_id == room_id, settlements.c.round_no == round_no
        )
        with self._read() as conn:
            return conn.execute(query).first() is not None

    # leaderboards and stats

    async def leaderboard(
        self, platform: str, chat_id: str, period: Period, now: datetime, limit: int = 10
    ) -> list[LeaderRow]:
        return await self._call(self._leaderboard, platform, chat_id, Period(period), now, limit)

    def _leaderboard(
        self, platform: str, chat_id: str, period: Period, now: datetime, limit: int
    ) -> list[LeaderRow]:
        led = score_ledger.c
        conditions = [led.platform == platform, led.chat_id == chat_id, led.is_ai.is_(False)]
        since = period_start(period, now)
        if since is not None:
            conditions.append(led.settled_at >= since)
        points = func.sum(led.points)
        wins = func.sum(case((led.win, 1), else_=0))
        rounds_played = func.count()
        query = (
            select(
                led.player_key,
                func.coalesce(players.c.name, led.player_key),
                points,
                rounds_played,
                wins,
                func.sum(led.scoops),
                func.sum(case((led.home_run, 1), else_=0)),
                func.sum(case((led.special.is_not(None), 1), else_=0)),
            )
            .select_from(score_ledger.outerjoin(players, players.c.player_key == led.player_key))
            .where(and_(*conditions))
            .group_by(led.player_key, players.c.name)
            .order_by(points.desc(), wins.desc(), rounds_played, led.player_key)
            .limit(max(limit, 0))
        )
        with self._read() as conn:
            rows = conn.execute(query).all()
        return rank_leaders([LeaderRow(*(_int_tail(row, 2))) for row in rows], limit)

    async def player_stats(self, platform: str, user_id: str) -> PlayerStats | None:
        return await self._call(self._player_stats, player_key(platform, user_id))

    def _player_stats(self, key: str) -> PlayerStats | None:
        led = score_ledger.c
        query = select(
            func.sum(led.points),
            func.count(),
            func.sum(case((led.win, 1), else_=0)),
            func.sum(led.scoops),
            func.sum(case((led.home_run, 1), else_=0)),
            func.sum(case((led.special.is_not(None), 1), else_=0)),
            func.count(led.chat_id.distinct()),
            func.max(led.points),
        ).where(led.player_key == key, led.is_ai.is_(False))
        with self._read() as conn:
            row = conn.execute(query).one()
            name = conn.execute(select(players.c.name).where(players.c.player_key == key)).scalar()
        if not row[1]:
            return None
        points, count, wins, scoops, home_runs, specials, chats, best = (int(v) for v in row)
        return PlayerStats(
            player_key=key,
            name=name or key,
            points=points,
            rounds=count,
            wins=wins,
            scoops=scoops,
            home_runs=home_runs,
            specials=specials,
            chats=chats,
            best_round=max(0, best),
        )


def _language(state: dict[str, Any]) -> str | None:
    """The room's language, copied out of the state so it can be queried."""
    language = state.get("language")
    if language is None and isinstance(state.get("options"), dict):
        language = state["options"].get("language")
    return language if isinstance(language, str) else None


def _room_select() -> Any:
    return select(
        rooms.c.room_id, rooms.c.platform, rooms.c.chat_id, rooms.c.state, rooms.c.version,
        rooms.c.status,
    )  # fmt: skip


def _room_record(row: Any) -> RoomRecord:
    return RoomRecord(
        room_id=row.room_id,
        platform=row.platform,
        chat_id=row.chat_id,
        state=row.state,
        version=row.version,
        status=RoomStatus(row.status),
    )


def _int_tail(row: Any, keep: int) -> list[Any]:
    """The first ``keep`` columns as they are, the rest as ints (PostgreSQL
    sums come back as Decimal)."""
    values = list(row)
    return values[:keep] + [int(v or 0) for v in values[keep:]]
