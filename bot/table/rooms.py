"""The room cache: each room's last stored record, the open room of each
chat, one lock per room, and writing a room through to the repository.

This is the one place a room is converted: read from the repository, its
JSON becomes the typed ``Room`` (``load_room``: upgraded where older,
``StoredRoomError`` where it cannot be run); written, ``Room.to_json``.
Everything else in the table works on the typed room.

A cached record may be behind the database when several processes share it;
a write with a stale version fails (``StaleVersion``) and the caller reads
the room afresh (``load(fresh=True)``) and applies its action again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.core.room import Room
from bot.core.state import Phase
from storage.api import Repository, RoomRecord, RoomStatus, RoundRecord, SettlementRecord
from storage.delivery import OutboxEntry, TimerChange

from .state import load_room


@dataclass(frozen=True, slots=True)
class Held:
    """A room as this process last stored or read it: its stored version
    and status, and the typed room (never changed in place: a transition
    works on ``room.copy()``)."""

    room_id: str
    platform: str
    chat_id: str
    room: Room
    version: int
    status: RoomStatus


def as_read(rec: RoomRecord) -> Held:
    """A record read from the repository with its room typed
    (``StoredRoomError`` for a room it cannot run)."""
    room = load_room(rec.state)
    return Held(rec.room_id, rec.platform, rec.chat_id, room, rec.version, rec.status)


def _read(rec: RoomRecord | None) -> Held | None:
    return None if rec is None else as_read(rec)


class Rooms:
    def __init__(self, repo: Repository) -> None:
        self.repo = repo
        self._locks: dict[str, asyncio.Lock] = {}
        self._records: dict[str, Held] = {}
        self._by_chat: dict[tuple[str, str], str] = {}  # (platform, chat) -> open room

    def lock(self, room_id: str) -> asyncio.Lock:
        """The room's lock: one action or timer at a time, in arrival order."""
        lock = self._locks.get(room_id)
        if lock is None:
            lock = self._locks[room_id] = asyncio.Lock()
        return lock

    def cached(self, room_id: str) -> Held | None:
        """The room as this process last stored or read it (no I/O)."""
        return self._records.get(room_id)

    async def load(self, room_id: str, fresh: bool = False) -> Held | None:
        """The room, from the cache unless ``fresh`` (then from the database)."""
        rec = None if fresh else self._records.get(room_id)
        if rec is None:
            rec = _read(await self.repo.load_room(room_id))
            if rec is not None:
                self.remember(rec)
        return rec

    async def newer(self, rec: Held) -> Held | None:
        """The room as stored now, when another process stored it since
        ``rec`` was read (None when ``rec`` is current)."""
        again = _read(await self.repo.load_room(rec.room_id))
        if again is None or again.version == rec.version:
            return None
        self.remember(again)
        return again

    async def open_in(self, platform: str, chat_id: str) -> str | None:
        """The open room of a chat."""
        rid = self._by_chat.get((platform, chat_id))
        if rid is not None and rid in self._records:
            return rid
        rec = _read(await self.repo.open_room_for_chat(platform, chat_id))
        if rec is None:
            return None
        self.remember(rec)
        return rec.room_id

    def remember(self, rec: Held) -> None:
        self._records[rec.room_id] = rec
        if rec.status is RoomStatus.OPEN and rec.room.phase != Phase.CLOSED:
            self._by_chat[(rec.platform, rec.chat_id)] = rec.room_id

    def forget(self, room_id: str) -> None:
        rec = self._records.pop(room_id, None)
        if rec is not None and self._by_chat.get((rec.platform, rec.chat_id)) == room_id:
            del self._by_chat[(rec.platform, rec.chat_id)]

    async def create(
        self,
        platform: str,
        chat_id: str,
        room: Room,
        outbox: Callable[[Room], Sequence[OutboxEntry]],
    ) -> Held:
        """A new room (``RoomExists`` when the chat has an open one); its
        first views go to the outbox with it (given the room as stored,
        with its id)."""

        def entries(stored: dict[str, Any]) -> Sequence[OutboxEntry]:
            return outbox(Room.from_json(stored))

        rec = await self.repo.create_room(platform, chat_id, room.to_json(), outbox=entries)
        held = as_read(rec)
        self.remember(held)
        return held

    async def save(
        self,
        rec: Held,
        room: Room,
        *,
        round_record: RoundRecord | None = None,
        settlement: SettlementRecord | None = None,
        outbox: Sequence[OutboxEntry] = (),
        timer: TimerChange | None = None,
    ) -> Held:
        """Store ``room`` as the version after ``rec`` (``StaleVersion`` when
        another process wrote first), with what goes in the same
        transaction; a room that closed leaves the cache."""
        closed = room.phase == Phase.CLOSED
        status = RoomStatus.CLOSED if closed else RoomStatus.OPEN
        version = await self.repo.save_room(
            rec.room_id,
            room.to_json(),
            rec.version,
            status=status,
            round_record=round_record,
            settlement=settlement,
            outbox=outbox,
            timer=timer,
        )
        saved = Held(rec.room_id, rec.platform, rec.chat_id, room, version, status)
        if closed:
            self.forget(rec.room_id)
        else:
            self.remember(saved)
        return saved
