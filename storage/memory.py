"""An in-memory Repository: the reference behaviour, used by tests.

Every method body runs without awaiting, so under one event loop each call
is atomic; a threading lock also guards the data in case a caller uses the
repository from several threads or loops. States and records are copied in
and out through JSON, so a caller mutating a returned dict never changes
what is stored (and non-JSON state fails here just as it would in SQL).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

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
    check_belongs,
    from_utc_naive,
    json_copy,
    new_room_id,
    period_start,
    player_key,
    rank_leaders,
    to_utc_naive,
)
from storage.delivery import OutboxEntry, TimerChange
from storage.delivery_memory import MemoryDelivery


@dataclass(frozen=True, slots=True)
class _LedgerRow:
    """One player's result in one settled round (what boards and stats read)."""

    room_id: str
    round_no: int
    platform: str
    chat_id: str
    player_key: str
    name: str
    points: int
    win: bool
    scoops: int
    home_run: bool
    special: str | None
    is_ai: bool
    settled_at: datetime  # naive UTC


class MemoryRepository(MemoryDelivery):
    """A complete Repository kept in dicts; nothing survives the process."""

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()
        self._rooms: dict[str, RoomRecord] = {}
        self._rounds: dict[tuple[str, int], RoundRecord] = {}
        self._settlements: dict[tuple[str, int], SettlementRecord] = {}
        self._arrangements: dict[tuple[str, int, str], dict[str, Any]] = {}
        self._ledger: list[_LedgerRow] = []
        self._player_names: dict[str, str] = {}

    async def init(self) -> None:
        return None

    async def close(self) -> None:
        return None

    # rooms

    def _open_rooms(self, room_ids: set[str]) -> set[str]:
        # Called under the delivery lock; save_room takes the rooms lock
        # first, so this reads without it (a dict lookup per id).
        rooms = self._rooms
        return {
            r
            for r in room_ids
            if (room := rooms.get(r)) is not None and room.status == RoomStatus.OPEN
        }

    def _open_room(self, platform: str, chat_id: str) -> RoomRecord | None:
        for room in self._rooms.values():
            if (
                room.status == RoomStatus.OPEN
                and room.platform == platform
                and room.chat_id == chat_id
            ):
                return room
        return None

    @staticmethod
    def _out(room: RoomRecord) -> RoomRecord:
        return replace(room, state=json_copy(room.state))

    async def create_room(
        self,
        platform: str,
        chat_id: str,
        state: dict[str, Any],
        *,
        outbox: Callable[[dict[str, Any]], Sequence[OutboxEntry]] | None = None,
    ) -> RoomRecord:
        stored_state = json_copy(state)
        with self._lock:
            if self._open_room(platform, chat_id) is not None:
                raise RoomExists(f"chat {platform}:{chat_id} already has an open room")
            room_id = new_room_id()
            while room_id in self._rooms:
                room_id = new_room_id()
            stored_state["room_id"] = room_id
            room = RoomRecord(room_id, platform, chat_id, stored_state, 1, RoomStatus.OPEN)
            entries = tuple(outbox(json_copy(stored_state))) if outbox is not None else ()
            self._rooms[room_id] = room
            if entries:
                with self._dlock:
                    self._upsert(entries, datetime.now(UTC))
            return self._out(room)

    async def load_room(self, room_id: str) -> RoomRecord | None:
        with self._lock:
            room = self._rooms.get(room_id)
            return None if room is None else self._out(room)

    async def open_room_for_chat(self, platform: str, chat_id: str) -> RoomRecord | None:
        with self._lock:
            room = self._open_room(platform, chat_id)
            return None if room is None else self._out(room)

    async def load_open_rooms(self) -> list[RoomRecord]:
        with self._lock:
            return [
                self._out(room)
                for room in sorted(self._rooms.values(), key=lambda r: r.room_id)
                if room.status == RoomStatus.OPEN
            ]

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
        stored_state = json_copy(state)
        status = RoomStatus(status)
        with self._lock:
            room = self._rooms.get(room_id)
            if room is None or room.version != expected_version:
                raise StaleVersion(f"room {room_id} is not at version {expected_version}")
            if status == RoomStatus.OPEN and room.status != RoomStatus.OPEN:
                other = self._open_room(room.platform, room.chat_id)
                if other is not None:
                    raise RoomExists(
                        f"chat {room.platform}:{room.chat_id} already has an open room"
                    )
            # Everything below is checked already, so the writes cannot fail half way.
            new_version = expected_version + 1
            self._rooms[room_id] = replace(
                room, state=stored_state, version=new_version, status=status
            )
            if round_record is not None:
                key = (room_id, round_record.round_no)
                self._rounds.setdefault(key, _copy_round(round_record))
            if settlement is not None:
                self._settle(settlement)
            if outbox or timer is not None:
                with self._dlock:
                    self._upsert(outbox, datetime.now(UTC))
                    if timer is not None:
                        self._set_timer(room_id, timer)
            return new_version

    def _settle(self, settlement: SettlementRecord) -> None:
        key = (settlement.room_id, settlement.round_no)
        if key in self._settlements:
            return  # written once: a retried round never pays twice
        self._settlements[key] = replace(settlement, detail=json_copy(settlement.detail))
        settled_at = to_utc_naive(settlement.settled_at)
        for entry in settlement.entries:
            self._ledger.append(
                _LedgerRow(
                    room_id=settlement.room_id,
                    round_no=settlement.round_no,
                    platform=settlement.platform,
                    chat_id=settlement.chat_id,
                    player_key=entry.player_key,
                    name=entry.name,
                    points=entry.points,
                    win=entry.points > 0,
                    scoops=entry.scoops,
                    home_run=entry.home_run,
                    special=entry.special,
                    is_ai=entry.is_ai,
                    settled_at=settled_at,
                )
            )
            if not entry.is_ai:
                self._player_names[entry.player_key] = entry.name
            if entry.arrangement is not None or entry.special is not None:
                self._arrangements[(*key, entry.player_key)] = {
                    "lanes": json_copy(entry.arrangement),
                    "special": entry.special,
                    "auto_arranged": entry.auto_arranged,
                    "escaped": entry.escaped,
                }

    # rounds and settlements

    async def get_round(self, room_id: str, round_no: int) -> RoundRecord | None:
        with self._lock:
            record = self._rounds.get((room_id, round_no))
            return None if record is None else _copy_round(record)

    async def has_settlement(self, room_id: str, round_no: int) -> bool:
        with self._lock:
            return (room_id, round_no) in self._settlements

    # leaderboards and stats

    async def leaderboard(
        self, platform: str, chat_id: str, period: Period, now: datetime, limit: int = 10
    ) -> list[LeaderRow]:
        since = period_start(Period(period), now)
        with self._lock:
            rows = [
                row
                for row in self._ledger
                if row.platform == platform
                and row.chat_id == chat_id
                and not row.is_ai
                and (since is None or row.settled_at >= since)
            ]
            names = dict(self._player_names)
        totals: dict[str, list[int]] = {}
        for row in rows:
            t = totals.setdefault(row.player_key, [0, 0, 0, 0, 0, 0])
            t[0] += row.points
            t[1] += 1
            t[2] += int(row.win)
            t[3] += row.scoops
            t[4] += int(row.home_run)
            t[5] += int(row.special is not None)
        leaders = [LeaderRow(key, names.get(key, key), *t) for key, t in totals.items()]
        return rank_leaders(leaders, limit)

    async def player_stats(self, platform: str, user_id: str) -> PlayerStats | None:
        key = player_key(platform, user_id)
        with self._lock:
            rows = [r for r in self._ledger if r.player_key == key and not r.is_ai]
            name = self._player_names.get(key, key)
        if not rows:
            return None
        return PlayerStats(
            player_key=key,
            name=name,
            points=sum(r.points for r in rows),
            rounds=len(rows),
            wins=sum(r.win for r in rows),
            scoops=sum(r.scoops for r in rows),
            home_runs=sum(r.home_run for r in rows),
            specials=sum(r.special is not None for r in rows),
            chats=len({r.chat_id for r in rows}),
            best_round=max(0, max(r.points for r in rows)),
        )

    # matches, replays and skill stats

    def _out_settlement(self, record: SettlementRecord, entries: bool = True) -> SettlementRecord:
        return replace(
            record,
            detail=json_copy(record.detail),
            entries=tuple(record.entries) if entries else (),
            settled_at=from_utc_naive(to_utc_naive(record.settled_at)),
        )

    async def room_settlements(
        self, room_id: str, first_round: int, last_round: int
    ) -> list[SettlementRecord]:
        with self._lock:
            found = [
                s
                for (rid, no), s in self._settlements.items()
                if rid == room_id and first_round <= no <= last_round
            ]
            return [self._out_settlement(s) for s in sorted(found, key=lambda s: s.round_no)]

    def _chat_rounds(self, platform: str, chat_id: str) -> list[SettlementRecord]:
        found = [
            s for s in self._settlements.values() if s.platform == platform and s.chat_id == chat_id
        ]
        return sorted(found, key=lambda s: (to_utc_naive(s.settled_at), s.room_id, s.round_no))

    async def chat_settlement(
        self, platform: str, chat_id: str, n: int
    ) -> tuple[SettlementRecord | None, int]:
        with self._lock:
            found = self._chat_rounds(platform, chat_id)
            if not 1 <= n <= len(found):
                return None, len(found)
            return self._out_settlement(found[n - 1]), len(found)

    async def settlement_details(
        self, platform: str, *, chat_id: str | None = None, player_key: str | None = None
    ) -> list[SettlementRecord]:
        with self._lock:
            if player_key is not None:
                found = [
                    s
                    for s in self._settlements.values()
                    if any(e.player_key == player_key for e in s.entries)
                ]
                found.sort(key=lambda s: (to_utc_naive(s.settled_at), s.room_id, s.round_no))
            else:
                found = self._chat_rounds(platform, chat_id or "")
            return [self._out_settlement(s, entries=False) for s in found]


def _copy_round(record: RoundRecord) -> RoundRecord:
    return replace(
        record,
        deck=tuple(record.deck),
        seats=tuple(record.seats),
        options=json_copy(record.options),
        started_at=from_utc_naive(to_utc_naive(record.started_at)),
    )
