"""Durable delivery on SQL (SQLite and PostgreSQL through SQLAlchemy Core).

Each method takes an open connection inside the caller's transaction, so
the room save can write its outbox rows in its own transaction
(storage/sql.py); the statements are in storage/delivery_statements.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, delete, func, select, update

from storage.common import from_utc_naive
from storage.delivery import (
    OutboxEntry,
    OutboxRow,
    OutboxState,
    OutboxStats,
    Purged,
    SentRef,
    Shards,
    TimerChange,
)
from storage.delivery_statements import LIVE, build_delivery, purges, shard_filter
from storage.models import delivery_lanes, messages, outbox, prefs
from storage.rows import outbox_rows, timer_row

ERROR_CHARS = 500


class SqlDelivery:
    """The DeliveryStore's statements on one connection (sync; storage/sql.py
    runs them inline or in its workers)."""

    def __init__(self, dialect: str) -> None:
        self.sql = build_delivery(dialect)
        self.dialect = dialect

    def enqueue(self, conn: Connection, entries: Sequence[OutboxEntry], now: datetime) -> None:
        if entries:
            # One statement per row: executemany of an upsert needs no
            # RETURNING and keeps each row's own conflict resolution.
            for params in outbox_rows(entries, now):
                conn.execute(self.sql.upsert_outbox, params)

    def set_timer(self, conn: Connection, room_id: str, change: TimerChange) -> None:
        conn.execute(self.sql.upsert_timer, timer_row(room_id, change))

    def claim_due_timers(
        self,
        conn: Connection,
        now: float,
        owner: str,
        until: datetime,
        wall_now: datetime,
        limit: int,
    ) -> list[str]:
        rows = conn.execute(
            self.sql.claim_timers,
            {
                "b_now": now,
                "b_wall": wall_now,
                "b_limit": limit,
                "b_owner": owner,
                "b_until": until,
            },
        )
        return [str(r.room_id) for r in rows]

    def due_lanes(
        self,
        conn: Connection,
        platform: str,
        now: datetime,
        limit: int,
        shards: Shards | None = None,
    ) -> list[str]:
        params = {"b_platform": platform, "b_now": now, "b_limit": limit}
        query = self.sql.due_lanes
        if shards is not None:  # a poller's query, once a second: built per call
            query = query.where(shard_filter(shards))
        return [row.chat_id for row in conn.execute(query, params)]

    def set_route(
        self, conn: Connection, platform: str, chat_id: str, route: int, now: datetime
    ) -> None:
        conn.execute(
            self.sql.upsert_route,
            {"platform": platform, "chat_id": chat_id, "route": route, "updated_at": now},
        )
        conn.execute(
            update(outbox)
            .where(
                outbox.c.platform == platform,
                outbox.c.chat_id == chat_id,
                outbox.c.route.is_distinct_from(route),
            )
            .values(route=route)
        )

    def claim_lane(
        self,
        conn: Connection,
        platform: str,
        chat_id: str,
        owner: str,
        until: datetime,
        now: datetime,
    ) -> bool:
        row = conn.execute(
            self.sql.claim_lane,
            {
                "platform": platform,
                "chat_id": chat_id,
                "owner": owner,
                "lease_until": until,
                "b_now": now,
            },
        ).first()
        return row is not None

    def release_lane(self, conn: Connection, platform: str, chat_id: str, owner: str) -> None:
        conn.execute(
            delete(delivery_lanes).where(
                delivery_lanes.c.platform == platform,
                delivery_lanes.c.chat_id == chat_id,
                delivery_lanes.c.owner == owner,
            )
        )

    def lane_owners(self, conn: Connection, platform: str) -> list[str]:
        query = (
            select(delivery_lanes.c.owner).where(delivery_lanes.c.platform == platform).distinct()
        )
        return [str(r.owner) for r in conn.execute(query)]

    def release_lanes_of(self, conn: Connection, platform: str, owners: Sequence[str]) -> None:
        if owners:
            conn.execute(
                delete(delivery_lanes).where(
                    delivery_lanes.c.platform == platform,
                    delivery_lanes.c.owner.in_(list(owners)),
                )
            )

    def release_all_lanes(self, conn: Connection, platform: str) -> None:
        conn.execute(delete(delivery_lanes).where(delivery_lanes.c.platform == platform))

    def lane_rows(
        self, conn: Connection, platform: str, chat_id: str, now: datetime
    ) -> list[OutboxRow]:
        params = {"b_platform": platform, "b_chat_id": chat_id, "b_now": now}
        return [_row(r, shown=True) for r in conn.execute(self.sql.lane_rows, params)]

    def mark_sending(self, conn: Connection, row: OutboxRow) -> bool:
        done = conn.execute(self.sql.mark_sending, {"b_id": row.id, "b_seq": row.seq})
        return bool(done.rowcount)

    def finish(self, conn: Connection, row: OutboxRow, sent: SentRef | None, now: datetime) -> bool:
        if sent is not None:
            self.put_sent(conn, sent, now)
        gone = conn.execute(self.sql.delete_row, {"b_id": row.id, "b_seq": row.seq})
        if gone.rowcount:
            return True
        # A newer state came in while this one was sent: it is an edit of
        # the message just posted, not a second post.
        conn.execute(self.sql.unfresh, {"b_id": row.id})
        return False

    def retry(
        self, conn: Connection, row: OutboxRow, at: datetime, error: str, still_a_post: bool
    ) -> None:
        self._set_state(conn, row, OutboxState.PENDING, at, error)
        if still_a_post:
            conn.execute(self.sql.refresh, {"b_id": row.id, "b_seq": row.seq})

    def hold(self, conn: Connection, row: OutboxRow, reason: str) -> None:
        self._set_state(conn, row, OutboxState.HELD, row.next_attempt_at, reason)

    def release_held(self, conn: Connection, platform: str, chat_id: str, now: datetime) -> int:
        done = conn.execute(
            update(outbox)
            .where(
                outbox.c.platform == platform,
                outbox.c.chat_id == chat_id,
                outbox.c.state == OutboxState.HELD.value,
            )
            .values(state=OutboxState.PENDING.value, next_attempt_at=now)
        )
        return int(done.rowcount or 0)

    def fail(self, conn: Connection, row: OutboxRow, error: str) -> None:
        self._set_state(conn, row, OutboxState.FAILED, row.next_attempt_at, error)

    def _set_state(
        self, conn: Connection, row: OutboxRow, state: OutboxState, at: datetime, error: str
    ) -> None:
        params = {
            "b_id": row.id,
            "b_seq": row.seq,
            "state": state.value,
            "next_attempt_at": at,
            "last_error": error[:ERROR_CHARS],
        }
        conn.execute(self.sql.set_state, params)

    def sent_message(
        self, conn: Connection, platform: str, chat_id: str, key: str
    ) -> SentRef | None:
        params = {"b_platform": platform, "b_chat_id": chat_id, "b_key": key}
        row = conn.execute(self.sql.sent_message, params).first()
        if row is None:
            return None
        return SentRef(
            row.platform,
            row.chat_id,
            row.view_key,
            row.message_id,
            row.fingerprint,
            row.round_tag,
            row.has_buttons,
            from_utc_naive(row.updated_at),
            row.buttons,
        )

    def sent_key(
        self, conn: Connection, platform: str, chat_id: str, message_id: str
    ) -> str | None:
        row = conn.execute(
            select(messages.c.view_key).where(
                messages.c.platform == platform,
                messages.c.chat_id == chat_id,
                messages.c.message_id == message_id,
            )
        ).first()
        return None if row is None else str(row.view_key)

    def put_sent(self, conn: Connection, ref: SentRef, now: datetime) -> None:
        conn.execute(
            self.sql.upsert_message,
            {
                "platform": ref.platform,
                "chat_id": ref.chat_id,
                "view_key": ref.key,
                "message_id": ref.message_id,
                "fingerprint": ref.fingerprint,
                "round_tag": ref.round_tag,
                "has_buttons": ref.has_buttons,
                "buttons": ref.buttons,
                "updated_at": now,
            },
        )

    def forget_sent(self, conn: Connection, platform: str, chat_id: str, key: str) -> None:
        conn.execute(
            delete(messages).where(
                messages.c.platform == platform,
                messages.c.chat_id == chat_id,
                messages.c.view_key == key,
            )
        )

    def stats(self, conn: Connection, platform: str | None) -> OutboxStats:
        where = [] if platform is None else [outbox.c.platform == platform]
        live = conn.execute(
            select(func.count(), func.min(outbox.c.created_at)).where(
                outbox.c.state.in_(LIVE), *where
            )
        ).one()
        failed = conn.execute(
            select(func.count()).where(outbox.c.state == OutboxState.FAILED.value, *where)
        ).scalar_one()
        oldest = live[1]
        if oldest is not None:
            oldest = from_utc_naive(oldest)
        return OutboxStats(int(live[0]), oldest, int(failed))

    def get_pref(self, conn: Connection, platform: str, user_id: str, name: str) -> str | None:
        row = conn.execute(
            select(prefs.c.value).where(
                prefs.c.platform == platform, prefs.c.user_id == user_id, prefs.c.name == name
            )
        ).first()
        return None if row is None else str(row.value)

    def set_pref(
        self,
        conn: Connection,
        platform: str,
        user_id: str,
        name: str,
        value: str | None,
        now: datetime,
    ) -> None:
        if value is None:
            conn.execute(
                delete(prefs).where(
                    prefs.c.platform == platform, prefs.c.user_id == user_id, prefs.c.name == name
                )
            )
            return
        conn.execute(
            self.sql.upsert_pref,
            {
                "platform": platform,
                "user_id": user_id,
                "name": name,
                "value": value,
                "updated_at": now,
            },
        )

    def prefs_named(self, conn: Connection, platform: str, name: str) -> dict[str, str]:
        query = (
            select(prefs.c.user_id, prefs.c.value)
            .where(prefs.c.platform == platform, prefs.c.name == name)
            .order_by(prefs.c.updated_at, prefs.c.user_id)
        )
        return {str(r.user_id): str(r.value) for r in conn.execute(query)}

    def pop_prefs(
        self, conn: Connection, platform: str, user_id: str, prefix: str
    ) -> dict[str, str]:
        gone = conn.execute(
            delete(prefs)
            .where(
                prefs.c.platform == platform,
                prefs.c.user_id == user_id,
                prefs.c.name.startswith(prefix, autoescape=True),
            )
            .returning(prefs.c.name, prefs.c.value)
        )
        return {str(r.name): str(r.value) for r in gone}

    def purge(self, conn: Connection, platform: str, before: datetime, limit: int) -> Purged:
        failed, old_messages, old_prefs = purges(self.dialect, platform, before, limit)
        return Purged(
            failed=conn.execute(failed).rowcount or 0,
            messages=conn.execute(old_messages).rowcount or 0,
            prefs=conn.execute(old_prefs).rowcount or 0,
        )


def _row(r: Any, *, shown: bool = False) -> OutboxRow:
    """An outbox row; with ``shown``, also its stored message (``lane_rows``)."""
    return OutboxRow(
        id=r.id,
        platform=r.platform,
        chat_id=r.chat_id,
        key=r.view_key,
        kind=r.kind,
        payload=r.payload,
        fresh=bool(r.fresh),
        seq=r.seq,
        state=OutboxState(r.state),
        attempts=r.attempts,
        next_attempt_at=r.next_attempt_at,
        created_at=r.created_at,
        last_error=r.last_error,
        route=r.route,
        shown=_shown(r) if shown else None,
        shown_read=shown,
    )


def _shown(r: Any) -> SentRef | None:
    if r.shown_message_id is None:
        return None
    return SentRef(
        r.platform,
        r.chat_id,
        r.view_key,
        r.shown_message_id,
        r.shown_fingerprint,
        r.shown_round_tag,
        r.shown_has_buttons,
        from_utc_naive(r.shown_updated_at),
        r.shown_buttons,
    )
