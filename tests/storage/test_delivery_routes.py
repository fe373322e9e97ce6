"""Shard routing in the DeliveryStore: a row carries its chat's routing key
(Discord: the channel's guild id) from the moment it is written, and a
shard's poller selects its own shards' rows in SQL - on memory, SQLite and
PostgreSQL alike (the room's transaction included)."""

from __future__ import annotations

from datetime import UTC, datetime

from storage.delivery import OutboxEntry, Shards

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
# Discord snowflakes whose shard of 2 is 0 and 1: (id >> 22) % 2
GUILD_ON_0 = 1_100_000_000_000_000_000 & ~(1 << 22)
GUILD_ON_1 = GUILD_ON_0 | (1 << 22)
SHARD_0 = Shards(2, (0,), unrouted=True)
SHARD_1 = Shards(2, (1,))


def entry(chat: str, key: str = "table:r1") -> OutboxEntry:
    return OutboxEntry("discord", chat, key, "table", {"text": key})


def test_the_shard_formula() -> None:
    assert (GUILD_ON_0 >> 22) % 2 == 0 and (GUILD_ON_1 >> 22) % 2 == 1
    assert SHARD_0.takes(GUILD_ON_0) and not SHARD_0.takes(GUILD_ON_1)
    assert SHARD_1.takes(GUILD_ON_1) and not SHARD_1.takes(GUILD_ON_0)
    assert SHARD_0.takes(None) and not SHARD_1.takes(None)  # unrouted: one process takes them


async def test_rows_take_their_chats_route_when_written(repo) -> None:
    await repo.enqueue([entry("10")], NOW)  # before the chat's route is known
    await repo.set_route("discord", "10", GUILD_ON_1)  # ... now it is: the waiting row takes it
    await repo.set_route("discord", "20", GUILD_ON_0)
    await repo.enqueue([entry("20"), entry("10", "notice:x"), entry("dm:7", "hand:r1:7")], NOW)
    assert await repo.due_lanes("discord", NOW) == ["10", "20", "dm:7"]
    assert await repo.due_lanes("discord", NOW, shards=SHARD_1) == ["10"]
    assert await repo.due_lanes("discord", NOW, shards=SHARD_0) == ["20", "dm:7"]
    assert await repo.due_lanes("discord", NOW, shards=Shards(2, (0, 1))) == ["10", "20"]
    rows = await repo.lane_rows("discord", "10", NOW)
    assert [r.route for r in rows] == [GUILD_ON_1, GUILD_ON_1]
    # a later state keeps the row's route
    await repo.enqueue([entry("20")], NOW)
    [row] = await repo.lane_rows("discord", "20", NOW)
    assert row.seq == 2 and row.route == GUILD_ON_0


async def test_other_shards_rows_do_not_crowd_out_a_shards_own(repo) -> None:
    """200 chats of shard 1 are due (written first); shard 0's one chat is
    still among the 100 its poller looks at."""
    for n in range(200):
        await repo.set_route("discord", f"9{n:03}", GUILD_ON_1)
    await repo.set_route("discord", "555", GUILD_ON_0)
    await repo.enqueue([entry(f"9{n:03}") for n in range(200)], NOW)
    await repo.enqueue([entry("555")], NOW)
    assert "555" not in await repo.due_lanes("discord", NOW)  # unfiltered: the first 100
    assert await repo.due_lanes("discord", NOW, shards=SHARD_0) == ["555"]
    assert len(await repo.due_lanes("discord", NOW, shards=SHARD_1)) == 100


async def test_rows_of_a_rooms_transaction_carry_the_route(backend) -> None:
    repo = await backend.new()
    await repo.set_route("discord", "30", GUILD_ON_1)
    rec = await repo.create_room("discord", "30", {"phase": "lobby"})
    await repo.save_room(rec.room_id, {"phase": "lobby", "n": 1}, 1, outbox=[entry("30")])
    [row] = await repo.lane_rows("discord", "30", NOW.replace(year=2100))
    assert row.route == GUILD_ON_1
    assert await repo.due_lanes("discord", NOW.replace(year=2100), shards=SHARD_1) == ["30"]
    assert await repo.due_lanes("discord", NOW.replace(year=2100), shards=SHARD_0) == []
