"""The delivery engine with a scripted transport: per-chat lanes (a flooded
group does not hold up other chats), retries until delivered, permanent
errors recorded, supersede while waiting."""

from __future__ import annotations

import asyncio
import logging
import os
from datetime import UTC, datetime

import pytest

from bot.delivery import DeliveryEngine, Limits, Permanent, RetryLater
from bot.delivery.transport import UNSURE
from storage.delivery import OutboxEntry
from storage.memory import MemoryRepository
from tests.delivery.scripts import Script

GROUP_A, GROUP_B, PRIVATE = "-100", "-200", "7"


def entry(chat: str, key: str, text: str) -> OutboxEntry:
    return OutboxEntry("telegram", chat, key, "notice", {"text": text})


async def until(check, what: str) -> None:  # type: ignore[no-untyped-def]
    for _ in range(400):  # a hang guard, not a speed limit
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(what)


async def test_a_flooded_group_does_not_delay_other_chats() -> None:
    repo, script = MemoryRepository(), Script()
    # Telegram's group limit as it is (20 a minute), without the minute's burst.
    limits = Limits(group_per_second=20 / 60, group_burst=1, private_per_second=1)
    engine = DeliveryEngine(repo, script, limits=limits)
    now = datetime.now(UTC)
    await repo.enqueue([entry(GROUP_A, f"n{i}", f"flood {i}") for i in range(30)], now)
    engine.wake(GROUP_A)
    await until(lambda: script.sent, "the first flood post")
    await repo.enqueue([entry(GROUP_B, "table", "other group")], now)
    await repo.enqueue([entry(PRIVATE, "hand", "my hand")], now)
    engine.wake(GROUP_B)
    engine.wake(PRIVATE)
    await until(lambda: len(script.sent) >= 3, "the other chats' posts")
    flooded = [s for s in script.sent if s[0] == GROUP_A]
    assert {s[0] for s in script.sent} == {GROUP_A, GROUP_B, PRIVATE}
    assert len(flooded) <= 2  # the flood is still waiting for its budget
    left = await repo.lane_rows("telegram", GROUP_A, datetime.now(UTC))
    assert len(left) >= 28
    await engine.stop(timeout=0)


async def test_ten_429s_in_a_row_lose_nothing(caplog) -> None:
    repo, script = MemoryRepository(), Script()
    engine = DeliveryEngine(repo, script, limits=Limits.off())
    script.failures = [RetryLater("429 Too Many Requests", 0.01, "rate_limited")] * 10
    await repo.enqueue([entry(GROUP_A, "settle:r:1", "result")], datetime.now(UTC))
    with caplog.at_level(logging.WARNING):
        engine.wake(GROUP_A)
        await engine.drain()
    assert script.sent == [(GROUP_A, "settle:r:1", "result")]
    warnings = [r for r in caplog.records if "429" in r.getMessage()]
    assert len(warnings) == 10 and all(r.levelno == logging.WARNING for r in warnings)
    assert not any(r.exc_info for r in caplog.records)  # one line each, no traceback
    assert engine.errors["rate_limited"] == 10 and engine.delivered["notice"] == 1


async def test_a_later_state_while_waiting_is_what_is_sent() -> None:
    repo, script = MemoryRepository(), Script()
    engine = DeliveryEngine(repo, script, limits=Limits.off(), poll_seconds=0.02)
    engine.start()
    script.failures = [RetryLater("network: timed out", 0.2, "network")]
    await repo.enqueue([entry(GROUP_A, "table:r", "v1")], datetime.now(UTC))
    engine.wake(GROUP_A)
    await until(lambda: engine.errors["network"] == 1, "the failed try")
    await repo.enqueue([entry(GROUP_A, "table:r", "v2")], datetime.now(UTC))
    await until(lambda: script.sent, "the retry")
    assert script.sent == [(GROUP_A, "table:r", "v2")]
    await engine.stop()


async def test_permanent_errors_are_recorded_not_retried() -> None:
    repo, script = MemoryRepository(), Script()
    engine = DeliveryEngine(repo, script, limits=Limits.off(), poll_seconds=0.02)
    engine.start()
    script.failures = [Permanent("chat not found", "chat_not_found")]
    await repo.enqueue([entry(GROUP_A, "a", "x"), entry(GROUP_A, "b", "y")], datetime.now(UTC))
    engine.wake(GROUP_A)
    await until(lambda: script.sent, "the next row")
    await asyncio.sleep(0.1)  # a few polls: the failed row is not tried again
    assert script.sent == [(GROUP_A, "b", "y")]
    stats = await repo.outbox_stats()
    assert (stats.depth, stats.failed) == (0, 1)
    await engine.stop()


async def test_another_owner_s_lane_is_left_alone_until_its_lease_ends() -> None:
    repo, script = MemoryRepository(), Script()
    one = DeliveryEngine(repo, script, limits=Limits.off(), owner="one")
    two = DeliveryEngine(repo, script, limits=Limits.off(), owner="two")
    now = datetime.now(UTC)
    from datetime import timedelta

    assert await repo.claim_lane("telegram", GROUP_A, "one", now + timedelta(seconds=60), now)
    await repo.enqueue([entry(GROUP_A, "a", "x")], now)
    two.wake(GROUP_A)
    await two.drain()
    assert script.sent == []  # "one" holds the chat
    await repo.release_lane("telegram", GROUP_A, "one")
    one.wake(GROUP_A)
    await one.drain()
    assert script.sent == [(GROUP_A, "a", "x")]


async def test_a_restarted_process_takes_over_the_chats_of_the_dead_one() -> None:
    import subprocess
    import sys
    from datetime import timedelta

    from bot.delivery.engine import _host

    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()  # a process of this host that no longer runs
    repo, script = MemoryRepository(), Script()
    now = datetime.now(UTC)
    later = now + timedelta(seconds=60)
    assert await repo.claim_lane("telegram", GROUP_A, f"{_host()}:{gone.pid}:old", later, now)
    alive = f"{_host()}:{os.getppid()}:other"  # a process that still runs
    assert await repo.claim_lane("telegram", GROUP_B, alive, later, now)
    await repo.enqueue([entry(GROUP_A, "a", "x"), entry(GROUP_B, "b", "y")], now)
    engine = DeliveryEngine(repo, script, limits=Limits.off(), poll_seconds=0.02)
    engine.start()
    await until(lambda: script.sent, "the dead process's chat")
    await asyncio.sleep(0.1)
    assert script.sent == [(GROUP_A, "a", "x")]  # the live one's chat waits for its lease
    assert await repo.lane_owners("telegram") == [alive]
    await engine.stop(timeout=0)


class MergedWhileTried(Script):
    """The first try of a post: a newer state of the same message is written
    while the call is out, then the platform answers with ``failure``."""

    def __init__(self, repo: MemoryRepository, failure: RetryLater) -> None:
        super().__init__()
        self.repo, self.failure = repo, failure
        self.tried: list[tuple[str, bool]] = []  # (text, fresh) of each try

    async def deliver(self, row):  # type: ignore[no-untyped-def]
        self.tried.append((row.payload["text"], row.fresh))
        if len(self.tried) == 1:
            assert await self.repo.mark_sending(row)
            newer = OutboxEntry("telegram", row.chat_id, row.key, "settlement", {"text": "v2"})
            await self.repo.enqueue([newer], datetime.now(UTC))
            raise self.failure
        return await super().deliver(row)


@pytest.mark.parametrize(
    ("failure", "a_post"),
    [
        (RetryLater("429 Too Many Requests", 0.01, "rate_limited"), True),
        (RetryLater(UNSURE + "read timed out", 0.01, "network"), False),
    ],
)
async def test_a_post_that_made_nothing_is_tried_again_as_a_post(failure, a_post) -> None:
    """A settlement post refused with a 429 while the lobby changed: the
    newer state is still the round's one post; after a lost answer it may
    have been made, so the newer state is only an update of it."""
    repo = MemoryRepository()
    script = MergedWhileTried(repo, failure)
    engine = DeliveryEngine(repo, script, limits=Limits.off())
    first = OutboxEntry("telegram", GROUP_A, "settle:r:1", "settlement", {"text": "v1"}, True)
    await repo.enqueue([first], datetime.now(UTC))
    engine.wake(GROUP_A)
    await engine.drain()
    assert script.tried == [("v1", True), ("v2", a_post)]
