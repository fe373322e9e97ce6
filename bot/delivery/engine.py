"""The delivery engine: per-chat lanes over the durable outbox.

Each chat with due rows gets its own lane (an asyncio task) that leases the
chat in the database, sends the chat's rows in order through the platform's
Transport under the chat's token bucket and the bot's overall one, and
records each result. A chat that floods (or waits out a 429) holds up only
its own lane. Rows written by another process, left by a crash or waiting
for a retry are found by a poller. See docs/delivery.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import uuid
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from bot.delivery.limits import Limits, TokenBucket
from bot.delivery.transport import UNSURE, Hold, Permanent, RetryLater, Transport
from storage.delivery import DeliveryStore, OutboxRow, Shards

log = logging.getLogger(__name__)

BACKOFF_FIRST = 0.5
BACKOFF_MAX = 30.0
UNEXPECTED_ATTEMPTS = 8  # an error we cannot classify: retried this often, then failed
# The clean-up of old delivery records (docs/delivery.md §7): how long they
# are kept, how often a pass runs, and how much one pass deletes at most.
DEFAULT_RETENTION = timedelta(days=7)
CLEANUP_EVERY = 3600.0
CLEANUP_BATCH = 500
CLEANUP_BACKLOG = 10.0  # a pass that hit its batch: the next one comes this soon


def _host() -> str:
    return socket.gethostname()[:32].replace(":", "-")


def process_owner() -> str:
    """A lease owner name unique to this process: host, pid, a random tag."""
    return f"{_host()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def is_dead_owner(owner: str) -> bool:
    """Whether ``owner`` names a process of this host that no longer runs
    (its leases can be taken at once instead of waited out)."""
    host, _, rest = owner.partition(":")
    pid = rest.partition(":")[0]
    if host != _host() or not pid.isdigit() or int(pid) == os.getpid():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except OSError:  # it exists, owned by someone else
        return False
    return False


def backoff(attempts: int) -> float:
    return float(min(BACKOFF_MAX, BACKOFF_FIRST * 2 ** max(attempts, 0)))


class DeliveryEngine:
    def __init__(
        self,
        store: DeliveryStore,
        transport: Transport,
        *,
        limits: Limits | None = None,
        owner: str | None = None,
        poll_seconds: float = 1.0,
        lease_seconds: float = 15.0,
        coalesce_seconds: float = 0.0,
        exclusive: bool = False,
        accepts: Callable[[str], bool] | None = None,
        shards: Shards | None = None,
        retention: timedelta | None = DEFAULT_RETENTION,
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.store = store
        self.transport = transport
        self.platform = transport.platform
        self.limits = limits or Limits()
        self.owner = owner or process_owner()
        self.poll_seconds = poll_seconds
        self.lease_seconds = lease_seconds
        self.coalesce_seconds = coalesce_seconds
        # The only process on this database: leases left by a crashed run are
        # dropped at start instead of waited out.
        self.exclusive = exclusive
        # Which chats' rows this process's poller takes up (None: every
        # chat); e.g. a Discord shard process: the channels of its own guilds.
        self.accepts = accepts
        # A shard process's poller looks only at the rows routed to its
        # shards (selected in SQL, so other shards' rows never crowd them out).
        self.shards = shards
        self.now = now  # the clock of leases and retry times (a test may move it)
        # Failed rows and message ids no open room needs are deleted after
        # this long (None: never); the first pass runs at start.
        self.retention = retention
        self._next_cleanup = 0.0
        self._lanes: dict[str, asyncio.Task[None]] = {}
        self._wakes: dict[str, asyncio.Event] = {}
        self._buckets: dict[str, TokenBucket] = {}
        self._overall = TokenBucket(self.limits.overall_per_second, self.limits.overall_burst)
        self._poller: asyncio.Task[None] | None = None
        self._idle = asyncio.Event()
        self._idle.set()
        self.delivered: Counter[str] = Counter()  # by view kind
        self.errors: Counter[str] = Counter()  # by error kind
        self.latency: list[float] = []  # seconds from first write to delivery (bounded)
        self.on_delivered: Callable[[OutboxRow, float], None] | None = None

    def set_limits(self, limits: Limits) -> None:
        self.limits = limits
        self._buckets.clear()
        self._overall = TokenBucket(limits.overall_per_second, limits.overall_burst)

    # ---- lifecycle ------------------------------------------------------------------
    def start(self) -> None:
        if self._poller is None:
            self._poller = asyncio.get_running_loop().create_task(self._poll())

    async def stop(self, timeout: float = 10.0) -> None:
        """Deliver what is due (for at most ``timeout`` s), then stop."""
        if self._poller is not None:
            self._poller.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._poller
            self._poller = None
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.drain(), timeout)
        for task in list(self._lanes.values()):
            task.cancel()
        for task in list(self._lanes.values()):
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def drain(self) -> None:
        """Wait until every lane of this process is idle."""
        while self._lanes:
            await asyncio.gather(*self._lanes.values(), return_exceptions=True)

    async def settle(self, chat_id: str, timeout: float) -> None:
        """Wait (at most ``timeout`` s) until ``chat_id``'s lane in this
        process is idle: e.g. to tell a user at once whether a send worked."""
        task = self._lanes.get(chat_id)
        if task is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(task), timeout)

    # ---- waking lanes ---------------------------------------------------------------
    def wake(self, chat_id: str) -> None:
        """Rows for ``chat_id`` were written: make sure its lane runs."""
        event = self._wakes.get(chat_id)
        if event is not None and chat_id in self._lanes:
            event.set()
            return
        self._wakes[chat_id] = asyncio.Event()
        self._lanes[chat_id] = asyncio.get_running_loop().create_task(self._lane(chat_id))

    async def _poll(self) -> None:
        """Find rows this process was not told about: another process's,
        a crashed run's, rows whose retry time came."""
        with contextlib.suppress(Exception):
            if self.exclusive:
                await self.store.release_all_lanes(self.platform)
            else:
                # A restarted process takes over the chats of the run it replaced.
                owners = await self.store.lane_owners(self.platform)
                dead = [o for o in owners if is_dead_owner(o)]
                if dead:
                    log.info("delivery: taking over the chats of %d stopped process(es)", len(dead))
                    await self.store.release_lanes_of(self.platform, dead)
        while True:
            try:
                due = await self.store.due_lanes(self.platform, self.now(), shards=self.shards)
                for chat_id in due:
                    if chat_id not in self._lanes and (
                        self.accepts is None or self.accepts(chat_id)
                    ):
                        self.wake(chat_id)
            except Exception:  # the database may be down for a moment: try again
                log.warning("delivery: could not look for due messages", exc_info=True)
            await self._clean_up()
            await asyncio.sleep(self.poll_seconds)

    async def _clean_up(self) -> None:
        """Now and then, one bounded pass over old delivery records."""
        loop = asyncio.get_running_loop()
        if self.retention is None or loop.time() < self._next_cleanup:
            return
        # Hourly; a short retention (a test's) is looked after more often.
        every = min(CLEANUP_EVERY, max(self.retention.total_seconds() / 2, self.poll_seconds))
        self._next_cleanup = loop.time() + every
        try:
            purged = await self.store.purge(
                self.platform, self.now() - self.retention, CLEANUP_BATCH
            )
        except Exception:
            log.warning("delivery: the clean-up of old records failed", exc_info=True)
            return
        if purged.total:
            log.info(
                "delivery: cleaned up %d failed rows, %d message ids, %d room prefs",
                purged.failed,
                purged.messages,
                purged.prefs,
            )
        if max(purged.failed, purged.messages, purged.prefs) >= CLEANUP_BATCH:
            self._next_cleanup = loop.time() + CLEANUP_BACKLOG

    # ---- one chat ---------------------------------------------------------------------
    def _bucket(self, chat_id: str) -> TokenBucket:
        bucket = self._buckets.get(chat_id)
        if bucket is None:
            lim = self.limits
            if self.transport.is_group(chat_id):
                bucket = TokenBucket(lim.group_per_second, lim.group_burst)
            else:
                bucket = TokenBucket(lim.private_per_second, lim.private_burst)
            self._buckets[chat_id] = bucket
        return bucket

    async def _lane(self, chat_id: str) -> None:
        wake = self._wakes[chat_id]
        lease_until: datetime | None = None
        try:
            while True:
                wake.clear()
                now = self.now()
                if self.exclusive:
                    lease_until = now + timedelta(days=1)  # the only process: no lease needed
                elif lease_until is None or now > lease_until - timedelta(
                    seconds=self.lease_seconds / 2
                ):
                    until = now + timedelta(seconds=self.lease_seconds)
                    if not await self.store.claim_lane(
                        self.platform, chat_id, self.owner, until, now
                    ):
                        return  # another process delivers this chat now
                    lease_until = until
                if self.coalesce_seconds > 0:
                    await asyncio.sleep(self.coalesce_seconds)  # let a burst of states pile up
                rows = await self.store.lane_rows(self.platform, chat_id, self.now())
                if not rows:
                    if wake.is_set():
                        continue
                    return
                pause = 0.0
                for row in rows:
                    pause = await self._deliver(chat_id, row)
                    if pause > 0:
                        break  # the chat (or the bot) must wait: keep the order
                if pause > 0:
                    await asyncio.sleep(pause)
                elif self.exclusive and not wake.is_set():
                    return  # the only process, told of nothing new: the chat is done
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("delivery lane of chat %s stopped; the poller restarts it", chat_id)
        finally:
            if self._lanes.get(chat_id) is asyncio.current_task():
                del self._lanes[chat_id]
                self._wakes.pop(chat_id, None)
                if lease_until is not None and not self.exclusive:
                    with contextlib.suppress(Exception):
                        await self.store.release_lane(self.platform, chat_id, self.owner)

    async def _deliver(self, chat_id: str, row: OutboxRow) -> float:
        """Send one row; the seconds the lane must pause before its next row."""
        await self._bucket(chat_id).acquire()
        await self._overall.acquire()
        try:
            sent = await self.transport.deliver(row)
        except RetryLater as exc:
            delay = exc.after if exc.after is not None else backoff(row.attempts)
            self.errors[exc.kind] += 1
            log.warning(
                "delivery: %s for %s in chat %s; retrying in %.1fs", exc, row.key, chat_id, delay
            )
            # A post the platform said it did not make stays a post, also
            # for a newer state written while it was tried.
            made_nothing = row.fresh and not str(exc).startswith(UNSURE)
            await self.store.retry(
                row, self.now() + timedelta(seconds=delay), str(exc), still_a_post=made_nothing
            )
            return max(delay, 0.001)
        except Hold as exc:
            self.errors["held"] += 1
            await self.store.hold(row, str(exc))
            return 0.0
        except Permanent as exc:
            self.errors[exc.kind] += 1
            log.warning("delivery: %s for %s in chat %s; not retried", exc, row.key, chat_id)
            await self.store.fail(row, str(exc))
            return 0.0
        except Exception as exc:
            self.errors["unexpected"] += 1
            if row.attempts + 1 >= UNEXPECTED_ATTEMPTS:
                log.exception("delivery: %s failed %d times; given up", row.key, row.attempts + 1)
                await self.store.fail(row, repr(exc))
                return 0.0
            delay = backoff(row.attempts)
            log.warning("delivery: %r for %s; retrying in %.1fs", exc, row.key, delay)
            await self.store.retry(row, self.now() + timedelta(seconds=delay), repr(exc))
            return delay
        await self.store.finish(row, sent)
        self.delivered[row.kind] += 1
        age = (self.now() - row.created_at).total_seconds()
        if len(self.latency) < 100_000:
            self.latency.append(age)
        if self.on_delivered is not None:
            self.on_delivered(row, age)
        return 0.0
