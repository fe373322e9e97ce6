"""The delivery tables' upkeep on every backend (memory, SQLite, PostgreSQL):
a new room's table post written in the room's own transaction, the
"open the bot first" list kept in ``prefs``, and the bounded clean-up of
failed rows and of closed rooms' message ids (docs/delivery.md)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from storage.api import RoomExists, RoomStatus
from storage.delivery import OutboxEntry, SentRef


def table_post(state: dict) -> list[OutboxEntry]:  # type: ignore[type-arg]
    key = f"table:{state['room_id']}"
    return [OutboxEntry("telegram", "-100", key, "table", {"room": state["room_id"]}, True)]


async def test_a_new_room_and_its_table_post_are_written_together(backend) -> None:
    repo = await backend.new()
    rec = await repo.create_room("telegram", "-100", {"phase": "lobby"}, outbox=table_post)
    later = datetime.now(UTC) + timedelta(seconds=1)
    [row] = await repo.lane_rows("telegram", "-100", later)
    assert row.key == f"table:{rec.room_id}" and row.payload == {"room": rec.room_id}
    assert row.fresh
    # A second room in the same chat is refused: and nothing of it is written.
    with pytest.raises(RoomExists):
        await repo.create_room("telegram", "-100", {"phase": "lobby"}, outbox=table_post)
    assert [r.key for r in await repo.lane_rows("telegram", "-100", later)] == [row.key]
    if backend.url is not None:  # another process on the same database sees it
        other = await backend.new()
        assert [r.key for r in await other.lane_rows("telegram", "-100", later)] == [row.key]


async def test_the_reach_list_lives_in_prefs(backend) -> None:
    """Who has not opened the private chat, per room: any process reads it."""
    repo = await backend.new()
    await repo.set_pref("telegram", "7", "reach", "1")
    await repo.set_pref("telegram", "7", "reach:r1", "Ann")
    await repo.set_pref("telegram", "8", "reach:r1", "Bo")
    await repo.set_pref("telegram", "8", "reach:r2", "Bo")
    await repo.set_pref("discord", "7", "reach:r1", "other platform")
    await repo.set_pref("telegram", "7", "reaching", "not a reach pref")
    other = await backend.new() if backend.url is not None else repo
    assert await other.prefs_named("telegram", "reach:r1") == {"7": "Ann", "8": "Bo"}
    assert await other.pop_prefs("telegram", "7", "reach") == {
        "reach": "1",
        "reach:r1": "Ann",
        "reaching": "not a reach pref",
    }
    assert await repo.pop_prefs("telegram", "7", "reach") == {}  # popped once
    assert await repo.prefs_named("telegram", "reach:r1") == {"8": "Bo"}
    assert await repo.get_pref("discord", "7", "reach:r1") == "other platform"
    # LIKE's wildcards in a prefix are plain characters
    await repo.set_pref("telegram", "9", "a_b", "x")
    assert await repo.pop_prefs("telegram", "9", "a%") == {}
    assert await repo.pop_prefs("telegram", "9", "a_") == {"a_b": "x"}


def ref(chat: str, key: str, message_id: str) -> SentRef:
    return SentRef("telegram", chat, key, message_id, "fp", None, True)


async def test_purge_keeps_what_is_undelivered_or_needed_by_an_open_room(backend) -> None:
    repo = await backend.new()
    live = await repo.create_room("telegram", "-1", {"phase": "lobby"})
    closed = await repo.create_room("telegram", "-2", {"phase": "lobby"})
    await repo.save_room(closed.room_id, {"phase": "closed"}, 1, status=RoomStatus.CLOSED)
    old = (
        [
            OutboxEntry("telegram", "-2", f"table:{closed.room_id}", "table", {"n": i}, True)
            for i in range(1)
        ]
        + [
            OutboxEntry("telegram", "-2", f"notice:{closed.room_id}:x#{i}", "notice", {}, True)
            for i in range(3)
        ]
        + [OutboxEntry("telegram", "7", f"hand:{closed.room_id}:7", "hand", {}, True)]
    )
    await repo.enqueue(old, datetime.now(UTC))
    rows = await repo.lane_rows("telegram", "-2", datetime.now(UTC) + timedelta(seconds=1))
    for row in rows[1:]:
        await repo.fail(row, "chat not found")  # three failed for good, the table pending
    [held] = await repo.lane_rows("telegram", "7", datetime.now(UTC) + timedelta(seconds=1))
    await repo.hold(held, "never opened the bot")
    for key, chat, mid in (
        (f"table:{live.room_id}", "-1", "1"),
        (f"hand:{live.room_id}:7", "7", "2"),
        (f"settle:{live.room_id}:1", "-1", "3"),
        (f"table:{closed.room_id}", "-2", "4"),
        (f"hand:{closed.room_id}:7", "7", "5"),
        (f"settle:{closed.room_id}:1", "-2", "6"),
        ("leaderboard:-2", "-2", "7"),
    ):
        await repo.put_sent(ref(chat, key, mid))
    await repo.set_pref("telegram", "7", f"reach:{closed.room_id}", "Ann")
    await repo.set_pref("telegram", "7", f"reach:{live.room_id}", "Ann")
    await repo.set_pref("telegram", "7", "reach", "1")
    await repo.set_pref("telegram", "7", "hand_dm", "1")

    # Nothing is old enough yet.
    assert (await repo.purge("telegram", datetime.now(UTC) - timedelta(days=7))).total == 0
    later = datetime.now(UTC) + timedelta(seconds=5)
    assert (await repo.purge("discord", later)).total == 0  # another platform's pass
    first = await repo.purge("telegram", later, limit=2)  # bounded: two of each at most
    assert (first.failed, first.messages, first.prefs) == (2, 2, 1)
    rest = await repo.purge("telegram", later, limit=2)
    assert (rest.failed, rest.messages, rest.prefs) == (1, 2, 0)
    assert (await repo.purge("telegram", later)).total == 0

    stats = await repo.outbox_stats("telegram")
    assert stats.failed == 0 and stats.depth == 1  # the pending table stays
    assert [r.key for r in await repo.lane_rows("telegram", "-2", later)] == [
        f"table:{closed.room_id}"
    ]
    await repo.release_held("telegram", "7", later)  # the held hand is still there
    assert [r.key for r in await repo.lane_rows("telegram", "7", later)] == [
        f"hand:{closed.room_id}:7"
    ]
    for key, chat in (
        (f"table:{live.room_id}", "-1"),
        (f"hand:{live.room_id}:7", "7"),
        (f"settle:{live.room_id}:1", "-1"),
    ):
        assert await repo.sent_message("telegram", chat, key) is not None, key
    for key, chat in (
        (f"table:{closed.room_id}", "-2"),
        (f"hand:{closed.room_id}:7", "7"),
        (f"settle:{closed.room_id}:1", "-2"),
        ("leaderboard:-2", "-2"),
    ):
        assert await repo.sent_message("telegram", chat, key) is None, key
    assert await repo.prefs_named("telegram", f"reach:{closed.room_id}") == {}
    assert await repo.prefs_named("telegram", f"reach:{live.room_id}") == {"7": "Ann"}
    assert await repo.get_pref("telegram", "7", "reach") == "1"
    assert await repo.get_pref("telegram", "7", "hand_dm") == "1"
