"""The table manager: one async entry point (``handle``) for every action,
and the timed transitions (``_on_timer``).

Per room: an asyncio lock; the room (the typed ``bot.core.room.Room``,
JSON only in the repository: rooms.py converts) is stored through
``repo.save_room(expected_version)`` BEFORE any view is returned; on
``StaleVersion`` (another manager wrote first) the room is reloaded and the
action re-applied. The manager dispatches and retries; its other jobs have
their own modules: the room cache and its writes (rooms.py), the timers and
the showdown's pace (timers.py), what each verb does (transitions.py,
arranging.py, and info.py / history.py for the read-only ones) and the views
a change shows (present.py). What each verb needs is read from its
``VerbInfo`` (bot/core/verbs.py).

Nothing slow runs on the event loop: a transition that may call the solver
(the deadline's auto-arrange, a deal with AI seats, a suggestion, a player
who leaves mid-round) runs in a worker thread on its copy of the room, as
reviews do.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import random
from typing import Any

from bot.core.review import SeatReview
from bot.core.room import Room
from bot.core.state import Phase
from bot.core.verbs import VERBS
from bot.delivery.entries import Durable
from bot.i18n import t
from bot.rules.options import OptionError
from bot.views import render
from bot.views.deadline import DEFAULT_TIMEZONE
from bot.views.model import View
from storage.api import Repository, RoomExists, RoomStatus, SettlementRecord, StaleVersion
from storage.delivery import DeliveryStore, OutboxEntry, TimerChange

from . import history, info, lobby, present, solving, transitions
from . import review as RV
from . import round as R
from . import timers as T
from .actions import STALE, Action, Outcome, Verb
from .clock import Clock, RealClock, TimerHandle
from .contract import Sink
from .deal import SYSTEM_RANDOM
from .effects import Effects
from .options import rules_for
from .refused import Refused
from .rooms import Held, Rooms, as_read
from .timers import Timers

__all__ = ["Sink", "TableManager"]

log = logging.getLogger(__name__)

MAX_ARG_CHARS = 64


class TableManager:
    def __init__(
        self,
        repo: Repository,
        clock: Clock | None = None,
        solver_strength: str = "normal",
        arrange_seconds: int = 120,
        reminder_seconds: float = 30,
        showdown_step_seconds: float = 1.5,
        default_language: str = "zh-Hans",
        *,
        default_preset: str = "classic",
        timezone: str = DEFAULT_TIMEZONE,
        rng: random.Random | None = None,
        max_retries: int = 20,
        pictures: bool = True,
    ) -> None:
        self.repo = repo
        self.clock: Clock = clock or RealClock()
        self.solver_strength = solver_strength
        self.arrange_seconds = arrange_seconds
        self.reminder_seconds = reminder_seconds
        self.step_seconds = showdown_step_seconds
        self.default_language = default_language
        self.default_preset = default_preset
        self.timezone = timezone
        self.rng = rng or SYSTEM_RANDOM
        self.max_retries = max_retries
        # The bot's PICTURES setting: False, every room text only whatever
        # its own option; passed to every view rendered here.
        self.pictures = pictures
        self._sink: Sink | None = None
        self.rooms = Rooms(repo)
        self.timers = Timers(self.clock, self._on_timer, showdown_step_seconds)
        # Platforms whose views are written to the outbox with the state
        # change that produced them (docs/delivery.md).
        self.durable = Durable()

    @property
    def _timers(self) -> dict[str, tuple[float, TimerHandle]]:
        """The armed timers by room (for tests)."""
        return self.timers.armed

    # ------------------------------------------------------------ lifecycle

    def set_sink(self, sink: Sink | None) -> None:
        self._sink = sink

    async def start(self) -> None:
        """Load open rooms and re-arm their deadlines and showdown steps."""
        for rec in await self.repo.load_open_rooms():
            try:
                held = as_read(rec)
                self.rooms.remember(held)
                self.timers.arm(held.room_id, held.room)
            except Exception:  # one unreadable room must not keep the others down
                log.exception("room %s could not be restored; left as stored", rec.room_id)
                self.rooms.forget(rec.room_id)

    async def stop(self) -> None:
        self.timers.stop()

    def _ctx(self) -> R.Ctx:
        return R.Ctx(
            now=self.clock.now(),
            rng=self.rng,
            strength=self.solver_strength,
            step_seconds=self.step_seconds,
            reminder_seconds=self.reminder_seconds,
        )

    # ------------------------------------------------------------ handle

    async def handle(self, action: Action) -> Outcome:
        lang = self.default_language
        try:
            verb = Verb(action.verb)
        except ValueError:
            return Outcome(ok=False, reply=t(lang, "err.unknown"))
        if action.arg is not None and len(action.arg) > MAX_ARG_CHARS:
            # oversized text: nothing to do
            return Outcome(ok=False, reply=t(lang, "err.too_long", limit=MAX_ARG_CHARS))
        try:
            if verb is Verb.NEW:
                return await self._new(action)
            room_id = await self._resolve(action)
            if room_id is None:
                if not VERBS[verb].room:
                    return await info.roomless(self, action, verb, None)
                new = render.command(action.actor.platform, "new")
                return Outcome(ok=False, reply=t(lang, "err.no_room", cmd_new=new))
            return await self._in_room(room_id, action, verb)
        except Refused as r:
            params = {"cmd_new": render.command(action.actor.platform, "new"), **r.params}
            reply = t(lang, r.key, **params)
            return Outcome(ok=False, reply=reply, room_id=action.room_id, refused=r.key)
        except Exception:
            # Nothing was stored (transitions work on a copy): say so, keep serving.
            log.exception("action %s failed", action)
            return Outcome(ok=False, reply=t(lang, "err.internal"), room_id=action.room_id)

    async def _resolve(self, action: Action) -> str | None:
        if action.room_id:
            return action.room_id
        if not action.chat_id:
            return None
        return await self.rooms.open_in(action.actor.platform, action.chat_id)

    async def _new(self, action: Action) -> Outcome:
        if not action.chat_id:
            raise Refused("err.no_chat")
        state = lobby.new_state(
            action.actor,
            action.actor.platform,
            action.chat_id,
            action.arg or self.default_preset,
            self.default_language,
            self.arrange_seconds,
            self.timezone,
        )
        made: list[View] = []

        def table_post(stored: Room) -> list[OutboxEntry]:
            # The table post goes to the outbox in the room's own
            # transaction: a crash right after can never leave a room
            # nobody was shown (docs/delivery.md §1).
            view = render.table_view(stored, self.clock.now(), fresh=True, pictures=self.pictures)
            views, entries = self.durable.split([view], f"{stored.id}.1")
            made[:] = views
            return entries

        try:
            rec = await self.rooms.create(
                action.actor.platform, action.chat_id, state, outbox=table_post
            )
        except RoomExists:
            # Said in the open room's language, not the bot's default.
            existing = await self._resolve(dataclasses.replace(action, room_id=None))
            room = await self.rooms.load(existing) if existing else None
            lang = room.room.language if room else self.default_language
            return Outcome(ok=False, reply=t(lang, "err.room_exists"), room_id=existing)
        return Outcome(
            ok=True,
            reply=t(rec.room.language, "toast.opened"),
            views=tuple(made),
            room_id=rec.room_id,
        )

    async def _in_room(self, room_id: str, action: Action, verb: Verb) -> Outcome:
        facts = VERBS[verb]
        if verb is Verb.START and (rec := self.rooms.cached(room_id)) is not None:
            with contextlib.suppress(OptionError, KeyError):  # START itself explains
                await solving.warm(rules_for(rec.room, max(2, len(rec.room.players))))
        async with self.rooms.lock(room_id):
            fresh = False
            for _ in range(self.max_retries):
                rec = await self.rooms.load(room_id, fresh)
                if rec is None:
                    new = render.command(action.actor.platform, "new")
                    raise Refused("err.no_room", cmd_new=new)
                try:
                    self._check(rec, action)
                    if facts.read_only:
                        return await self._answer(rec, action, verb)
                    state = rec.room.copy()
                    apply = transitions.apply
                    ctx = self._ctx()
                    if transitions.may_solve(state, action):
                        fx = await asyncio.to_thread(apply, state, action, ctx)
                    else:
                        fx = apply(state, action, ctx)
                except Refused as r:
                    # The cache may be behind another manager: check afresh.
                    if not fresh and await self.rooms.newer(rec) is not None:
                        fresh = True
                        continue
                    return Outcome(
                        ok=False,
                        reply=render.reason(rec.room.language, r.key, r.params),
                        views=present.refused_views(
                            rec.room, action.actor.key, r, pictures=self.pictures
                        ),
                        room_id=room_id,
                        refused=r.key,
                    )
                views = present.views_of(state, fx, self.clock.now(), pictures=self.pictures)
                if verb is Verb.CANCEL and (m := rec.room.match) and not m.over:
                    # Closed mid-match: the 大结算 of the rounds played.
                    views += await history.final_views(self.repo, state, m, pictures=self.pictures)
                views = present.with_panel(state, action, views)
                try:
                    saved, views = await self._store(rec, state, fx, views, action.actor.key)
                except StaleVersion:
                    self.rooms.forget(room_id)
                    fresh = True
                    continue
                reply = t(saved.room.language, fx.toast[0], **fx.toast[1]) if fx.toast else None
                return Outcome(ok=True, reply=reply, views=tuple(views), room_id=room_id)
            return Outcome(ok=False, reply=t(self.default_language, "err.busy"), room_id=room_id)

    async def _answer(self, rec: Held, action: Action, verb: Verb) -> Outcome:
        """A read-only verb: answered from the stored room, nothing written."""
        if verb is Verb.REVIEW:
            return await history.review(self.repo, rec, action)
        return await info.in_room(self, rec, action, verb)

    def _check(self, rec: Held, action: Action) -> None:
        state = rec.room
        if rec.status is RoomStatus.CLOSED or state.phase == Phase.CLOSED:
            raise Refused("err.room_closed")
        informative = VERBS[action.verb].informative
        # Information buttons of an old post (rules, verify) still answer.
        if action.round_no is not None and action.round_no != state.round_no and not informative:
            raise Refused(STALE)
        if action.actor.platform != state.platform and not informative:
            raise Refused("err.not_player")
        lobby.check_chat(state, action)  # seats only for members of the room's chat

    async def _store(
        self,
        rec: Held,
        state: Room,
        fx: Effects,
        views: list[View],
        actor: str | None = None,
    ) -> tuple[Held, list[View]]:
        """Store ``state`` with the views it produced (those of durable
        platforms go to the outbox in the same transaction) and arm its
        timer; the saved record and the views, marked where they were
        written."""
        T.pace(rec.room, state, self.clock.now(), self.step_seconds)
        closed = state.phase == Phase.CLOSED
        private = await self.durable.private_chats(views, actor)
        views, entries = self.durable.split(views, f"{rec.room_id}.{rec.version + 1}", private)
        due = None if closed else T.next_event(state)
        # Stored where it moved, so any process can fire it (fire_due).
        moved = TimerChange(due) if due != T.next_event(rec.room) else None
        saved = await self.rooms.save(
            rec,
            state,
            round_record=fx.round_record,
            settlement=fx.settlement_record,
            outbox=entries,
            timer=moved,
        )
        self.timers.arm(rec.room_id, state)
        return saved, views

    # ------------------------------------------------------------ timed transitions

    async def _on_timer(self, room_id: str) -> None:
        try:
            await self._timer_step(room_id)
        except Exception:
            # e.g. the database is down: nothing was stored, so try again soon.
            log.exception("timer of room %s failed; retrying", room_id)
            self.timers.retry(room_id)

    async def _timer_step(self, room_id: str) -> None:
        views: list[View] = []
        async with self.rooms.lock(room_id):
            for _ in range(self.max_retries):
                rec = await self.rooms.load(room_id)
                if rec is None or rec.status is RoomStatus.CLOSED:
                    return
                ctx = self._ctx()
                due = T.due(rec.room, ctx.now)
                if due is None:
                    self.timers.arm(room_id, rec.room)
                    return
                if due is T.Due.STEP:
                    wait = await self.timers.step_wait(rec, ctx.now, self._outbox_of(rec))
                    if wait is not None:
                        self.timers.retry(room_id, wait)
                        return
                state = rec.room.copy()
                if due is T.Due.STEP and R.finishing(state):
                    state.rnd.review = await self._review(state)
                # In a worker thread: the deadline auto-arranges with the solver.
                fx = await asyncio.to_thread(T.timed, due, state, ctx)
                views = present.views_of(state, fx, self.clock.now(), pictures=self.pictures)
                if fx.final and (m := state.match):
                    # The last round's settlement is stored with these views.
                    views += await history.final_views(
                        self.repo, state, m, fx.settlement_record, pictures=self.pictures
                    )
                try:
                    _, views = await self._store(rec, state, fx, views)
                except StaleVersion:
                    self.rooms.forget(room_id)
                    continue
                break
        if views and self._sink is not None:
            try:
                await self._sink(views)
            except Exception:  # the adapter's failure must not stop the table
                log.exception("sink failed for room %s", room_id)

    def _outbox_of(self, rec: Held) -> DeliveryStore | None:
        """The store the room's views are delivered from, where they go
        through the outbox (None: shown as they are made)."""
        durable = rec.room.platform in self.durable.platforms
        return self.repo if durable and isinstance(self.repo, DeliveryStore) else None

    @staticmethod
    async def _review(state: Room) -> dict[str, SeatReview]:
        """Each person's review, stored with the settlement: solver work, so
        in a worker thread. A failure costs the review, never the round's pay."""
        try:
            return await asyncio.to_thread(RV.review_round, state)
        except Exception:
            log.exception("the review of room %s round %s failed", state.room_id, state.round_no)
            return {}

    async def fire_due(self, room_id: str) -> None:
        """Fire a room's timer that another process may have armed (its
        lease was taken from the database): from fresh state, so a step
        already taken elsewhere is not taken again."""
        async with self.rooms.lock(room_id):
            self.rooms.forget(room_id)
        await self._on_timer(room_id)

    # ------------------------------------------------------------ helpers for tests / console

    def peek(self, room_id: str) -> dict[str, Any] | None:
        """The cached room of this manager as stored (no I/O). For drivers
        such as the console and benchmarks."""
        rec = self.rooms.cached(room_id)
        return rec.room.to_json() if rec else None

    def phase(self, room_id: str) -> Phase | None:
        """The cached room's phase (no I/O, no copy): for drivers that wait
        for a round to end, as benchmarks do for a thousand rooms at once."""
        rec = self.rooms.cached(room_id)
        return rec.room.phase if rec else None

    async def room(self, room_id: str) -> Room | None:
        """The room as stored now (a copy: changing it changes nothing)."""
        rec = await self.rooms.load(room_id, fresh=True)
        return rec.room.copy() if rec else None

    async def room_state(self, room_id: str) -> dict[str, Any] | None:
        """The room as stored now, as its JSON."""
        rec = await self.rooms.load(room_id, fresh=True)
        return rec.room.to_json() if rec else None

    async def round_settlement(self, room_id: str, round_no: int) -> SettlementRecord | None:
        """The stored settlement of a room's round (None: never paid); what
        the arranging page shows of a round the room has moved past."""
        records = await self.repo.room_settlements(room_id, round_no, round_no)
        return records[0] if records else None
