"""The repository the table manager calls: records and the Repository protocol.

The table manager keeps each room as one JSON-ready state dict with a
version number (optimistic concurrency: a write with a stale version raises
``StaleVersion`` and the manager retries against fresh state). Rounds and
settlements are also written as records, for verification, leaderboards
and stats. ``save_room`` writes the room state together with an optional
round record and an optional settlement in ONE transaction, so an accepted
action and its consequences are stored together or not at all; a
settlement is keyed by (room_id, round_no) and written at most once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from storage.delivery import OutboxEntry, TimerChange


class StorageError(RuntimeError):
    """Base class of storage failures the manager handles."""


class StaleVersion(StorageError):
    """The room changed since it was read; reload and retry."""


class RoomExists(StorageError):
    """The chat already has an open room."""


class RoomStatus(StrEnum):
    OPEN = "open"
    CLOSED = "closed"


class Period(StrEnum):
    ALL = "all"
    WEEK = "week"  # the last 7 days
    MONTH = "month"  # the last 30 days


@dataclass(frozen=True, slots=True)
class RoomRecord:
    room_id: str
    platform: str
    chat_id: str
    state: dict[str, Any]
    version: int
    status: RoomStatus = RoomStatus.OPEN


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """A dealt round: the deck as drawn, the salt and the published hash."""

    room_id: str
    round_no: int
    platform: str
    chat_id: str
    deck: tuple[str, ...]  # card tokens, in shuffled order
    salt: str
    deck_hash: str  # hex SHA-256 shown at the deal
    seats: tuple[str, ...]  # player keys ("telegram:123", "ai:2"), in seat order
    options: dict[str, Any]
    started_at: datetime


@dataclass(frozen=True, slots=True)
class SettlementEntry:
    """One player's result in one round."""

    player_key: str  # "<platform>:<user_id>"; AI seats are "ai:<n>"
    name: str
    points: int
    is_ai: bool = False
    special: str | None = None  # declared special hand name, if any
    arrangement: dict[str, list[str]] | None = None  # head/middle/tail tokens
    scoops: int = 0  # opponents this player scooped this round
    home_run: bool = False
    auto_arranged: bool = False
    escaped: bool = False


@dataclass(frozen=True, slots=True)
class SettlementRecord:
    room_id: str
    round_no: int
    platform: str
    chat_id: str
    settled_at: datetime
    entries: tuple[SettlementEntry, ...]
    detail: dict[str, Any] = field(default_factory=dict)  # the full settlement JSON


@dataclass(frozen=True, slots=True)
class LeaderRow:
    player_key: str
    name: str
    points: int
    rounds: int
    wins: int  # rounds finished with points > 0
    scoops: int
    home_runs: int
    specials: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.rounds if self.rounds else 0.0


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A person's record across every chat of one platform."""

    player_key: str
    name: str
    points: int
    rounds: int
    wins: int
    scoops: int
    home_runs: int
    specials: int
    chats: int  # how many chats they played in
    best_round: int  # most points won in one round (0 if none)

    @property
    def win_rate(self) -> float:
        return self.wins / self.rounds if self.rounds else 0.0


class Repository(Protocol):
    """What the table manager needs from storage. All methods are async."""

    async def init(self) -> None:
        """Create/upgrade the schema (alembic) and connect."""

    async def close(self) -> None: ...

    async def create_room(
        self,
        platform: str,
        chat_id: str,
        state: dict[str, Any],
        *,
        outbox: Callable[[dict[str, Any]], Sequence[OutboxEntry]] | None = None,
    ) -> RoomRecord:
        """Allocate a room id and store version 1. Raises RoomExists when the
        chat already has an open room. The returned state has "room_id" set.
        ``outbox``: called with the new room's state (its id set) for the
        views the new room produced (the table post), which are written in
        the same transaction as the room."""

    async def load_room(self, room_id: str) -> RoomRecord | None: ...

    async def open_room_for_chat(self, platform: str, chat_id: str) -> RoomRecord | None: ...

    async def load_open_rooms(self) -> list[RoomRecord]: ...

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
        """Write the new state as version expected_version + 1 and return it,
        with the round record and settlement in the same transaction.
        Raises StaleVersion when the stored version is not expected_version.
        A settlement already stored for (room_id, round_no) is not written
        again (and does not raise). ``outbox``: the views this change
        produced, written in the same transaction (storage/delivery.py);
        ``timer``: the room's next timer, when it moved."""

    async def get_round(self, room_id: str, round_no: int) -> RoundRecord | None: ...

    async def has_settlement(self, room_id: str, round_no: int) -> bool: ...

    async def leaderboard(
        self, platform: str, chat_id: str, period: Period, now: datetime, limit: int = 10
    ) -> list[LeaderRow]: ...

    async def player_stats(self, platform: str, user_id: str) -> PlayerStats | None: ...

    # Read queries for matches, replays and skill stats (storage/history.py).

    async def room_settlements(
        self, room_id: str, first_round: int, last_round: int
    ) -> list[SettlementRecord]:
        """A room's settlements of rounds first..last, by round, with entries."""

    async def chat_settlement(
        self, platform: str, chat_id: str, n: int
    ) -> tuple[SettlementRecord | None, int]:
        """The n-th (from 1) settled round of a chat, oldest first, and how
        many the chat has."""

    async def settlement_details(
        self, platform: str, *, chat_id: str | None = None, player_key: str | None = None
    ) -> list[SettlementRecord]:
        """The settlements (detail only, no entries) of a chat, or of every
        round a person played (``player_key``), oldest first."""
