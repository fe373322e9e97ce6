"""The DeliveryStore part of every repository: the outbox upsert (a later
state supersedes an undelivered one), delivery by seq, lane leases, sent
message ids, prefs - on memory, SQLite and PostgreSQL alike."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from storage.api import StaleVersion
from storage.delivery import OutboxEntry, OutboxState, SentRef, TimerChange

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def entry(key: str, text: str, chat: str = "-100", fresh: bool = False) -> OutboxEntry:
    return OutboxEntry("telegram", chat, key, "table", {"text": text}, fresh)


async def test_a_later_state_supersedes_and_keeps_its_place(repo) -> None:
    await repo.enqueue([entry("table:r1", "v1", fresh=True), entry("hand:r1:1", "h1")], NOW)
    await repo.enqueue([entry("table:r1", "v2")], NOW)
    rows = await repo.lane_rows("telegram", "-100", NOW)
    assert [(r.key, r.payload["text"], r.seq) for r in rows] == [
        ("table:r1", "v2", 2),
        ("hand:r1:1", "h1", 1),
    ]
    assert rows[0].fresh  # still a post: the first state was never sent
    assert await repo.due_lanes("telegram", NOW) == ["-100"]
    assert await repo.due_lanes("discord", NOW) == []


async def test_finish_deletes_only_the_state_that_was_sent(repo) -> None:
    await repo.enqueue([entry("table:r1", "v1", fresh=True)], NOW)
    [sent] = await repo.lane_rows("telegram", "-100", NOW)
    assert await repo.mark_sending(sent)
    await repo.enqueue([entry("table:r1", "v2")], NOW)  # arrives while v1 is on its way
    ref = SentRef("telegram", "-100", "table:r1", "77", "fp", "1", True)
    assert not await repo.finish(sent, ref)
    [left] = await repo.lane_rows("telegram", "-100", NOW)
    assert left.payload["text"] == "v2" and not left.fresh  # an edit of message 77 now
    assert left.state is OutboxState.PENDING
    assert await repo.finish(left, ref)
    assert await repo.lane_rows("telegram", "-100", NOW) == []
    assert await repo.sent_message("telegram", "-100", "table:r1") == ref
    assert await repo.sent_key("telegram", "-100", "77") == "table:r1"
    stats = await repo.outbox_stats()
    assert (stats.depth, stats.oldest, stats.failed) == (0, None, 0)


@pytest.mark.parametrize("made_nothing", [True, False])
async def test_a_post_that_made_nothing_stays_a_post(repo, made_nothing) -> None:
    await repo.enqueue([entry("settle:r1:1", "paid", fresh=True)], NOW)
    [sent] = await repo.lane_rows("telegram", "-100", NOW)
    assert await repo.mark_sending(sent)
    await repo.enqueue([entry("settle:r1:1", "paid, Cy joined")], NOW)  # while it is tried
    # the platform said it made nothing (a 429): the newer state is a post;
    # otherwise (the answer was lost) it may have been made: an update
    await repo.retry(sent, NOW, "429", still_a_post=made_nothing)
    [left] = await repo.lane_rows("telegram", "-100", NOW)
    assert left.payload["text"] == "paid, Cy joined" and left.fresh is made_nothing
    assert left.state is OutboxState.PENDING and left.attempts == 0


async def test_a_post_keeps_what_its_tries_left_when_a_later_state_comes(repo) -> None:
    await repo.enqueue([entry("settle:r1:1", "paid", fresh=True), entry("table:r1", "t")], NOW)
    post, edit = await repo.lane_rows("telegram", "-100", NOW)
    await repo.retry(post, NOW, "posted?: read timed out")  # the answer was lost
    await repo.retry(edit, NOW, "502")
    await repo.enqueue([entry("settle:r1:1", "Cy joined"), entry("table:r1", "t2")], NOW)
    post, edit = await repo.lane_rows("telegram", "-100", NOW)
    # still a post that may have been made; an edit starts afresh
    assert post.fresh and post.last_error == "posted?: read timed out"
    assert not edit.fresh and edit.last_error is None


async def test_retry_waits_and_fail_stops(repo) -> None:
    await repo.enqueue([entry("a", "x"), entry("b", "y")], NOW)
    a, b = await repo.lane_rows("telegram", "-100", NOW)
    await repo.retry(a, NOW + timedelta(seconds=5), "429")
    await repo.fail(b, "chat not found")
    assert await repo.lane_rows("telegram", "-100", NOW) == []
    [again] = await repo.lane_rows("telegram", "-100", NOW + timedelta(seconds=5))
    assert again.key == "a" and again.attempts == 1 and again.last_error == "429"
    stats = await repo.outbox_stats("telegram")
    assert stats.depth == 1 and stats.failed == 1 and stats.oldest == NOW


async def test_one_owner_per_lane_until_its_lease_ends(repo) -> None:
    until = NOW + timedelta(seconds=10)
    assert await repo.claim_lane("telegram", "-100", "p1", until, NOW)
    assert not await repo.claim_lane("telegram", "-100", "p2", until, NOW)
    assert await repo.claim_lane("telegram", "-100", "p1", until, NOW)  # renewal
    assert await repo.claim_lane("telegram", "-200", "p2", until, NOW)  # other chats are free
    later = NOW + timedelta(seconds=11)
    assert await repo.claim_lane("telegram", "-100", "p2", later + timedelta(seconds=10), later)
    await repo.release_lane("telegram", "-100", "p1")  # not p1's any more: no effect
    assert not await repo.claim_lane("telegram", "-100", "p1", later, later)
    await repo.release_lane("telegram", "-100", "p2")
    assert await repo.claim_lane("telegram", "-100", "p1", later, later)


async def test_views_are_written_with_the_state_or_not_at_all(backend) -> None:
    repo = await backend.new()
    rec = await repo.create_room("telegram", "-100", {"phase": "lobby"})
    out = [entry(f"table:{rec.room_id}", "lobby")]
    await repo.save_room(rec.room_id, {"phase": "lobby", "n": 1}, 1, outbox=out)
    with pytest.raises(StaleVersion):
        await repo.save_room(rec.room_id, {"phase": "lobby", "n": 2}, 1, outbox=[entry("x", "no")])
    rows = await repo.lane_rows("telegram", "-100", datetime.now(UTC) + timedelta(seconds=1))
    assert [r.key for r in rows] == [f"table:{rec.room_id}"]
    if backend.url is not None:  # another process on the same database sees them
        other = await backend.new()
        again = await other.lane_rows("telegram", "-100", datetime.now(UTC) + timedelta(seconds=1))
        assert [r.payload for r in again] == [r.payload for r in rows]


async def test_prefs(repo) -> None:
    assert await repo.get_pref("discord", "5", "hand_dm") is None
    await repo.set_pref("discord", "5", "hand_dm", "1")
    await repo.set_pref("discord", "5", "hand_dm", "0")
    assert await repo.get_pref("discord", "5", "hand_dm") == "0"
    await repo.set_pref("discord", "5", "hand_dm", None)
    assert await repo.get_pref("discord", "5", "hand_dm") is None


async def test_due_timers_are_leased_to_one_owner(backend) -> None:
    repo = await backend.new()
    rec = await repo.create_room("telegram", "-100", {"phase": "lobby"})
    await repo.save_room(rec.room_id, {"phase": "arranging"}, 1, timer=TimerChange(100.0))
    wall = datetime.now(UTC)
    until = wall + timedelta(seconds=10)
    assert await repo.claim_due_timers(99.0, "p1", until, wall) == []  # not due yet
    assert await repo.claim_due_timers(100.0, "p1", until, wall) == [rec.room_id]
    assert await repo.claim_due_timers(100.0, "p2", until, wall) == []  # p1 holds it
    later = wall + timedelta(seconds=11)  # p1 died: the lease runs out
    assert await repo.claim_due_timers(100.0, "p2", later + timedelta(seconds=10), later) == [
        rec.room_id
    ]
    # a save that moves the timer clears the lease; None: nothing is due
    await repo.save_room(rec.room_id, {"phase": "showdown"}, 2, timer=TimerChange(101.0))
    assert await repo.claim_due_timers(101.0, "p3", until, wall) == [rec.room_id]
    await repo.save_room(rec.room_id, {"phase": "lobby"}, 3, timer=TimerChange(None))
    assert await repo.claim_due_timers(1e12, "p3", later, later) == []


async def test_leases_of_stopped_owners_are_dropped(repo) -> None:
    until = NOW + timedelta(seconds=10)
    assert await repo.claim_lane("telegram", "-1", "dead", until, NOW)
    assert await repo.claim_lane("telegram", "-2", "live", until, NOW)
    assert sorted(await repo.lane_owners("telegram")) == ["dead", "live"]
    await repo.release_lanes_of("telegram", ["dead"])
    assert await repo.lane_owners("telegram") == ["live"]
    assert await repo.claim_lane("telegram", "-1", "new", until, NOW)


async def test_a_due_row_carries_the_message_stored_for_its_key(repo) -> None:
    """One read for the row and the message it edits (docs/delivery.md)."""
    await repo.enqueue([entry("table:r1", "v1", fresh=True), entry("hand:r1:1", "h1")], NOW)
    table, hand = await repo.lane_rows("telegram", "-100", NOW)
    assert (table.shown_read, table.shown, hand.shown) == (True, None, None)
    ref = SentRef("telegram", "-100", "table:r1", "77", "fp", "1", True, buttons=[["x"]])
    assert await repo.finish(table, ref)
    await repo.enqueue([entry("table:r1", "v2")], NOW)
    hand, table = await repo.lane_rows("telegram", "-100", NOW)  # the new row is the last
    assert table.shown == await repo.sent_message("telegram", "-100", "table:r1")
    assert table.shown is not None and table.shown.message_id == "77"
    assert table.shown.buttons == [["x"]] and table.shown.fingerprint == "fp"
    assert hand.shown is None  # another key's message is not this row's
