"""The stored tables (sqlmodel). The alembic migrations in storage/migrations
create exactly these; change both together.

Times are naive UTC (SQLite keeps no zone). The score ledger holds one row
per player per settled round, copied out of the settlement, so leaderboards
and stats are single aggregate queries over one indexed table.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Column, DateTime, Index, Table, UniqueConstraint, text
from sqlalchemy.types import TypeDecorator
from sqlmodel import Field, SQLModel

from storage.common import from_utc_naive, to_utc_naive


class UtcDateTime(TypeDecorator[datetime]):
    """Stored as naive UTC in both dialects (SQLite keeps no zone, and a plain
    timestamp compares the same everywhere); handed back as aware UTC."""

    impl = DateTime(timezone=False)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: object) -> datetime | None:
        return None if value is None else to_utc_naive(value)

    def process_result_value(self, value: datetime | None, dialect: object) -> datetime | None:
        return None if value is None else from_utc_naive(value)


class Player(SQLModel, table=True):
    """A person on one platform; the name is the one last seen in a settlement."""

    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("platform", "user_id", name="uq_players_platform_user"),)

    player_key: str = Field(primary_key=True, max_length=96)  # "<platform>:<user_id>"
    platform: str = Field(max_length=32)
    user_id: str = Field(max_length=64)
    name: str = Field(max_length=256)
    last_seen: datetime = Field(sa_type=UtcDateTime)


class Room(SQLModel, table=True):
    """One table in one chat; ``state`` is the manager's snapshot, guarded by ``version``."""

    __tablename__ = "rooms"
    __table_args__ = (
        # At most one OPEN room per chat, enforced by the database itself so
        # two bot processes cannot both open one (partial index: both dialects).
        Index(
            "uq_rooms_open_chat",
            "platform",
            "chat_id",
            unique=True,
            sqlite_where=text("status = 'open'"),
            postgresql_where=text("status = 'open'"),
        ),
        Index("ix_rooms_status", "status"),
    )

    room_id: str = Field(primary_key=True, max_length=16)
    platform: str = Field(max_length=32)
    chat_id: str = Field(max_length=64)
    status: str = Field(max_length=16)
    version: int
    language: str | None = Field(default=None, max_length=16)
    state: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    created_at: datetime = Field(sa_type=UtcDateTime)
    updated_at: datetime = Field(sa_type=UtcDateTime)


class Round(SQLModel, table=True):
    """A dealt round: the deck as drawn, its salt and the hash shown at the deal."""

    __tablename__ = "rounds"

    room_id: str = Field(
        foreign_key="rooms.room_id", ondelete="CASCADE", primary_key=True, max_length=16
    )
    round_no: int = Field(primary_key=True)
    platform: str = Field(max_length=32)
    chat_id: str = Field(max_length=64)
    deck: list[str] = Field(sa_column=Column(JSON, nullable=False))
    salt: str = Field(max_length=128)
    deck_hash: str = Field(max_length=128)
    seats: list[str] = Field(sa_column=Column(JSON, nullable=False))
    options: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    started_at: datetime = Field(sa_type=UtcDateTime)


class Settlement(SQLModel, table=True):
    """A settled round; the primary key (room_id, round_no) is what makes
    a settlement write-once."""

    __tablename__ = "settlements"

    room_id: str = Field(
        foreign_key="rooms.room_id", ondelete="CASCADE", primary_key=True, max_length=16
    )
    round_no: int = Field(primary_key=True)
    platform: str = Field(max_length=32)
    chat_id: str = Field(max_length=64)
    settled_at: datetime = Field(sa_type=UtcDateTime)
    detail: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))


class Arrangement(SQLModel, table=True):
    """How one player set (or declared) their hand in one settled round."""

    __tablename__ = "arrangements"

    room_id: str = Field(primary_key=True, max_length=16)
    round_no: int = Field(primary_key=True)
    player_key: str = Field(primary_key=True, max_length=96)
    lanes: dict[str, list[str]] | None = Field(default=None, sa_column=Column(JSON))
    special: str | None = Field(default=None, max_length=64)
    auto_arranged: bool = False
    escaped: bool = False


class ScoreLedger(SQLModel, table=True):
    """One row per player per settled round: what leaderboards and stats sum."""

    __tablename__ = "score_ledger"
    __table_args__ = (
        Index("ix_score_ledger_chat_time", "platform", "chat_id", "settled_at"),
        Index("ix_score_ledger_player", "player_key"),
    )

    room_id: str = Field(primary_key=True, max_length=16)
    round_no: int = Field(primary_key=True)
    player_key: str = Field(primary_key=True, max_length=96)
    platform: str = Field(max_length=32)
    chat_id: str = Field(max_length=64)
    name: str = Field(max_length=256)
    points: int
    win: bool
    scoops: int = 0
    home_run: bool = False
    special: str | None = Field(default=None, max_length=64)
    is_ai: bool = False
    settled_at: datetime = Field(sa_type=UtcDateTime)


class Outbox(SQLModel, table=True):
    """A view waiting to reach a chat (docs/delivery.md). One row per
    (platform, chat, key): a later state of the same message replaces the
    payload in place (``seq`` + 1), so only the latest state is sent."""

    __tablename__ = "outbox"
    __table_args__ = (
        UniqueConstraint("platform", "chat_id", "view_key", name="uq_outbox_key"),
        Index("ix_outbox_due", "platform", "state", "next_attempt_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    platform: str = Field(max_length=32)
    chat_id: str = Field(max_length=64)  # where it goes: the group, or the user's private chat
    view_key: str = Field(max_length=200)
    kind: str = Field(max_length=16)
    payload: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    fresh: bool = False
    seq: int = 1
    state: str = Field(max_length=16)  # pending | sending | failed
    attempts: int = 0
    next_attempt_at: datetime = Field(sa_type=UtcDateTime)
    created_at: datetime = Field(sa_type=UtcDateTime)
    last_error: str | None = Field(default=None, max_length=512)
    # The chat's routing key when the row was written (chat_routes; Discord:
    # the channel's guild id), so a shard process's poller selects the rows
    # of its own guilds in SQL. None: not bound to a shard (a DM, a chat
    # not seen since routes were recorded).
    route: int | None = Field(default=None, sa_type=BigInteger)


class ChatRoute(SQLModel, table=True):
    """Which shard-routing key a chat belongs to (Discord: a channel's
    guild id), recorded by the adapter when it first sees the chat, so a row
    written for that chat by any process carries it."""

    __tablename__ = "chat_routes"

    platform: str = Field(primary_key=True, max_length=32)
    chat_id: str = Field(primary_key=True, max_length=64)
    route: int = Field(sa_type=BigInteger)
    updated_at: datetime = Field(sa_type=UtcDateTime)


class DeliveryLane(SQLModel, table=True):
    """Which process delivers to a chat right now (a lease), so one chat's
    messages go out in order from one sender across processes."""

    __tablename__ = "delivery_lanes"

    platform: str = Field(primary_key=True, max_length=32)
    chat_id: str = Field(primary_key=True, max_length=64)
    owner: str = Field(max_length=64)
    lease_until: datetime = Field(sa_type=UtcDateTime)


class SentMessage(SQLModel, table=True):
    """The platform message that shows a view key in a chat, and what it
    shows, so any process (and a restarted one) edits that same message."""

    __tablename__ = "messages"
    __table_args__ = (Index("ix_messages_platform_id", "platform", "chat_id", "message_id"),)

    platform: str = Field(primary_key=True, max_length=32)
    chat_id: str = Field(primary_key=True, max_length=64)
    view_key: str = Field(primary_key=True, max_length=200)
    message_id: str = Field(max_length=64)
    fingerprint: str | None = Field(default=None, max_length=64)
    round_tag: str | None = Field(default=None, max_length=16)
    has_buttons: bool = False
    # the view's buttons as sent (payload form), so a superseded message can
    # keep the ones that still work (verify, leaderboard) and lose the rest
    buttons: list[Any] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    updated_at: datetime = Field(sa_type=UtcDateTime)


class RoomTimer(SQLModel, table=True):
    """When a room's next timer (deadline, reminder, showdown step) is due,
    in the table manager's clock (seconds), and which process holds the
    lease to fire it: any process may fire a room's timer, so a room whose
    process died still reaches its deadline."""

    __tablename__ = "room_timers"
    __table_args__ = (Index("ix_room_timers_due", "due_at"),)

    room_id: str = Field(primary_key=True, max_length=16)
    due_at: float | None = None
    owner: str | None = Field(default=None, max_length=64)
    lease_until: datetime | None = Field(default=None, sa_type=UtcDateTime)


class Pref(SQLModel, table=True):
    """A per-user preference (e.g. Discord's hand by DM)."""

    __tablename__ = "prefs"

    platform: str = Field(primary_key=True, max_length=32)
    user_id: str = Field(primary_key=True, max_length=64)
    name: str = Field(primary_key=True, max_length=64)
    value: str = Field(max_length=256)
    updated_at: datetime = Field(sa_type=UtcDateTime)


metadata = SQLModel.metadata
# SQLModel sets __table__ on each table model but does not declare it.
players: Table = Player.__table__  # type: ignore[attr-defined]
rooms: Table = Room.__table__  # type: ignore[attr-defined]
rounds: Table = Round.__table__  # type: ignore[attr-defined]
settlements: Table = Settlement.__table__  # type: ignore[attr-defined]
arrangements: Table = Arrangement.__table__  # type: ignore[attr-defined]
score_ledger: Table = ScoreLedger.__table__  # type: ignore[attr-defined]
outbox: Table = Outbox.__table__  # type: ignore[attr-defined]
delivery_lanes: Table = DeliveryLane.__table__  # type: ignore[attr-defined]
messages: Table = SentMessage.__table__  # type: ignore[attr-defined]
prefs: Table = Pref.__table__  # type: ignore[attr-defined]
room_timers: Table = RoomTimer.__table__  # type: ignore[attr-defined]
chat_routes: Table = ChatRoute.__table__  # type: ignore[attr-defined]
