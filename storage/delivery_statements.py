"""Durable delivery's statements (docs/delivery.md), built once per dialect
with bind parameters, like the rooms' (storage/statements.py), and the few
that a call shapes (a shard's filter, the clean-up's bounded deletes).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    ColumnElement,
    Delete,
    Insert,
    Integer,
    Update,
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
from sqlalchemy.sql.dml import ReturningInsert, ReturningUpdate

from storage.delivery import OutboxState, Shards
from storage.models import (
    chat_routes,
    delivery_lanes,
    messages,
    outbox,
    prefs,
    room_timers,
    rooms,
)
from storage.statements import InsertOf, Query, insert_for, upsert

LIVE = (OutboxState.PENDING.value, OutboxState.SENDING.value)


@dataclass(frozen=True, slots=True, kw_only=True)
class DeliveryStatements:
    # outbox rows (parameters: storage/rows.py outbox_rows; b_id + b_seq name one state of a row)
    upsert_outbox: Insert  # a later state of a key replaces an undelivered one in place
    lane_rows: Query  # b_platform, b_chat_id, b_now: the chat's due rows, oldest first
    due_lanes: Query  # b_platform, b_now, b_limit: chats with due rows, oldest first
    mark_sending: Update  # b_id, b_seq
    delete_row: Delete  # b_id, b_seq
    unfresh: Update  # b_id: a pending row that is an edit now, not a post
    refresh: Update  # b_id, b_seq: a newer pending state of a post that made nothing
    set_state: Update  # b_id, b_seq, state, next_attempt_at, last_error
    # routes, lanes and timers
    upsert_route: Insert  # platform, chat_id, route, updated_at
    claim_lane: ReturningInsert[Any]  # platform, chat_id, owner, lease_until, b_now
    upsert_timer: Insert  # room_id, due_at
    claim_timers: ReturningUpdate[Any]  # b_now, b_wall, b_limit, b_owner, b_until
    # sent messages and preferences
    sent_message: Query  # b_platform, b_chat_id, b_key
    upsert_message: Insert  # the messages row
    upsert_pref: Insert  # the prefs row


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


def _upsert_outbox(insert: InsertOf) -> Insert:
    ins = insert(outbox).values(
        seq=1,
        state=OutboxState.PENDING.value,
        attempts=0,
        last_error=None,
        route=_ROUTE_OF_CHAT,
    )
    return ins.on_conflict_do_update(
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
            # ... and keeps what its tries left (a post that may have been
            # made is not made again: bot/delivery/transport.py, UNSURE)
            "last_error": case(
                (
                    and_(outbox.c.state == OutboxState.PENDING.value, outbox.c.fresh),
                    outbox.c.last_error,
                ),
                else_=None,
            ),
            "route": func.coalesce(ins.excluded.route, outbox.c.route),
        },
    )


def _claim_lane(insert: InsertOf) -> ReturningInsert[Any]:
    lane = insert(delivery_lanes)
    # Taken when free, when ours, or when its lease ran out.
    return lane.on_conflict_do_update(
        index_elements=["platform", "chat_id"],
        set_={"owner": lane.excluded.owner, "lease_until": lane.excluded.lease_until},
        where=or_(
            delivery_lanes.c.owner == lane.excluded.owner,
            delivery_lanes.c.lease_until
            < bindparam("b_now", type_=delivery_lanes.c.lease_until.type),
        ),
    ).returning(delivery_lanes.c.owner)


def _claim_timers() -> ReturningUpdate[Any]:
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
    return (
        update(room_timers)
        .where(room_timers.c.room_id.in_(due.scalar_subquery()))
        .values(
            owner=bindparam("b_owner"),
            lease_until=bindparam("b_until", type_=room_timers.c.lease_until.type),
        )
        .returning(room_timers.c.room_id)
    )


# The columns of a due row's stored message, under names of their own.
SHOWN = tuple(
    messages.c[name].label(f"shown_{name}")
    for name in (
        "message_id",
        "fingerprint",
        "round_tag",
        "has_buttons",
        "updated_at",
        "buttons",
    )
)


def _shown_message() -> ColumnElement[bool]:
    """The message stored for an outbox row's chat and view key."""
    return and_(
        messages.c.platform == outbox.c.platform,
        messages.c.chat_id == outbox.c.chat_id,
        messages.c.view_key == outbox.c.view_key,
    )


def build_delivery(dialect: str) -> DeliveryStatements:
    insert = insert_for(dialect)
    this_row = (outbox.c.id == bindparam("b_id"), outbox.c.seq == bindparam("b_seq"))
    now = bindparam("b_now", type_=outbox.c.next_attempt_at.type)
    due = (
        outbox.c.platform == bindparam("b_platform"),
        outbox.c.state.in_(LIVE),
        outbox.c.next_attempt_at <= now,
    )
    return DeliveryStatements(
        upsert_outbox=_upsert_outbox(insert),
        lane_rows=select(outbox, *SHOWN)
        .select_from(outbox.outerjoin(messages, _shown_message()))
        .where(*due, outbox.c.chat_id == bindparam("b_chat_id"))
        .order_by(outbox.c.id),
        due_lanes=select(outbox.c.chat_id)
        .where(*due)
        .group_by(outbox.c.chat_id)
        .order_by(func.min(outbox.c.id))
        .limit(bindparam("b_limit")),
        mark_sending=update(outbox)
        .where(*this_row)
        .values(state=OutboxState.SENDING.value, attempts=outbox.c.attempts + 1),
        delete_row=delete(outbox).where(*this_row),
        unfresh=update(outbox)
        .where(outbox.c.id == bindparam("b_id"), outbox.c.state == OutboxState.PENDING.value)
        .values(fresh=False),
        refresh=update(outbox)
        .where(
            outbox.c.id == bindparam("b_id"),
            outbox.c.seq != bindparam("b_seq"),
            outbox.c.state == OutboxState.PENDING.value,
        )
        .values(fresh=True),
        set_state=update(outbox)
        .where(*this_row)
        .values(
            state=bindparam("state"),
            attempts=outbox.c.attempts + 1,
            next_attempt_at=bindparam("next_attempt_at", type_=outbox.c.next_attempt_at.type),
            last_error=bindparam("last_error"),
        ),
        upsert_route=upsert(insert, chat_routes, "route", "updated_at"),
        claim_lane=_claim_lane(insert),
        upsert_timer=upsert(insert, room_timers, "due_at", owner=None, lease_until=None),
        claim_timers=_claim_timers(),
        sent_message=select(messages).where(
            messages.c.platform == bindparam("b_platform"),
            messages.c.chat_id == bindparam("b_chat_id"),
            messages.c.view_key == bindparam("b_key"),
        ),
        upsert_message=upsert(
            insert,
            messages,
            "message_id",
            "fingerprint",
            "round_tag",
            "has_buttons",
            "buttons",
            "updated_at",
        ),
        upsert_pref=upsert(insert, prefs, "value", "updated_at"),
    )


def shard_filter(shards: Shards) -> ColumnElement[bool]:
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


def _room_part(dialect: str, column: Any) -> ColumnElement[str]:
    """SQL for ``room_part``: the text between the first and second colon."""
    if dialect == "postgresql":
        return func.split_part(column, ":", 2)
    rest = func.substr(column, func.instr(column, ":") + 1)
    return case(
        (func.instr(column, ":") == 0, column),
        (func.instr(rest, ":") > 0, func.substr(rest, 1, func.instr(rest, ":") - 1)),
        else_=rest,
    )


def _not_open(dialect: str, column: Any) -> ColumnElement[bool]:
    room = _room_part(dialect, column)
    return ~exists().where(rooms.c.room_id == room, rooms.c.status == "open")


def purges(
    dialect: str, platform: str, before: datetime, limit: int
) -> tuple[Delete, Delete, Delete]:
    """The clean-up's deletes (docs/delivery.md §7): failed outbox rows,
    stored message ids and room-bound prefs, each at most ``limit`` rows
    chosen by a subquery: short transactions, whatever the backlog (the
    next pass takes the rest)."""
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
    old_messages = (
        select(messages.c.platform, messages.c.chat_id, messages.c.view_key)
        .where(
            messages.c.platform == platform,
            messages.c.updated_at < before,
            _not_open(dialect, messages.c.view_key),
        )
        .limit(limit)
    )
    old_prefs = (
        select(prefs.c.platform, prefs.c.user_id, prefs.c.name)
        .where(
            prefs.c.platform == platform,
            prefs.c.name.contains(":"),
            prefs.c.updated_at < before,
            _not_open(dialect, prefs.c.name),
        )
        .limit(limit)
    )
    message_key = tuple_(messages.c.platform, messages.c.chat_id, messages.c.view_key)
    pref_key = tuple_(prefs.c.platform, prefs.c.user_id, prefs.c.name)
    return (
        delete(outbox).where(outbox.c.id.in_(failed.scalar_subquery())),
        delete(messages).where(message_key.in_(old_messages)),
        delete(prefs).where(pref_key.in_(old_prefs)),
    )
