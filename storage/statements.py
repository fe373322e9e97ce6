"""The SQL repository's statements, built once per dialect.

Building a statement per call (``.where(...).values(...)``) cost more on
SQLite than the write itself (construction plus cache-key generation);
these are built once with bind parameters, and their cache keys are
memoised, so a call only binds values.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.dialects import postgresql, sqlite

from storage.models import arrangements, players, rooms, rounds, score_ledger, settlements


@dataclass(frozen=True, slots=True)
class Statements:
    insert_room: Any
    update_room: Any
    room_by_id: Any
    open_room_by_chat: Any
    open_rooms: Any
    insert_round: Any
    round_by_key: Any
    insert_settlement: Any
    settlement_exists: Any
    insert_ledger: Any
    insert_arrangements: Any
    upsert_players: Any


def build(dialect: str) -> Statements:
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    room_columns = (
        rooms.c.room_id,
        rooms.c.platform,
        rooms.c.chat_id,
        rooms.c.state,
        rooms.c.version,
        rooms.c.status,
    )
    open_chat = (
        rooms.c.platform == bindparam("b_platform"),
        rooms.c.chat_id == bindparam("b_chat_id"),
        rooms.c.status == "open",
    )
    players_upsert = insert(players)
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
        room_by_id=select(*room_columns).where(rooms.c.room_id == bindparam("b_room_id")),
        open_room_by_chat=select(*room_columns).where(*open_chat),
        open_rooms=select(*room_columns).where(rooms.c.status == "open").order_by(rooms.c.room_id),
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
        upsert_players=players_upsert.on_conflict_do_update(
            index_elements=["player_key"],
            set_={
                "name": players_upsert.excluded.name,
                "last_seen": players_upsert.excluded.last_seen,
            },
        ),
    )
