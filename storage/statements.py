"""The rooms' statements (rooms, rounds, settlements), built once per dialect.

Building a statement per call (``.where(...).values(...)``) cost more on
SQLite than the write itself (construction plus cache-key generation);
these are built once with bind parameters, and their cache keys are
memoised, so a call only binds values. The same objects are what
PostgreSQL's native path runs (compiled for psycopg by
storage/pg_statements.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Insert, Select, Table, Update, bindparam, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.sql.dml import ReturningInsert

from storage.models import arrangements, players, rooms, rounds, score_ledger, settlements

Query = Select[*tuple[Any, ...]]
# The dialect's INSERT, the one with ON CONFLICT.
InsertOf = Callable[[Table], postgresql.Insert | sqlite.Insert]

# What a room read returns, in this order (storage/rows.py: room_of).
ROOM_COLUMNS = (
    rooms.c.room_id,
    rooms.c.platform,
    rooms.c.chat_id,
    rooms.c.state,
    rooms.c.version,
    rooms.c.status,
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Statements:
    # rooms (parameters: storage/rows.py)
    insert_room: Insert  # new_room_row
    update_room: Update  # room_update; a stale b_expected updates nothing
    room_by_id: Query  # b_room_id
    open_room_by_chat: Query  # b_platform, b_chat_id
    open_rooms: Query
    # rounds and settlements
    insert_round: Insert  # round_row; a round already stored stays as it is
    round_by_key: Query  # b_room_id, b_round_no
    insert_settlement: ReturningInsert[Any]  # settlement_row; no row back: already settled
    settlement_exists: Query  # b_room_id, b_round_no
    insert_ledger: Insert  # settlement_rows
    insert_arrangements: Insert
    upsert_players: Insert


def insert_for(dialect: str) -> InsertOf:
    return postgresql.insert if dialect == "postgresql" else sqlite.insert


def upsert(insert: InsertOf, table: Table, *replaced: str, **set_: Any) -> Insert:
    """INSERT, or where the primary key is taken, UPDATE the ``replaced``
    columns to the values given and the ``set_`` ones as said."""
    ins = insert(table)
    keys = [c.name for c in table.primary_key.columns]
    values = {name: ins.excluded[name] for name in replaced}
    return ins.on_conflict_do_update(index_elements=keys, set_={**values, **set_})


def build(dialect: str) -> Statements:
    insert = insert_for(dialect)
    open_chat = (
        rooms.c.platform == bindparam("b_platform"),
        rooms.c.chat_id == bindparam("b_chat_id"),
        rooms.c.status == "open",
    )
    return Statements(
        insert_room=rooms.insert(),
        update_room=rooms.update()
        .where(
            rooms.c.room_id == bindparam("b_room_id"), rooms.c.version == bindparam("b_expected")
        )
        .values(
            state=bindparam("state", type_=rooms.c.state.type),
            version=bindparam("version"),
            status=bindparam("status"),
            language=bindparam("language"),
            updated_at=bindparam("updated_at", type_=rooms.c.updated_at.type),
        ),
        room_by_id=select(*ROOM_COLUMNS).where(rooms.c.room_id == bindparam("b_room_id")),
        open_room_by_chat=select(*ROOM_COLUMNS).where(*open_chat),
        open_rooms=select(*ROOM_COLUMNS).where(rooms.c.status == "open").order_by(rooms.c.room_id),
        insert_round=insert(rounds).on_conflict_do_nothing(index_elements=["room_id", "round_no"]),
        round_by_key=select(rounds).where(
            rounds.c.room_id == bindparam("b_room_id"), rounds.c.round_no == bindparam("b_round_no")
        ),
        # RETURNING, not rowcount: drivers disagree on rowcount for ignored upserts.
        insert_settlement=insert(settlements)
        .on_conflict_do_nothing(index_elements=["room_id", "round_no"])
        .returning(settlements.c.round_no),
        settlement_exists=select(settlements.c.round_no).where(
            settlements.c.room_id == bindparam("b_room_id"),
            settlements.c.round_no == bindparam("b_round_no"),
        ),
        insert_ledger=score_ledger.insert(),
        insert_arrangements=arrangements.insert(),
        upsert_players=upsert(insert, players, "name", "last_seen"),
    )
