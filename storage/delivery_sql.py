"""Durable delivery on SQL (SQLite and PostgreSQL through SQLAlchemy Core).

Statements are built once per dialect; each function takes an open
connection inside the caller's transaction, so the room save can write its
outbox rows in its own transaction (storage/sql.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Connection,
    Integer,
    and_,
    bindparam,
    case,
    delete,
    exists,
    func,
    literal,
    or_,
    select,
    tuple_,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite

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
from storage.models import (
    chat_routes,
    delivery_lanes,
    messages,
    outbox,
    prefs,
    room_timers,
    rooms,
)

_LIVE = (OutboxState.PENDING.value, OutboxState.SENDING.value)
ERROR_CHARS = 500


@dataclass(frozen=True, slots=True)
class DeliveryStatements:
    upsert_outbox: Any
    claim_lane: Any
    upsert_message: Any
    upsert_pref: Any
    upsert_timer: Any
    claim_timers: Any
    lane_rows: Any
    mark_sending: Any
    delete_row: Any
    unfresh: Any
    set_state: Any
    sent_message: Any
    due_lanes: Any
    upsert_route: Any


# A row takes its chat's routing key when it is written (any process, any
# path: the room's transaction or a read-only view), so a shard's poller
# can select its own guilds' rows in SQL.
_ROUTE_OF_CHAT = (
    select(chat_routes.c.route)
    .where(
        chat_routes.c.platform == bindparam("r_platform"),
        chat_routes.c.chat_id == bindparam("r_chat_id"),
    )
    .scalar_subquery()
)


def build_delivery(dialect: str) -> DeliveryStatements:
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    ins = insert(outbox).values(route=_ROUTE_OF_CHAT)
    upsert_outbox = ins.on_conflict_do_update(
        index_elements=["platform", "chat_id", "view_key"],
        set_={
            "kind": ins.excluded.kind,
            "payload": ins.excluded.payload,
            # A pending post stays a post when a later state of it comes in.
            "fresh": or_(
                ins.excluded.fresh,
                and_(outbox.c.state == OutboxState.PENDING.value, outbox.c.fresh),
            ),
            "seq": outbox.c.seq + 1,
            "state": OutboxState.PENDING.value,
            "attempts": 0,
            "next_attempt_at": ins.excluded.next_attempt_at,
            "last_error": None,
            "route": func.coalesce(ins.excluded.route, outbox.c.route),
        },
    )
    route = insert(chat_routes)
    upsert_route = route.on_conflict_do_update(
        index_elements=["platform", "chat_id"],
        set_={"route": route.excluded.route, "updated_at": route.excluded.updated_at},
    )
    lane = insert(delivery_lanes)
    claim_lane = lane.on_conflict_do_update(
        index_elements=["platform", "chat_id"],
        set_={"owner": lane.excluded.owner, "lease_until": lane.excluded.lease_until},
        where=or_(
            delivery_lanes.c.owner == lane.excluded.owner,
            delivery_lanes.c.lease_until
            < bindparam("b_now", type_=delivery_lanes.c.lease_until.type),
        ),
    ).returning(delivery_lanes.c.owner)
    msg = insert(messages)
    upsert_message = msg.on_conflict_do_update(
        index_elements=["platform", "chat_id", "view_key"],
        set_={
            "message_id": msg.excluded.message_id,
            "fingerprint": msg.excluded.fingerprint,
            "round_tag": msg.excluded.round_tag,
            "has_buttons": msg.excluded.has_buttons,
            "buttons": msg.excluded.buttons,
            "updated_at": msg.excluded.updated_at,
        },
    )
    pref = insert(prefs)
    upsert_pref = pref.on_conflict_do_update(
        index_elements=["platform", "user_id", "name"],
        set_={"value": pref.excluded.value, "updated_at": pref.excluded.updated_at},
    )
    timer = insert(room_timers)
    upsert_timer = timer.on_conflict_do_update(
        index_elements=["room_id"],
        set_={"due_at": timer.excluded.due_at, "owner": None, "lease_until": None},
    )
    wall = bindparam("b_wall", type_=room_timers.c.lease_until.type)
    due = (
        select(room_timers.c.room_id)
        .where(
            room_timers.c.due_at <= bindparam("b_now"),
            or_(room_timers.c.lease_until.is_(None), room_timers.c.lease_until < wall),
        )
        .order_by(room_timers.c.due_at)
        .limit(bindparam("b_limit"))
        # Several processes poll at once: each takes rooms no other holds.
        .with_for_update(skip_locked=True)
    )
    claim_timers = (
        update(room_timers)
        .where(room_timers.c.room_id.in_(due.scalar_subquery()))
        .values(
            owner=bindparam("b_owner"),
            lease_until=bindparam("b_until", type_=room_timers.c.lease_until.type),
        )
        .returning(room_timers.c.room_id)
    )
    # Built once with bind parameters (per-call construction cost more than
    # the statements themselves on SQLite: storage/statements.py).
    this_row = (outbox.c.id == bindparam("b_id"), outbox.c.seq == bindparam("b_seq"))
    now = bindparam("b_now", type_=outbox.c.next_attempt_at.type)
    lane_rows = (
        select(outbox)
        .where(
            outbox.c.platform == bindparam("b_platform"),
            outbox.c.chat_id == bindparam("b_chat_id"),
            outbox.c.state.in_(_LIVE),
            outbox.c.next_attempt_at <= now,
        )
        .order_by(outbox.c.id)
    )
    mark_sending = (
        update(outbox)
        .where(*this_row)
        .values(state=OutboxState.SENDING.value, attempts=outbox.c.attempts + 1)
    )
    delete_row = delete(outbox).where(*this_row)
    unfresh = (
        update(outbox)
        .where(outbox.c.id == bindparam("b_id"), outbox.c.state == OutboxState.PENDING.value)
        .values(fresh=False)
    )
    set_state = (
        update(outbox)
        .where(*this_row)
        .values(
            state=bindparam("state"),
            attempts=outbox.c.attempts + 1,
            next_attempt_at=bindparam("next_attempt_at", type_=outbox.c.next_attempt_at.type),
            last_error=bindparam("last_error"),
        )
    )
    sent_message = select(messages).where(
        messages.c.platform == bindparam("b_platform"),
        messages.c.chat_id == bindparam("b_chat_id"),
        messages.c.view_key == bindparam("b_key"),
    )
    due_lanes = (
        select(outbox.c.chat_id)
        .where(
            outbox.c.platform == bindparam("b_platform"),
            outbox.c.state.in_(_LIVE),
            outbox.c.next_attempt_at <= now,
        )
        .group_by(outbox.c.chat_id)
        .order_by(func.min(outbox.c.id))
        .limit(bindparam("b_limit"))
    )
    return DeliveryStatements(
        upsert_outbox,
        claim_lane,
        upsert_message,
        upsert_pref,
        upsert_timer,
        claim_timers,
        lane_rows,
        mark_sending,
        delete_row,
        unfresh,
        set_state,
        sent_message,
        due_lanes,
        upsert_route,
    )


def shard_filter(shards: Shards) -> Any:
    """The SQL condition of ``Shards.takes`` on outbox.route."""
    shift = literal(shards.shift, Integer)  # PostgreSQL: bigint >> integer
    count = literal(shards.count, BigInteger)
    on_shard = and_(
        outbox.c.route.is_not(None),
        (outbox.c.route.op(">>", return_type=BigInteger)(shift) % count).in_(
            [int(i) for i in shards.ids]
        ),
    )
    return or_(on_shard, outbox.c.route.is_(None)) if shards.unrouted else on_shard


def outbox_params(entries: Sequence[OutboxEntry], now: datetime) -> list[dict[str, Any]]:
    return [
        {
            "platform": e.platform,
            "chat_id": e.chat_id,
            "view_key": e.key,
            "kind": e.kind,
            "payload": e.payload,
            "fresh": e.fresh,
            "seq": 1,
            "state": OutboxState.PENDING.value,
            "attempts": 0,
            "next_attempt_at": now,
            "created_at": now,
            "last_error": None,
            "r_platform": e.platform,
            "r_chat_id": e.chat_id,
        }
        for e in entries
    ]


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
            for params in outbox_params(entries, now):
                conn.execute(self.sql.upsert_outbox, params)

    def set_timer(self, conn: Connection, room_id: str, change: TimerChange) -> None:
        conn.execute(self.sql.upsert_timer, {"room_id": room_id, "due_at": change.due_at})

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
        return [_row(r) for r in conn.execute(self.sql.lane_rows, params)]

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

    def retry(self, conn: Connection, row: OutboxRow, at: datetime, error: str) -> None:
        self._set_state(conn, row, OutboxState.PENDING, at, error)

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
                outbox.c.state.in_(_LIVE), *where
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

    def _room_part(self, column: Any) -> Any:
        """SQL for ``room_part``: the text between the first and second colon."""
        if self.dialect == "postgresql":
            return func.split_part(column, ":", 2)
        rest = func.substr(column, func.instr(column, ":") + 1)
        return case(
            (func.instr(column, ":") == 0, column),
            (func.instr(rest, ":") > 0, func.substr(rest, 1, func.instr(rest, ":") - 1)),
            else_=rest,
        )

    def _not_open(self, column: Any) -> Any:
        return ~exists().where(rooms.c.room_id == self._room_part(column), rooms.c.status == "open")

    def purge(self, conn: Connection, platform: str, before: datetime, limit: int) -> Purged:
        # Each a DELETE of at most ``limit`` rows chosen by a subquery: short
        # transactions, whatever the backlog (the next pass takes the rest).
        failed = (
            select(outbox.c.id)
            .where(
                outbox.c.platform == platform,
                outbox.c.state == OutboxState.FAILED.value,
                outbox.c.created_at < before,
            )
            .order_by(outbox.c.id)
            .limit(limit)
        )
        n_failed = conn.execute(delete(outbox).where(outbox.c.id.in_(failed.scalar_subquery())))
        old_messages = (
            select(messages.c.platform, messages.c.chat_id, messages.c.view_key)
            .where(
                messages.c.platform == platform,
                messages.c.updated_at < before,
                self._not_open(messages.c.view_key),
            )
            .limit(limit)
        )
        n_messages = conn.execute(
            delete(messages).where(
                tuple_(messages.c.platform, messages.c.chat_id, messages.c.view_key).in_(
                    old_messages
                )
            )
        )
        old_prefs = (
            select(prefs.c.platform, prefs.c.user_id, prefs.c.name)
            .where(
                prefs.c.platform == platform,
                prefs.c.name.contains(":"),
                prefs.c.updated_at < before,
                self._not_open(prefs.c.name),
            )
            .limit(limit)
        )
        n_prefs = conn.execute(
            delete(prefs).where(
                tuple_(prefs.c.platform, prefs.c.user_id, prefs.c.name).in_(old_prefs)
            )
        )
        return Purged(
            int(n_failed.rowcount or 0), int(n_messages.rowcount or 0), int(n_prefs.rowcount or 0)
        )


def _row(r: Any) -> OutboxRow:
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
    )
