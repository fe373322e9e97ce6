"""Durable delivery kept in dicts (MemoryRepository's part of DeliveryStore):
the same semantics as storage/delivery_sql.py, for tests and the console."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime

from storage.common import json_copy
from storage.delivery import (
    OutboxEntry,
    OutboxRow,
    OutboxState,
    OutboxStats,
    Purged,
    SentRef,
    Shards,
    TimerChange,
    room_part,
)
from storage.delivery_sql import ERROR_CHARS

_LIVE = (OutboxState.PENDING, OutboxState.SENDING)


class MemoryDelivery:
    def __init__(self) -> None:
        self._dlock = threading.Lock()
        self._outbox: dict[tuple[str, str, str], OutboxRow] = {}
        self._ids = itertools.count(1)
        self._lanes: dict[tuple[str, str], tuple[str, datetime]] = {}
        self._sent: dict[tuple[str, str, str], SentRef] = {}
        self._prefs: dict[tuple[str, str, str], str] = {}
        self._routes: dict[tuple[str, str], int] = {}
        self._pref_at: dict[tuple[str, str, str], datetime] = {}
        # room -> [due_at, owner, lease_until]
        self._timers: dict[str, tuple[float | None, str | None, datetime | None]] = {}

    def _set_timer(self, room_id: str, change: TimerChange) -> None:
        self._timers[room_id] = (change.due_at, None, None)

    async def claim_due_timers(
        self, now: float, owner: str, until: datetime, wall_now: datetime, limit: int = 50
    ) -> list[str]:
        with self._dlock:
            due = sorted(
                (t[0], room)
                for room, t in self._timers.items()
                if t[0] is not None and t[0] <= now and (t[2] is None or t[2] < wall_now)
            )[:limit]
            for due_at, room in due:
                self._timers[room] = (due_at, owner, until)
            return [room for _, room in due]

    def _upsert(self, entries: Sequence[OutboxEntry], now: datetime) -> None:
        for e in entries:
            key = (e.platform, e.chat_id, e.key)
            old = self._outbox.get(key)
            payload = json_copy(e.payload)
            route = self._routes.get((e.platform, e.chat_id))
            if old is None:
                self._outbox[key] = OutboxRow(
                    next(self._ids), e.platform, e.chat_id, e.key, e.kind, payload,
                    e.fresh, 1, OutboxState.PENDING, 0, now, now, None, route,
                )  # fmt: skip
            else:
                still_a_post = old.state is OutboxState.PENDING and old.fresh
                fresh = e.fresh or still_a_post
                self._outbox[key] = replace(
                    old,
                    kind=e.kind,
                    payload=payload,
                    fresh=fresh,
                    seq=old.seq + 1,
                    state=OutboxState.PENDING,
                    attempts=0,
                    next_attempt_at=now,
                    # a post keeps what its tries left (one that may have
                    # been made is not made again)
                    last_error=old.last_error if still_a_post else None,
                    route=old.route if route is None else route,
                )

    def _current(self, row: OutboxRow) -> OutboxRow | None:
        found = self._outbox.get((row.platform, row.chat_id, row.key))
        return found if found is not None and found.id == row.id else None

    async def enqueue(self, entries: Sequence[OutboxEntry], now: datetime) -> None:
        with self._dlock:
            self._upsert(entries, now)

    async def due_lanes(
        self, platform: str, now: datetime, limit: int = 100, shards: Shards | None = None
    ) -> list[str]:
        with self._dlock:
            firsts: dict[str, int] = {}
            for r in self._outbox.values():
                if (
                    r.platform == platform
                    and r.state in _LIVE
                    and r.next_attempt_at <= now
                    and (shards is None or shards.takes(r.route))
                ):
                    firsts[r.chat_id] = min(firsts.get(r.chat_id, r.id), r.id)
            return sorted(firsts, key=firsts.__getitem__)[:limit]

    async def set_route(self, platform: str, chat_id: str, route: int) -> None:
        with self._dlock:
            self._routes[(platform, chat_id)] = route
            for key, r in self._outbox.items():
                if r.platform == platform and r.chat_id == chat_id and r.route != route:
                    self._outbox[key] = replace(r, route=route)

    async def claim_lane(
        self, platform: str, chat_id: str, owner: str, until: datetime, now: datetime
    ) -> bool:
        with self._dlock:
            held = self._lanes.get((platform, chat_id))
            if held is not None and held[0] != owner and held[1] >= now:
                return False
            self._lanes[(platform, chat_id)] = (owner, until)
            return True

    async def release_lane(self, platform: str, chat_id: str, owner: str) -> None:
        with self._dlock:
            held = self._lanes.get((platform, chat_id))
            if held is not None and held[0] == owner:
                del self._lanes[(platform, chat_id)]

    async def lane_owners(self, platform: str) -> list[str]:
        with self._dlock:
            return sorted({owner for (p, _), (owner, _) in self._lanes.items() if p == platform})

    async def release_lanes_of(self, platform: str, owners: Sequence[str]) -> None:
        with self._dlock:
            for key in [k for k, v in self._lanes.items() if k[0] == platform and v[0] in owners]:
                del self._lanes[key]

    async def release_all_lanes(self, platform: str) -> None:
        with self._dlock:
            for key in [k for k in self._lanes if k[0] == platform]:
                del self._lanes[key]

    async def lane_rows(self, platform: str, chat_id: str, now: datetime) -> list[OutboxRow]:
        with self._dlock:
            rows = [
                r
                for r in self._outbox.values()
                if r.platform == platform
                and r.chat_id == chat_id
                and r.state in _LIVE
                and r.next_attempt_at <= now
            ]
            shown = [
                replace(r, shown=self._sent.get((platform, chat_id, r.key)), shown_read=True)
                for r in sorted(rows, key=lambda r: r.id)
            ]
        return shown

    async def mark_sending(self, row: OutboxRow) -> bool:
        with self._dlock:
            cur = self._current(row)
            if cur is None or cur.seq != row.seq:
                return False
            self._outbox[(row.platform, row.chat_id, row.key)] = replace(
                cur, state=OutboxState.SENDING, attempts=cur.attempts + 1
            )
            return True

    async def finish(self, row: OutboxRow, sent: SentRef | None) -> bool:
        with self._dlock:
            if sent is not None:
                self._sent[(sent.platform, sent.chat_id, sent.key)] = replace(
                    sent, at=datetime.now(UTC)
                )
            cur = self._current(row)
            if cur is None:
                return True
            key = (row.platform, row.chat_id, row.key)
            if cur.seq == row.seq:
                del self._outbox[key]
                return True
            if cur.state is OutboxState.PENDING:
                self._outbox[key] = replace(cur, fresh=False)
            return False

    async def retry(
        self, row: OutboxRow, at: datetime, error: str, *, still_a_post: bool = False
    ) -> None:
        self._set(row, OutboxState.PENDING, error, at)
        if still_a_post:
            with self._dlock:
                cur = self._current(row)
                if cur is not None and cur.seq != row.seq and cur.state is OutboxState.PENDING:
                    self._outbox[(row.platform, row.chat_id, row.key)] = replace(cur, fresh=True)

    async def hold(self, row: OutboxRow, reason: str) -> None:
        self._set(row, OutboxState.HELD, reason, None)

    async def release_held(self, platform: str, chat_id: str, now: datetime) -> int:
        with self._dlock:
            held = [
                k
                for k, r in self._outbox.items()
                if r.platform == platform and r.chat_id == chat_id and r.state is OutboxState.HELD
            ]
            for k in held:
                self._outbox[k] = replace(
                    self._outbox[k], state=OutboxState.PENDING, next_attempt_at=now
                )
            return len(held)

    async def fail(self, row: OutboxRow, error: str) -> None:
        self._set(row, OutboxState.FAILED, error, None)

    def _set(self, row: OutboxRow, state: OutboxState, error: str, at: datetime | None) -> None:
        with self._dlock:
            cur = self._current(row)
            if cur is None or cur.seq != row.seq:
                return
            self._outbox[(row.platform, row.chat_id, row.key)] = replace(
                cur,
                state=state,
                attempts=cur.attempts + 1,
                next_attempt_at=at or cur.next_attempt_at,
                last_error=error[:ERROR_CHARS],
            )

    async def sent_message(self, platform: str, chat_id: str, key: str) -> SentRef | None:
        with self._dlock:
            return self._sent.get((platform, chat_id, key))

    async def sent_key(self, platform: str, chat_id: str, message_id: str) -> str | None:
        with self._dlock:
            for (p, c, key), ref in self._sent.items():
                if p == platform and c == chat_id and ref.message_id == message_id:
                    return key
        return None

    async def put_sent(self, ref: SentRef) -> None:
        with self._dlock:
            self._sent[(ref.platform, ref.chat_id, ref.key)] = replace(ref, at=datetime.now(UTC))

    async def forget_sent(self, platform: str, chat_id: str, key: str) -> None:
        with self._dlock:
            self._sent.pop((platform, chat_id, key), None)

    async def outbox_stats(self, platform: str | None = None) -> OutboxStats:
        with self._dlock:
            rows = [r for r in self._outbox.values() if platform in (None, r.platform)]
        live = [r for r in rows if r.state in _LIVE]
        oldest = min((r.created_at for r in live), default=None)
        return OutboxStats(len(live), oldest, sum(r.state is OutboxState.FAILED for r in rows))

    async def get_pref(self, platform: str, user_id: str, name: str) -> str | None:
        with self._dlock:
            return self._prefs.get((platform, user_id, name))

    async def set_pref(self, platform: str, user_id: str, name: str, value: str | None) -> None:
        with self._dlock:
            key = (platform, user_id, name)
            if value is None:
                self._prefs.pop(key, None)
                self._pref_at.pop(key, None)
            else:
                # Re-inserted: the dict keeps prefs in the order they were last written.
                self._prefs.pop(key, None)
                self._prefs[key] = value
                self._pref_at[key] = datetime.now(UTC)

    async def prefs_named(self, platform: str, name: str) -> dict[str, str]:
        with self._dlock:
            return {u: v for (p, u, n), v in self._prefs.items() if p == platform and n == name}

    async def pop_prefs(self, platform: str, user_id: str, prefix: str) -> dict[str, str]:
        with self._dlock:
            keys = [
                k
                for k in self._prefs
                if k[0] == platform and k[1] == user_id and k[2].startswith(prefix)
            ]
            for k in keys:
                self._pref_at.pop(k, None)
            return {k[2]: self._prefs.pop(k) for k in keys}

    def _open_rooms(self, room_ids: set[str]) -> set[str]:
        """Which of ``room_ids`` are open rooms. Delivery alone (no rooms
        stored here) cannot tell, so it keeps them all."""
        return room_ids

    async def purge(self, platform: str, before: datetime, limit: int = 500) -> Purged:
        with self._dlock:
            failed = [
                k
                for k, r in self._outbox.items()
                if r.platform == platform
                and r.state is OutboxState.FAILED
                and r.created_at < before
            ][:limit]
            for k in failed:
                del self._outbox[k]
            old_sent = [
                k
                for k, ref in self._sent.items()
                if k[0] == platform and ref.at is not None and ref.at < before
            ]
            old_prefs = [
                k
                for k, at in self._pref_at.items()
                if k[0] == platform and ":" in k[2] and at < before
            ]
            live = self._open_rooms({room_part(k[2]) for k in old_sent + old_prefs})
            sent = [k for k in old_sent if room_part(k[2]) not in live][:limit]
            for k in sent:
                del self._sent[k]
            gone_prefs = [k for k in old_prefs if room_part(k[2]) not in live][:limit]
            for k in gone_prefs:
                del self._prefs[k]
                del self._pref_at[k]
            return Purged(len(failed), len(sent), len(gone_prefs))
