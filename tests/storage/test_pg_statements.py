"""PostgreSQL's native path (storage/postgres.py) runs the SQLAlchemy path's
own statements, compiled once (storage/pg_statements.py), and stores what
the SQLAlchemy path stores, row for row."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import psycopg
from sqlalchemy.dialects.postgresql.psycopg import PGDialect_psycopg

from storage.api import RoomStatus, RoundRecord, SettlementEntry, SettlementRecord
from storage.delivery import OutboxEntry, TimerChange
from storage.delivery_statements import build_delivery
from storage.pg_statements import compile_statements
from storage.rows import outbox_rows, room_update
from storage.sql import SqlRepository
from storage.statements import build
from tests.storage.conftest import _libpq_dsn

NOW = datetime(2026, 6, 15, 12, 0, tzinfo=UTC)
TABLES = ("rooms", "rounds", "settlements", "score_ledger", "arrangements", "players", "outbox")


def test_the_native_sql_is_sqlalchemys_own() -> None:
    statements = build("postgresql")
    pg = compile_statements(statements, build_delivery("postgresql"))
    update = room_update("r1", {"名": "十三水"}, 3, RoomStatus.OPEN, NOW)
    sql, params = pg.update_room.bind(update)
    # What SQLAlchemy itself would send through psycopg for the same statement.
    dialect = PGDialect_psycopg(paramstyle="format")  # type: ignore[no-untyped-call]
    compiled = statements.update_room.compile(dialect=dialect, column_keys=list(update))
    assert sql == str(compiled)
    values = dict(zip(compiled.positiontup or (), params, strict=True))
    assert values["state"] == '{"名":"十三水"}'  # JSON as compact text, cast to json
    assert values["updated_at"] == datetime(2026, 6, 15, 12)  # naive UTC
    assert values["b_room_id"] == "r1" and values["b_expected"] == 3 and values["version"] == 4
    # The plain save is the same UPDATE, prepared, its parameters as text.
    assert pg.save_room.prepare.startswith("PREPARE thirteen_save_room AS UPDATE rooms SET ")
    args = pg.save_room.args(update)
    assert '{"名":"十三水"}'.encode() in args and b"2026-06-15T12:00:00" in args


def test_a_statements_own_values_are_written_into_its_sql() -> None:
    pg = compile_statements(build("postgresql"), build_delivery("postgresql"))
    rows = outbox_rows([OutboxEntry("telegram", "-1", "table:r1", "view", {"a": 1})], NOW)
    sql, params = pg.upsert_outbox.bind_many(rows)
    assert sql.count("%s") == len(params[0]) == len(rows[0])
    assert "state = 'pending'" in sql and "seq = (outbox.seq + 1)" in sql
    assert "RETURNING" not in sql  # rows written many at a time return nothing
    sql, params = pg.upsert_timer.bind({"room_id": "r1", "due_at": None})
    assert "owner = NULL" in sql and params == ["r1", None]


async def _write_a_round(url: str, native: bool) -> dict[str, list[tuple[object, ...]]]:
    """A room's life on one path: created with its table post, a round
    dealt, settled (twice: paid once), closed. Every stored row, the room id
    and the times of writing left out."""
    repo = SqlRepository(url, pg_native=native)
    await repo.init()
    assert (type(repo).__name__ == "PgRepository") == native
    try:
        room = await repo.create_room(
            "telegram",
            "-1",
            {"language": "en", "名": [1, None]},
            outbox=lambda s: [OutboxEntry("telegram", "-1", f"table:{s['room_id']}", "v", {})],
        )
        rid = room.room_id
        v = await repo.save_room(rid, {"options": {"language": "zh-Hans"}}, 1)
        dealt = RoundRecord(
            rid, 1, "telegram", "-1", ("AS", "KH"), "s", "h", ("telegram:1", "ai:2"), {"o": 1},
            NOW.astimezone(timezone(timedelta(hours=8))),
        )  # fmt: skip
        hand = OutboxEntry("telegram", "5", f"hand:{rid}:5", "v", {"p": "é"}, fresh=True)
        v = await repo.save_room(rid, {"n": 2}, v, round_record=dealt, outbox=[hand])
        entries = (
            SettlementEntry("telegram:1", "Ann", 3, arrangement={"head": ["AS"]}, home_run=True),
            SettlementEntry("ai:2", "Bot", -3, is_ai=True, special="six_pairs"),
            SettlementEntry("telegram:3", "Bob", 0, auto_arranged=True),
        )
        paid = SettlementRecord(rid, 1, "telegram", "-1", NOW, entries, {"d": [1]})
        table = OutboxEntry("telegram", "-1", f"table:{rid}", "v", {"t": 2})
        v = await repo.save_room(
            rid, {"n": 3}, v, settlement=paid, outbox=[table], timer=TimerChange(12.5)
        )
        v = await repo.save_room(
            rid, {"n": 4}, v, settlement=paid, status=RoomStatus.CLOSED, timer=TimerChange(None)
        )
    finally:
        await repo.close()
    stored: dict[str, list[tuple[object, ...]]] = {}
    with psycopg.connect(_libpq_dsn(url), autocommit=True) as conn:
        for table_name in (*TABLES, "room_timers"):
            cur = conn.execute(f"SELECT * FROM {table_name}")
            names = [d.name for d in cur.description or ()]
            rows = []
            for row in cur.fetchall():
                rows.append(
                    tuple(
                        (n, value.replace(rid, "RID") if isinstance(value, str) else value)
                        for n, value in zip(names, row, strict=True)
                        if n not in ("id", "created_at", "updated_at", "next_attempt_at")
                    )
                )
            stored[table_name] = sorted(rows, key=repr)
    return stored


async def test_both_paths_store_the_same_rows(pg_schema_url) -> None:  # type: ignore[no-untyped-def]
    native = await _write_a_round(pg_schema_url(), native=True)
    through_sqlalchemy = await _write_a_round(pg_schema_url(), native=False)
    assert native == through_sqlalchemy
    assert [len(native[t]) for t in TABLES] == [1, 1, 1, 3, 2, 2, 2]
