"""One outbox for every platform: views in, and for each outbox row the one
decision of what it becomes (docs/delivery.md).

Views of accepted actions are in the database already (written with the
state change); the others (answers to read-only presses, notices) are
written here. A per-chat lane of the DeliveryEngine then hands each row to
``Outbox.deliver``, which decides, the same way on every platform:

- **skip**: the message stored for the row's key shows this already;
- **edit** that message in place (by the id stored in the database, so a
  restarted process or another one edits the same message);
- **post** anew: a one-off notice, a view asked for fresh, a message gone,
  an information post older than the merge window, a new round's message
  where the platform wants one; then the old message's buttons go (but
  those that still answer), and a new round's table retires last round's
  settlement.

A post that may have been made already (a crash, a lost answer) is marked
unsure, and an unsure settlement is not posted again unless the platform
drops repeats (``Platform.repeat_window``). How to post, edit and strip
buttons, and what an error means, is the platform's (platform.py).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Generic

from bot.delivery.engine import DEFAULT_RETENTION, DeliveryEngine
from bot.delivery.entries import is_durable, is_one_off_key, view_entries
from bot.delivery.limits import Limits
from bot.delivery.payload import view_from_payload
from bot.delivery.platform import M, Platform, Prepared
from bot.delivery.superseded import (
    RoundNow,
    kept_current,
    shows_a_result,
    still_working,
    without_stale,
)
from bot.delivery.transport import Hold, Permanent, RetryLater, as_unsure, first_handed, is_unsure
from bot.views.keys import BOARD_NOTICES, INFO_NOTICES, KeyKind, ViewKey
from bot.views.model import View, ViewKind
from storage.delivery import DeliveryStore, OutboxRow, SentRef, Shards

log = logging.getLogger(__name__)
# An information post (rules, help, leaderboard) asked again within this
# time edits the one posted before instead of posting another.
INFO_MERGE = timedelta(minutes=10)
# The group's board (leaderboard, stats) merges over a shorter while: long
# enough for a flood of asks, short enough that the board asked after the
# next round is posted where the group sees it, not edited far above.
BOARD_MERGE = timedelta(minutes=2)
# A message's buttons as it shows them, in payload form (read when a stale
# press is judged; None: the message could not be read).
ShownButtons = Callable[[], Awaitable[list[list[dict[str, Any]]] | None]]


@dataclass(frozen=True, slots=True)
class Pacing:
    """How a platform's lanes pace themselves: its flood limits, how often
    the poller looks for rows nobody woke a lane for, how long delivery
    records are kept, how long a lane lets a burst of states pile up."""

    limits: Limits | None = None
    poll_seconds: float = 1.0
    retention: timedelta | None = DEFAULT_RETENTION
    coalesce_seconds: float = 0.0
    # the shards this process serves (Discord; None: every row)
    shards: Shards | None = None


STEADY = Pacing()  # the defaults


class Outbox(Generic[M]):
    """A platform's delivery, built over its ``Platform`` where the process
    is assembled: what its adapter calls (submit, adopt, key_of,
    retire_pressed, release) and the engine's Transport (deliver)."""

    def __init__(self, store: DeliveryStore, side: Platform[M], pacing: Pacing = STEADY) -> None:
        self.store = store
        self.side = side
        self.traits = side.traits  # read once: the decision's constants
        self.platform = self.traits.name
        self.engine = DeliveryEngine(
            store,
            self,
            limits=pacing.limits,
            poll_seconds=pacing.poll_seconds,
            retention=pacing.retention,
            coalesce_seconds=pacing.coalesce_seconds,
            shards=pacing.shards,
            # the only process on its database (SQLite): leases of a crashed
            # run are dropped at start
            exclusive=not getattr(store, "shared", False),
        )

    def wake(self, chat_ids: Iterable[str]) -> None:
        """Rows of these chats were written (with the state change that made
        them): their lanes go (the table manager calls it after the commit)."""
        for chat in dict.fromkeys(chat_ids):
            self.engine.wake(chat)

    @property
    def window(self) -> float:
        """Seconds a lane waits for a burst of states to pile up."""
        return self.engine.coalesce_seconds

    @window.setter
    def window(self, seconds: float) -> None:
        self.engine.coalesce_seconds = seconds

    # ---- what the adapter calls -------------------------------------------------------
    async def submit(self, views: Iterable[View]) -> None:
        """Deliver ``views`` (those of another platform are left out): those
        written with their state change already are left out too (the table
        manager woke their lanes once they were stored: ``wake``); the
        others are written and their lanes woken."""
        unwritten: list[tuple[View, str]] = []
        for view in views:
            if view.platform and view.platform != self.platform or is_durable(view):
                continue  # another platform's view from a shared manager, or written
            view = view if view.platform else dataclasses.replace(view, platform=self.platform)
            chat = self.side.chat_of(view)
            if chat:
                unwritten.append((view, chat))
        await self.send(unwritten)

    async def send(self, views: Iterable[tuple[View, str]], wake: Iterable[str] = ()) -> list[str]:
        """Write each view for the chat paired with it, and wake those chats'
        lanes (and those of ``wake``); the chats woken."""
        entries = [
            dataclasses.replace(entry, chat_id=chat)
            for view, chat in views
            for entry in view_entries([dataclasses.replace(view, platform=self.platform)])
        ]
        if entries:
            await self.store.enqueue(entries, self.engine.now())
        chats = list(dict.fromkeys([*wake, *(entry.chat_id for entry in entries)]))
        for chat in chats:
            self.engine.wake(chat)
        return chats

    async def release(self, chat_id: str) -> int:
        """The chat can be reached now: its held rows (also those another
        process or an earlier run held) go out; how many there were."""
        held = await self.store.release_held(self.platform, chat_id, self.engine.now())
        if held:
            self.engine.wake(chat_id)
        return held

    async def adopt(self, key: str, chat_id: str, message_id: str) -> None:
        """A press on a message answered with a view of ``key``: when no
        message is stored for that key (one sent by an older version of the
        bot), the view edits the pressed message."""
        if await self.store.sent_message(self.platform, chat_id, key) is None:
            await self.store.put_sent(
                SentRef(self.platform, chat_id, key, message_id, has_buttons=True)
            )

    async def key_of(self, chat_id: str, message_id: str) -> str | None:
        """The view key a message was sent for (None if not known)."""
        return await self.store.sent_key(self.platform, chat_id, message_id)

    async def retire_pressed(
        self, chat_id: str, message_id: str, round_now: RoundNow, shown: ShownButtons
    ) -> None:
        """A press on a message (in the group, or a private hand of an
        earlier round) was refused as stale: the buttons of that message
        that are themselves of another round go, the others stay; a message
        the outbox keeps current (the live table, the hand of the round
        being played) is not touched. Judged from the message (its stored key, and the buttons
        ``shown`` reads from it), never from the data pressed."""
        if await kept_current(self.store, self.platform, chat_id, message_id, round_now):
            return
        rows = await shown()
        if rows is None:
            return
        kept = await without_stale(
            [row for row in rows if row], round_now, also=self.side.own_button
        )
        if kept is not None:
            await self.side.strip(chat_id, message_id, kept)

    def start(self) -> None:
        self.engine.start()

    async def drain(self) -> None:
        """Wait until everything this process was given has been delivered."""
        await self.engine.drain()

    async def stop(self) -> None:
        await self.engine.stop()

    # ---- the Transport ----------------------------------------------------------------
    def is_group(self, chat_id: str) -> bool:
        return self.side.is_group(chat_id)

    async def deliver(self, row: OutboxRow) -> SentRef | None:
        view = view_from_payload(row.payload)
        one_off = is_one_off_key(row.key)
        if one_off:
            known = None
        elif row.shown_read:
            known = row.shown  # read with the row
        else:
            known = await self.store.sent_message(self.platform, row.chat_id, row.key)
        was_unsure = is_unsure(row)
        if view.kind is ViewKind.SETTLEMENT and known is None and not row.fresh:
            # An update of a settlement (it is the lobby between rounds) with
            # no message to edit: its own post may have been made and was not
            # repeated, or failed; posting the update would announce the
            # round a second time. (A post still waiting keeps its row fresh.)
            log.info("delivery: settlement %s has no message to update; dropped", row.key)
            return None
        if (
            was_unsure
            and (known is None or row.fresh)
            and view.kind is ViewKind.SETTLEMENT
            and not self._may_repeat(row)
        ):
            # It may have been posted just before a crash or a lost answer:
            # a second settlement post would be worse than none.
            log.warning(
                "delivery: settlement %s may have been posted already; not repeated", row.key
            )
            return None
        edits = known is not None and self._edits(row, view, known)
        try:
            prepared = await self.side.prepare(row, view, known if edits else None)
        except Hold as held:
            await self._say(held.notices)
            raise
        try:
            return await self._show(row, view, prepared, known, edits=edits, unsure=was_unsure)
        finally:
            # what the platform asked to say (a channel told it gets no pictures)
            await self._say(prepared.notices)

    async def _show(
        self,
        row: OutboxRow,
        view: View,
        prepared: Prepared[M],
        known: SentRef | None,
        *,
        edits: bool,
        unsure: bool,
    ) -> SentRef | None:
        """Skip, edit ``known`` (``edits``) or post ``prepared``; what is
        stored of the message showing it."""
        posting = False
        again: Prepared[M] | None = None  # prepared anew, as a new post
        try:
            if edits and known is not None:
                if known.fingerprint == prepared.fingerprint:
                    return known  # it shows this already
                if await self.side.edit(row, prepared, known):
                    return self._ref(row, view, prepared.fingerprint, known.message_id)
                log.info("delivery: the message of %s cannot be edited; posted anew", row.key)
                # as a new message (Telegram: a photo's caption becomes a text)
                again = await self.side.prepare(row, view, None)
            await self.store.mark_sending(row)
            posting = True
            message_id = await self.side.post(row, again or prepared)
        except Hold as held:
            await self._say(held.notices)
            raise
        except (RetryLater, Permanent):
            raise
        except Exception as error:
            found = await self.side.classify(error, row, view)
            if found is None:
                raise
            if isinstance(found, Hold):
                await self._say(found.notices)
            if isinstance(found, RetryLater) and (
                unsure or (posting and self.side.maybe_posted(error))
            ):
                found = as_unsure(found)
            raise found from error
        finally:
            if again is not None:  # what the post asked to say, said with the rest
                prepared.notices.extend(again.notices)
        if again is not None:
            prepared = again
        round_tag = view.meta.round_tag
        if (
            known is not None
            and known.has_buttons
            and known.message_id != message_id
            and not _last_rounds_hand(known, round_tag)
        ):
            # A hand posted anew in its round (My hand pressed in the group)
            # keeps its Review button (it answers for any round).
            hand = ViewKey.parse(known.key).kind is KeyKind.HAND
            await self._retire(known, keep_info=hand)
        # A new round's table (its showdown already where only AI seats play).
        if ViewKey.parse(row.key).kind is KeyKind.TABLE and view.meta.round is not None:
            await self._retire_settlement(row, view.meta.round - 1)
        if is_one_off_key(row.key):
            return None
        return self._ref(row, view, prepared.fingerprint, message_id)

    async def _say(self, notices: Sequence[View]) -> None:
        """Write what the platform asked to be said (a group notice)."""
        views = [
            n if n.platform else dataclasses.replace(n, platform=self.platform) for n in notices
        ]
        chats = [(n, c) for n in views if (c := self.side.chat_of(n))]
        if chats:
            await self.send(chats)

    def _may_repeat(self, row: OutboxRow) -> bool:
        """Whether a post that may have been made can be made again unseen."""
        window = self.traits.repeat_window
        return window is not None and self.engine.now() - first_handed(row) <= window

    def _edits(self, row: OutboxRow, view: View, known: SentRef) -> bool:
        """Whether ``row`` edits the message stored for its key."""
        if row.fresh:
            return False
        round_tag = view.meta.round_tag
        if (
            self.traits.new_round_new_message
            and round_tag
            and known.round_tag not in (None, round_tag)
        ):
            return False  # a new round's message: a new one, so the player hears it
        kind = ViewKey.parse(row.key).kind
        if kind in INFO_NOTICES:
            merge = BOARD_MERGE if kind in BOARD_NOTICES else INFO_MERGE
            return known.at is not None and self.engine.now() - known.at < merge
        return True

    def _ref(self, row: OutboxRow, view: View, shown: str, message_id: str) -> SentRef:
        """What is stored of the message now showing ``row``."""
        return SentRef(
            self.platform,
            row.chat_id,
            row.key,
            message_id,
            shown,
            view.meta.round_tag,
            any(view.buttons),
            buttons=row.payload.get("buttons"),
        )

    async def _retire(self, old: SentRef, *, keep_info: bool = False) -> None:
        """A new message took over ``old``'s key: its buttons go, so nobody
        keeps pressing a message that no longer changes (with ``keep_info``,
        those that still answer - verify, leaderboard, review - stay)."""
        kept = still_working(old.buttons) if keep_info else ()
        if keep_info and sum(map(len, kept)) == _button_count(old.buttons):
            return  # every button still answers: an edit would change nothing
        await self.side.strip(old.chat_id, old.message_id, kept)

    async def _retire_settlement(self, row: OutboxRow, round_no: int) -> None:
        """A new round's table is up: last round's settlement loses its
        "next round" button."""
        room_id = ViewKey.parse(row.key).room
        if round_no < 1 or not room_id:
            return
        key = str(ViewKey(KeyKind.SETTLE, room_id, round=round_no))
        old = await self.store.sent_message(self.platform, row.chat_id, key)
        if old is not None and old.has_buttons:
            await self._retire(old, keep_info=True)
            await self.store.put_sent(dataclasses.replace(old, has_buttons=False))


def _last_rounds_hand(old: SentRef, round_tag: str | None) -> bool:
    """Whether ``old`` is a private hand of an earlier round than the one
    posted for its key (last round's result): it is left as it is. Its
    Review answers for any round; the owner's Next round (or a game button
    of that round) is refused as stale when pressed, and taken off then
    (``retire_pressed``): one call when someone presses it late, instead of
    one at every deal."""
    return (
        ViewKey.parse(old.key).kind is KeyKind.HAND
        and round_tag is not None
        and old.round_tag not in (None, round_tag)
        and shows_a_result(old.buttons)
    )


def _button_count(buttons: list[Any] | None) -> int:
    """How many buttons a stored keyboard (payload form) has."""
    view = view_from_payload(
        {"kind": "notice", "audience": "group", "key": "", "buttons": buttons or []}
    )
    return sum(map(len, view.buttons))
