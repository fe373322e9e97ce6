"""The Repository contract, run unchanged on every backend (see conftest)."""

from __future__ import annotations

import asyncio
import re
from datetime import datetime, timedelta, timezone

import pytest

from storage.api import (
    Period,
    RoomExists,
    RoomStatus,
    StaleVersion,
    StorageError,
)
from tests.storage.records import NOW, entry, round_record, settle_round, settlement

# rooms and versions


async def test_create_load_save_with_versions(repo) -> None:
    given = {"phase": "lobby", "seats": []}
    room = await repo.create_room("telegram", "-100", given)
    given["seats"].append("telegram:9")  # the caller's dict is not the stored one
    assert "room_id" not in given
    assert re.fullmatch(r"[0-9a-z]{4,8}", room.room_id)
    assert room.version == 1 and room.status == RoomStatus.OPEN
    assert room.state == {"phase": "lobby", "seats": [], "room_id": room.room_id}
    assert (room.platform, room.chat_id) == ("telegram", "-100")

    assert await repo.load_room(room.room_id) == room
    assert await repo.open_room_for_chat("telegram", "-100") == room

    new_state = {**room.state, "phase": "arranging", "seats": ["telegram:1"], "n": {"x": [1, 2]}}
    assert await repo.save_room(room.room_id, new_state, 1) == 2
    loaded = await repo.load_room(room.room_id)
    assert loaded.version == 2 and loaded.state == new_state
    assert await repo.save_room(room.room_id, {**new_state, "phase": "showdown"}, 2) == 3

    # What a caller does to a returned state never reaches the store.
    loaded = await repo.load_room(room.room_id)
    loaded.state["phase"] = "tampered"
    assert (await repo.load_room(room.room_id)).state["phase"] == "showdown"
    assert await repo.load_room("nosuch") is None


async def test_stale_version_is_refused_and_changes_nothing(repo) -> None:
    room = await repo.create_room("telegram", "-100", {"n": 0})
    assert await repo.save_room(room.room_id, {"n": 1}, 1) == 2
    with pytest.raises(StaleVersion):
        await repo.save_room(room.room_id, {"n": 99}, 1)
    with pytest.raises(StaleVersion):
        await repo.save_room(room.room_id, {"n": 99}, 5)
    with pytest.raises(StaleVersion):
        await repo.save_room("nosuch", {"n": 99}, 1)
    loaded = await repo.load_room(room.room_id)
    assert (loaded.version, loaded.state) == (2, {"n": 1})


async def test_state_that_is_not_json_is_refused(repo) -> None:
    room = await repo.create_room("telegram", "-100", {"n": 0})
    with pytest.raises(StorageError):
        await repo.save_room(room.room_id, {"n": object()}, 1)
    loaded = await repo.load_room(room.room_id)
    assert (loaded.version, loaded.state) == (1, {"n": 0, "room_id": room.room_id})
    assert await repo.save_room(room.room_id, {"n": 1}, 1) == 2  # still usable


async def test_concurrent_writers_exactly_one_wins(repo) -> None:
    room = await repo.create_room("telegram", "-100", {"n": 0})
    results = await asyncio.gather(
        *(repo.save_room(room.room_id, {"n": i}, 1) for i in range(1, 9)),
        return_exceptions=True,
    )
    winners = [i for i, r in enumerate(results, 1) if r == 2]
    assert len(winners) == 1
    assert all(isinstance(r, StaleVersion) for r in results if r != 2)
    loaded = await repo.load_room(room.room_id)
    assert (loaded.version, loaded.state) == (2, {"n": winners[0]})


async def test_retry_loop_applies_every_increment(repo) -> None:
    """What the manager does on StaleVersion: reload and retry. With many
    concurrent incrementers nothing is lost."""
    room = await repo.create_room("telegram", "-100", {"n": 0})

    async def increment() -> None:
        while True:
            current = await repo.load_room(room.room_id)
            try:
                await repo.save_room(
                    room.room_id, {**current.state, "n": current.state["n"] + 1}, current.version
                )
                return
            except StaleVersion:
                await asyncio.sleep(0)

    await asyncio.gather(*(increment() for _ in range(12)))
    loaded = await repo.load_room(room.room_id)
    assert loaded.state["n"] == 12 and loaded.version == 13


async def test_many_rooms_saved_concurrently(repo) -> None:
    created = await asyncio.gather(
        *(repo.create_room("discord", f"chan-{i}", {"n": 0}) for i in range(40))
    )
    assert len({r.room_id for r in created}) == 40

    async def play(room) -> None:  # type: ignore[no-untyped-def]
        version = room.version
        for n in range(1, 6):
            version = await repo.save_room(room.room_id, {"n": n}, version)

    await asyncio.gather(*(play(r) for r in created))
    for room in created:
        loaded = await repo.load_room(room.room_id)
        assert (loaded.version, loaded.state) == (6, {"n": 5})
    assert len(await repo.load_open_rooms()) == 40


async def test_room_exists_for_a_second_open_room(repo) -> None:
    first = await repo.create_room("telegram", "-100", {})
    with pytest.raises(RoomExists):
        await repo.create_room("telegram", "-100", {})
    # Other chats, and the same chat id on another platform, are independent.
    other_chat = await repo.create_room("telegram", "-200", {})
    other_platform = await repo.create_room("discord", "-100", {})
    assert len({first.room_id, other_chat.room_id, other_platform.room_id}) == 3
    assert (await repo.open_room_for_chat("telegram", "-100")).room_id == first.room_id
    assert (await repo.open_room_for_chat("discord", "-100")).room_id == other_platform.room_id


async def test_concurrent_creates_in_one_chat_open_one_room(repo) -> None:
    results = await asyncio.gather(
        *(repo.create_room("telegram", "-100", {"by": i}) for i in range(6)),
        return_exceptions=True,
    )
    rooms = [r for r in results if not isinstance(r, BaseException)]
    assert len(rooms) == 1
    assert all(isinstance(r, RoomExists) for r in results if isinstance(r, BaseException))
    assert (await repo.open_room_for_chat("telegram", "-100")).room_id == rooms[0].room_id


async def test_close_room_then_new_room_in_same_chat(repo) -> None:
    old = await repo.create_room("telegram", "-100", {"phase": "lobby"})
    keep = await repo.create_room("telegram", "-300", {"phase": "lobby"})
    version = await repo.save_room(old.room_id, {"phase": "closed"}, 1, status=RoomStatus.CLOSED)
    assert version == 2
    assert await repo.open_room_for_chat("telegram", "-100") is None
    closed = await repo.load_room(old.room_id)
    assert closed.status == RoomStatus.CLOSED and closed.state == {"phase": "closed"}
    assert [r.room_id for r in await repo.load_open_rooms()] == [keep.room_id]

    new = await repo.create_room("telegram", "-100", {"phase": "lobby"})
    assert new.room_id != old.room_id and new.version == 1
    assert (await repo.open_room_for_chat("telegram", "-100")).room_id == new.room_id
    assert {r.room_id for r in await repo.load_open_rooms()} == {keep.room_id, new.room_id}

    # Reopening the old room now would make two open rooms in the chat.
    with pytest.raises(RoomExists):
        await repo.save_room(old.room_id, {"phase": "lobby"}, 2, status=RoomStatus.OPEN)
    assert (await repo.load_room(old.room_id)).version == 2


# rounds and settlements


async def test_round_records(repo) -> None:
    room = await repo.create_room("telegram", "-100", {})
    record = round_record(room.room_id, 1)
    v = await repo.save_room(room.room_id, {"round": 1}, 1, round_record=record)
    got = await repo.get_round(room.room_id, 1)
    assert got == record
    assert got.started_at.utcoffset() == timedelta(0)
    assert await repo.get_round(room.room_id, 2) is None
    assert await repo.get_round("nosuch", 1) is None

    # A retried write of the same round keeps the deck first drawn.
    redrawn = round_record(room.room_id, 1, deck=("2D",), salt="other")
    v = await repo.save_room(room.room_id, {"round": 1}, v, round_record=redrawn)
    assert (await repo.get_round(room.room_id, 1)) == record

    # A zone other than UTC is stored as the same instant.
    east = timezone(timedelta(hours=8))
    second = round_record(room.room_id, 2, started_at=datetime(2026, 6, 15, 20, 0, tzinfo=east))
    await repo.save_room(room.room_id, {"round": 2}, v, round_record=second)
    assert (await repo.get_round(room.room_id, 2)).started_at == NOW


async def test_stale_save_writes_neither_round_nor_settlement(repo) -> None:
    room = await repo.create_room("telegram", "-100", {})
    await repo.save_room(room.room_id, {"n": 1}, 1)
    with pytest.raises(StaleVersion):
        await repo.save_room(
            room.room_id,
            {"n": 2},
            1,
            round_record=round_record(room.room_id, 1),
            settlement=settlement(room.room_id, 1, [entry("telegram:1", 5)]),
        )
    assert await repo.get_round(room.room_id, 1) is None
    assert not await repo.has_settlement(room.room_id, 1)
    assert await repo.player_stats("telegram", "1") is None


async def test_settlement_is_written_once(repo) -> None:
    room = await repo.create_room("telegram", "-100", {})
    entries = [
        entry("telegram:1", 6, scoops=1),
        entry("telegram:2", -3),
        entry("ai:3", -3, is_ai=True),
    ]
    assert not await repo.has_settlement(room.room_id, 1)
    v = await settle_round(repo, room, 1, entries)
    assert await repo.has_settlement(room.room_id, 1)
    assert not await repo.has_settlement(room.room_id, 2)

    # The same settlement again (a retry, a restart): the room is saved, nobody is paid twice.
    v2 = await settle_round(repo, room, 1, entries)
    assert v2 == v + 1
    doubled = [entry("telegram:1", 600), entry("telegram:2", -600)]
    await settle_round(repo, room, 1, doubled)
    board = await repo.leaderboard("telegram", "-100", Period.ALL, NOW)
    assert [(r.player_key, r.points, r.rounds) for r in board] == [
        ("telegram:1", 6, 1),
        ("telegram:2", -3, 1),
    ]
    stats = await repo.player_stats("telegram", "1")
    assert (stats.points, stats.rounds, stats.scoops) == (6, 1, 1)


async def test_concurrent_settlement_writers_pay_once(backend) -> None:
    """Two processes settling the same round from the same version: one wins,
    the other gets StaleVersion, and after its retry nothing is doubled."""
    first, second = await backend.new(), await backend.new()
    room = await first.create_room("telegram", "-100", {})
    record = settlement(room.room_id, 1, [entry("telegram:1", 4), entry("telegram:2", -4)])
    results = await asyncio.gather(
        first.save_room(room.room_id, {"s": 1}, 1, settlement=record),
        second.save_room(room.room_id, {"s": 1}, 1, settlement=record),
        return_exceptions=True,
    )
    assert sorted(type(r).__name__ for r in results) == ["StaleVersion", "int"]
    await second.save_room(room.room_id, {"s": 1}, 2, settlement=record)  # the retry
    for repo in (first, second):
        stats = await repo.player_stats("telegram", "1")
        assert (stats.points, stats.rounds) == (4, 1)


# leaderboards and stats


async def _board_fixture(repo):  # type: ignore[no-untyped-def]
    """Three players in chat -100 over 40 days, plus noise in another chat."""
    room = await repo.create_room("telegram", "-100", {})
    rounds = [
        # (round, days ago, entries)
        (1, 40, [entry("telegram:1", 10, name="Ann"), entry("telegram:2", -10, name="Bo")]),
        (2, 20, [entry("telegram:1", -4, name="Ann"), entry("telegram:2", 8, name="Bo", home_run=True, scoops=2),
                 entry("ai:1", -4, is_ai=True)]),
        (3, 6, [entry("telegram:1", 3, name="Ann", special="six_pairs"), entry("telegram:3", -1, name="Cy"),
                entry("telegram:2", -2, name="Bob"), entry("ai:1", 900, is_ai=True, name="Bot")]),
        (4, 0, [entry("telegram:3", 5, name="Cy", scoops=1), entry("telegram:1", -5, name="Ann")]),
    ]  # fmt: skip
    for round_no, days_ago, entries in rounds:
        await settle_round(repo, room, round_no, entries, settled_at=NOW - timedelta(days=days_ago))
    other = await repo.create_room("telegram", "-999", {})
    await settle_round(repo, other, 1, [entry("telegram:1", 50, name="Ann")], settled_at=NOW)
    return room


async def test_leaderboard_all_time(repo) -> None:
    await _board_fixture(repo)
    board = await repo.leaderboard("telegram", "-100", Period.ALL, NOW)
    rows = [(r.player_key, r.name, r.points, r.rounds, r.wins, r.scoops, r.home_runs, r.specials)
            for r in board]  # fmt: skip
    assert rows == [
        ("telegram:1", "Ann", 4, 4, 2, 0, 0, 1),
        ("telegram:3", "Cy", 4, 2, 1, 1, 0, 0),  # same points, fewer wins
        ("telegram:2", "Bob", -4, 3, 1, 2, 1, 0),  # the name last seen
    ]
    assert board[0].win_rate == pytest.approx(0.5)
    assert all(not r.player_key.startswith("ai:") for r in board)
    assert len(await repo.leaderboard("telegram", "-100", Period.ALL, NOW, limit=2)) == 2
    assert await repo.leaderboard("telegram", "-555", Period.ALL, NOW) == []
    assert await repo.leaderboard("discord", "-100", Period.ALL, NOW) == []


async def test_leaderboard_week_and_month(repo) -> None:
    await _board_fixture(repo)
    week = await repo.leaderboard("telegram", "-100", Period.WEEK, NOW)
    assert [(r.player_key, r.points, r.rounds) for r in week] == [
        ("telegram:3", 4, 2),
        ("telegram:1", -2, 2),
        ("telegram:2", -2, 1),
    ]
    month = await repo.leaderboard("telegram", "-100", Period.MONTH, NOW)
    assert [(r.player_key, r.points, r.rounds, r.home_runs) for r in month] == [
        ("telegram:2", 6, 2, 1),
        ("telegram:3", 4, 2, 0),
        ("telegram:1", -6, 3, 0),
    ]
    # Periods are measured back from the given ``now``, in any zone.
    later = (NOW + timedelta(days=6, hours=1)).astimezone(timezone(timedelta(hours=-5)))
    assert [r.player_key for r in await repo.leaderboard("telegram", "-100", "week", later)] == [
        "telegram:3",
        "telegram:1",
    ]
    assert await repo.leaderboard("telegram", "-100", Period.WEEK, NOW + timedelta(days=8)) == []


async def test_player_stats_across_chats(repo) -> None:
    await _board_fixture(repo)
    dm = await repo.create_room("discord", "guild-1", {})
    await settle_round(repo, dm, 1, [entry("discord:1", 77, name="Ann#1"), entry("discord:2", -77)])

    ann = await repo.player_stats("telegram", "1")
    assert ann is not None
    assert (ann.player_key, ann.name) == ("telegram:1", "Ann")
    assert (ann.points, ann.rounds, ann.wins, ann.chats, ann.best_round) == (54, 5, 3, 2, 50)
    assert (ann.scoops, ann.home_runs, ann.specials) == (0, 0, 1)
    assert ann.win_rate == pytest.approx(0.6)

    bo = await repo.player_stats("telegram", "2")
    assert (bo.name, bo.points, bo.rounds, bo.scoops, bo.home_runs, bo.best_round) == (
        "Bob", -4, 3, 2, 1, 8,
    )  # fmt: skip
    loser = await repo.player_stats("discord", "2")
    assert (loser.points, loser.best_round, loser.chats) == (-77, 0, 1)
    assert (await repo.player_stats("discord", "1")).points == 77
    assert await repo.player_stats("telegram", "404") is None
    assert await repo.player_stats("ai", "1") is None  # AI seats have no record
