"""What durable delivery stores: outbox entries, sent messages, lane leases
and user preferences (docs/delivery.md).

The table manager writes the views an accepted action produced as
``OutboxEntry``s in the same transaction as the room state
(``Repository.save_room(..., outbox=...)``). One row per (platform, chat,
key): a newer state of the same message replaces the payload of a row not
yet delivered (``seq`` + 1) and keeps its place in the chat's order. A
delivery engine (bot/delivery) leases a chat, sends its rows in order and
deletes each row once delivered - only if its ``seq`` is unchanged, so a
state written meanwhile is sent next.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any, Protocol, runtime_checkable


class OutboxState(StrEnum):
    PENDING = "pending"
    SENDING = "sending"  # a new post was handed to the platform; its id is not stored yet
    FAILED = "failed"  # a permanent error: kept for inspection, never retried
    HELD = "held"  # the user has not opened the private chat: sent when they do


@dataclass(frozen=True, slots=True)
class OutboxEntry:
    """A view to deliver. ``chat_id`` is where it goes (the group, or the
    user's private chat); ``key`` names the message within that chat (one-off
    notices carry a unique suffix)."""

    platform: str
    chat_id: str
    key: str
    kind: str
    payload: dict[str, Any]
    fresh: bool = False


@dataclass(frozen=True, slots=True)
class OutboxRow:
    id: int
    platform: str
    chat_id: str
    key: str
    kind: str
    payload: dict[str, Any]
    fresh: bool
    seq: int
    state: OutboxState
    attempts: int
    next_attempt_at: datetime
    created_at: datetime
    last_error: str | None = None
    route: int | None = None  # the chat's routing key when written (see Shards)
    # The message stored for (chat, key) when the row was read by
    # ``lane_rows`` (``shown_read``): one read for both. A lane is delivered
    # by one process at a time, so it stays true while the lane's rows go out.
    shown: SentRef | None = None
    shown_read: bool = False


@dataclass(frozen=True, slots=True)
class Shards:
    """The rows a sharded process's poller takes up: those whose ``route``
    (Discord: the chat's guild id) falls on one of its shards ``ids`` of
    ``count`` - Discord's ``(guild_id >> 22) % count`` - and, with
    ``unrouted``, the rows of chats with no route (DMs, chats not seen since
    routes were recorded). Filtered in SQL, before the poller's limit."""

    count: int
    ids: tuple[int, ...]
    unrouted: bool = False
    shift: int = 22  # a snowflake's timestamp bits

    def takes(self, route: int | None) -> bool:
        if route is None:
            return self.unrouted
        return (route >> self.shift) % self.count in self.ids


@dataclass(frozen=True, slots=True)
class SentRef:
    """The platform message showing ``key`` in ``chat_id``."""

    platform: str
    chat_id: str
    key: str
    message_id: str
    fingerprint: str | None = None
    round_tag: str | None = None
    has_buttons: bool = False  # it has buttons that act on the game
    at: datetime | None = field(default=None, compare=False)  # when it was last stored
    buttons: list[Any] | None = field(default=None, compare=False)  # as sent (payload form)


@dataclass(frozen=True, slots=True)
class TimerChange:
    """A room's next timer moved (``due_at`` in the manager's clock, None:
    nothing is due); written with the room state by ``save_room``."""

    due_at: float | None


@dataclass(frozen=True, slots=True)
class OutboxStats:
    depth: int  # rows not delivered (pending + sending)
    oldest: datetime | None  # when the oldest of them was first written
    failed: int


@dataclass(frozen=True, slots=True)
class Purged:
    """What one clean-up pass (``DeliveryStore.purge``) deleted."""

    failed: int = 0  # outbox rows that failed for good
    messages: int = 0  # stored message ids no open room needs
    prefs: int = 0  # room-bound preferences (``<what>:<room>``) of rooms no longer open

    @property
    def total(self) -> int:
        return self.failed + self.messages + self.prefs


def room_part(key: str) -> str:
    """The room a view key or a room-bound pref name names: the part after
    its first colon (``table:<room>``, ``settle:<room>:<n>``, ``reach:<room>``)."""
    return key.split(":")[1] if ":" in key else key


@runtime_checkable
class DeliveryStore(Protocol):
    """What the delivery engine needs from storage. All methods are async."""

    async def enqueue(self, entries: Sequence[OutboxEntry], now: datetime) -> None:
        """Upsert ``entries`` outside a room transaction (views of read-only
        actions: nothing else changed, so nothing else needs the transaction)."""

    async def due_lanes(
        self, platform: str, now: datetime, limit: int = 100, shards: Shards | None = None
    ) -> list[str]:
        """Chats of ``platform`` with rows due by ``now`` (pending or sending);
        with ``shards`` only rows those shards take."""

    async def set_route(self, platform: str, chat_id: str, route: int) -> None:
        """Record ``chat_id``'s routing key: rows written for it from now on
        carry it (and its rows not delivered yet take it now)."""

    async def claim_lane(
        self, platform: str, chat_id: str, owner: str, until: datetime, now: datetime
    ) -> bool:
        """Take (or renew) the lease on a chat; False while another owner holds it."""

    async def release_lane(self, platform: str, chat_id: str, owner: str) -> None: ...

    async def lane_owners(self, platform: str) -> list[str]:
        """Who holds leases on ``platform``'s chats now (distinct owners)."""

    async def release_lanes_of(self, platform: str, owners: Sequence[str]) -> None:
        """Drop the leases of ``owners`` (processes known to be dead)."""

    async def release_all_lanes(self, platform: str) -> None:
        """Drop every lease of ``platform`` (a single process starting: any
        lease left is a crashed run's)."""

    async def lane_rows(self, platform: str, chat_id: str, now: datetime) -> list[OutboxRow]:
        """The chat's due rows (pending or sending), oldest first."""

    async def mark_sending(self, row: OutboxRow) -> bool:
        """Record that a new post of ``row`` is being handed to the platform;
        False when the row changed meanwhile."""

    async def finish(self, row: OutboxRow, sent: SentRef | None) -> bool:
        """``row`` was delivered (``sent``: the message that shows it, None
        for a one-off or a view dropped on purpose). Deletes the row when
        its seq is unchanged (True); else a newer state stays pending."""

    async def retry(
        self, row: OutboxRow, at: datetime, error: str, *, still_a_post: bool = False
    ) -> None:
        """Try ``row`` again at ``at``. ``still_a_post``: the try was a post
        that made nothing; a newer state written while it was made (which
        took the row's place as an edit of that post) is a post again."""

    async def hold(self, row: OutboxRow, reason: str) -> None:
        """Keep ``row`` until its chat can be reached (``release_held``)."""

    async def release_held(self, platform: str, chat_id: str, now: datetime) -> int:
        """The chat can be reached now: its held rows are due again; how many."""

    async def fail(self, row: OutboxRow, error: str) -> None: ...

    async def sent_message(self, platform: str, chat_id: str, key: str) -> SentRef | None: ...

    async def sent_key(self, platform: str, chat_id: str, message_id: str) -> str | None:
        """The view key a stored message shows (None when not known)."""

    async def put_sent(self, ref: SentRef) -> None: ...

    async def forget_sent(self, platform: str, chat_id: str, key: str) -> None: ...

    async def outbox_stats(self, platform: str | None = None) -> OutboxStats: ...

    async def claim_due_timers(
        self, now: float, owner: str, until: datetime, wall_now: datetime, limit: int = 50
    ) -> list[str]:
        """Lease the rooms whose timer is due by ``now`` (the manager's clock)
        and not leased by another owner (``FOR UPDATE SKIP LOCKED`` on
        PostgreSQL); their ids. A save that moves a room's timer clears its lease."""

    async def get_pref(self, platform: str, user_id: str, name: str) -> str | None: ...

    async def set_pref(self, platform: str, user_id: str, name: str, value: str | None) -> None: ...

    async def prefs_named(self, platform: str, name: str) -> dict[str, str]:
        """Every user's value of the pref ``name`` (user id -> value), oldest first."""

    async def pop_prefs(self, platform: str, user_id: str, prefix: str) -> dict[str, str]:
        """Delete the user's prefs whose name starts with ``prefix``; returns
        them (name -> value)."""

    async def purge(self, platform: str, before: datetime, limit: int = 500) -> Purged:
        """One bounded clean-up pass over ``platform``'s delivery rows last
        written before ``before``: at most ``limit`` each of failed outbox
        rows, stored message ids whose room is not open (closed rooms, old
        information posts) and room-bound prefs of rooms not open. Never an
        undelivered row (pending, sending, held) nor anything of an open room."""
