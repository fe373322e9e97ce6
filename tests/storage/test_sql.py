"""What only the SQL repository has: migrations, reopening a database,
URL handling. Runs on SQLite and PostgreSQL (see conftest)."""

from __future__ import annotations

from datetime import UTC, datetime

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect, text

from storage.api import Period, RoomStatus
from storage.models import metadata
from storage.sql import MIGRATIONS, SqlRepository, normalize_url
from tests.storage.records import entry, round_record, settle_round

NOW = datetime(2026, 6, 15, 12, 0, tzinfo=UTC)
TABLES = {"players", "rooms", "rounds", "settlements", "arrangements", "score_ledger"}


def _head() -> str:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return ScriptDirectory.from_config(config).get_current_head()


async def test_migrations_from_empty(sql_backend) -> None:
    engine = create_engine(normalize_url(sql_backend.url))
    try:
        with engine.connect() as conn:
            assert not TABLES & set(inspect(conn).get_table_names())
        await sql_backend.new()
        await sql_backend.new()  # a second init on a current schema is a no-op
        with engine.connect() as conn:
            assert set(inspect(conn).get_table_names()) >= TABLES
            version = conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
            assert version == _head()
            # The migrations build exactly what the models describe.
            diff = compare_metadata(MigrationContext.configure(conn), metadata)
            assert diff == []
            indexes = {i["name"]: i for i in inspect(conn).get_indexes("rooms")}
            assert indexes["uq_rooms_open_chat"]["unique"]
    finally:
        engine.dispose()


async def test_reopened_database_sees_everything(sql_backend) -> None:
    first = await sql_backend.new()
    room = await first.create_room("telegram", "-100", {"phase": "arranging", "language": "en"})
    closed = await first.create_room("telegram", "-200", {})
    await first.save_room(closed.room_id, {}, 1, status=RoomStatus.CLOSED)
    v = await first.save_room(
        room.room_id, {**room.state, "round": 1}, 1, round_record=round_record(room.room_id, 1)
    )
    await settle_round(first, room, 1, [entry("telegram:1", 3), entry("telegram:2", -3)])
    await first.close()

    second = SqlRepository(sql_backend.url)
    await second.init()
    sql_backend.opened.append(second)
    reopened = await second.load_room(room.room_id)
    assert reopened.version == v + 1 and reopened.state["language"] == "en"
    assert [r.room_id for r in await second.load_open_rooms()] == [room.room_id]
    assert (await second.load_room(closed.room_id)).status == RoomStatus.CLOSED
    assert await second.get_round(room.room_id, 1) == round_record(room.room_id, 1)
    assert await second.has_settlement(room.room_id, 1)
    board = await second.leaderboard("telegram", "-100", Period.ALL, NOW)
    assert [(r.player_key, r.points) for r in board] == [("telegram:1", 3), ("telegram:2", -3)]
    assert (await second.player_stats("telegram", "2")).points == -3
    # ...and carries on from the stored version.
    assert await second.save_room(room.room_id, {"phase": "lobby"}, reopened.version) == v + 2


async def test_in_memory_sqlite_url() -> None:
    repo = SqlRepository("sqlite://")
    await repo.init()
    try:
        room = await repo.create_room("telegram", "-1", {"a": 1})
        assert await repo.save_room(room.room_id, {"a": 2}, 1) == 2
        assert (await repo.load_room(room.room_id)).state == {"a": 2}
    finally:
        await repo.close()


def test_urls() -> None:
    assert normalize_url("postgresql://u@h:5432/db").drivername == "postgresql+psycopg"
    assert normalize_url("postgres://u@h/db").drivername == "postgresql+psycopg"
    assert normalize_url("postgresql+psycopg://u@h/db").drivername == "postgresql+psycopg"
    assert normalize_url("sqlite:///thirteen.db").database == "thirteen.db"
    assert SqlRepository().url.render_as_string() == "sqlite:///thirteen.db"


async def test_settlement_rows_land_in_their_tables(sql_backend) -> None:
    repo = await sql_backend.new()
    room = await repo.create_room("telegram", "-100", {"language": "zh-Hant"})
    lanes = {"head": ["AS", "AH", "2C"], "middle": ["KS"] * 5, "tail": ["QS"] * 5}
    entries = [
        entry("telegram:1", 5, name="Ann", arrangement=lanes, auto_arranged=True),
        entry("telegram:2", -2, name="Bo", special="six_pairs"),
        entry("ai:3", -3, is_ai=True),
    ]
    await settle_round(repo, room, 1, entries, settled_at=NOW)
    await settle_round(repo, room, 2, [entry("telegram:1", 1, name="Ann B")], settled_at=NOW)
    engine = create_engine(normalize_url(sql_backend.url))
    try:
        with engine.connect() as conn:
            ledger = conn.execute(
                text("SELECT round_no, player_key, points, win, is_ai FROM score_ledger"
                     " ORDER BY round_no, player_key")
            ).all()  # fmt: skip
            assert [tuple(r) for r in ledger] == [
                (1, "ai:3", -3, False, True),
                (1, "telegram:1", 5, True, False),
                (1, "telegram:2", -2, False, False),
                (2, "telegram:1", 1, True, False),
            ]
            placed = conn.execute(
                text(
                    "SELECT player_key, special, auto_arranged FROM arrangements ORDER BY player_key"
                )
            ).all()
            assert [tuple(r) for r in placed] == [
                ("telegram:1", None, True),
                ("telegram:2", "six_pairs", False),
            ]
            people = conn.execute(
                text("SELECT player_key, platform, user_id, name FROM players ORDER BY player_key")
            ).all()
            assert [tuple(r) for r in people] == [
                ("telegram:1", "telegram", "1", "Ann B"),  # the name last seen
                ("telegram:2", "telegram", "2", "Bo"),
            ]
            language = conn.execute(
                text("SELECT language FROM rooms WHERE room_id = :r"), {"r": room.room_id}
            ).scalar_one()
            assert language == "zh-Hant"
    finally:
        engine.dispose()
