"""Records to rows and rows to records, for both SQL paths.

The SQLAlchemy path (storage/sql.py) and PostgreSQL's native path
(storage/postgres.py) bind these same dicts to the same statements
(storage/statements.py, storage/delivery_statements.py), each value
converted by its column's type (JSON to text). Times are made naive UTC
here, once per call, as they are stored: a row's columns' type would take
an aware one too, but converting it once costs less than once per column.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from storage.api import RoomRecord, RoomStatus, RoundRecord, SettlementRecord
from storage.common import new_room_id, split_player_key, to_utc_naive
from storage.delivery import OutboxEntry, TimerChange

Row = dict[str, Any]


def language_of(state: dict[str, Any]) -> str | None:
    """The room's language, copied out of the state so it can be queried."""
    language = state.get("language")
    if language is None and isinstance(state.get("options"), dict):
        language = state["options"].get("language")
    return language if isinstance(language, str) else None


def new_room_row(platform: str, chat_id: str, state: dict[str, Any]) -> Row:
    """A version-1 room row under a fresh random id (also set in ``state``)."""
    room_id = new_room_id()
    state["room_id"] = room_id
    now = to_utc_naive(datetime.now(UTC))
    return {
        "room_id": room_id,
        "platform": platform,
        "chat_id": chat_id,
        "status": RoomStatus.OPEN.value,
        "version": 1,
        "language": language_of(state),
        "state": state,
        "created_at": now,
        "updated_at": now,
    }


def room_update(
    room_id: str,
    state: dict[str, Any],
    expected_version: int,
    status: RoomStatus,
    now: datetime,
) -> Row:
    """The parameters of ``update_room``: ``state`` as version
    ``expected_version`` + 1, written only over ``expected_version``."""
    return {
        "b_room_id": room_id,
        "b_expected": expected_version,
        "state": state,
        "version": expected_version + 1,
        "status": status.value,
        "language": language_of(state),
        "updated_at": to_utc_naive(now),
    }


def room_of(row: Sequence[Any]) -> RoomRecord:
    """A room read by ``room_by_id`` and the like (``ROOM_COLUMNS``' order)."""
    room_id, platform, chat_id, state, version, status = row
    return RoomRecord(room_id, platform, chat_id, state, version, RoomStatus(status))


def round_row(record: RoundRecord) -> Row:
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


def round_of(row: Any) -> RoundRecord:
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


def settlement_row(record: SettlementRecord) -> Row:
    return {
        "room_id": record.room_id,
        "round_no": record.round_no,
        "platform": record.platform,
        "chat_id": record.chat_id,
        "settled_at": record.settled_at,
        "detail": record.detail,
    }


def settlement_rows(record: SettlementRecord) -> tuple[list[Row], list[Row], list[Row]]:
    """The rows one settlement adds besides its own: (ledger, arrangements,
    people). People come sorted by key, so two settlements upserting the
    same people lock their rows in one order and cannot deadlock each other."""
    base = {"room_id": record.room_id, "round_no": record.round_no}
    settled_at = to_utc_naive(record.settled_at)
    ledger = [
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
            "settled_at": settled_at,
        }
        for e in record.entries
    ]
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
    people = sorted(
        (
            {
                "player_key": e.player_key,
                "platform": split_player_key(e.player_key)[0],
                "user_id": split_player_key(e.player_key)[1],
                "name": e.name,
                "last_seen": settled_at,
            }
            for e in record.entries
            if not e.is_ai
        ),
        key=lambda p: str(p["player_key"]),
    )
    return ledger, placed, people


def outbox_rows(entries: Sequence[OutboxEntry], now: datetime) -> list[Row]:
    """The parameters of ``upsert_outbox``, one dict per entry."""
    now = to_utc_naive(now)
    return [
        {
            "platform": e.platform,
            "chat_id": e.chat_id,
            "view_key": e.key,
            "kind": e.kind,
            "payload": e.payload,
            "fresh": e.fresh,
            "next_attempt_at": now,
            "created_at": now,
            # the chat's route (a subquery on chat_routes: its own parameters)
            "r_platform": e.platform,
            "r_chat_id": e.chat_id,
        }
        for e in entries
    ]


def timer_row(room_id: str, change: TimerChange) -> Row:
    """The parameters of ``upsert_timer``."""
    return {"room_id": room_id, "due_at": change.due_at}
