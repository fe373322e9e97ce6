"""The table manager: one async entry point (``handle``) for every action,
and the timed transitions (``Timed.fire``, timed.py).

Per room: an asyncio lock; the room (the typed ``bot.core.room.Room``,
JSON only in the repository: rooms.py converts) is stored through
``repo.save_room(expected_version)`` BEFORE any view is returned; on
``StaleVersion`` (another manager wrote first) the room is reloaded and the
action re-applied. The manager dispatches and retries; its other jobs have
their own modules: the room cache and its writes (rooms.py), the timers and
the showdown's pace (timers.py), what a timer does when it fires (timed.py),
what each verb does (transitions.py, arranging.py, and info.py / history.py
for the read-only ones) and the views a change shows (present.py). What
each verb needs is read from its ``VerbInfo`` (bot/core/verbs.py).

Nothing slow runs on the event loop, and no tap waits for another
player's solver: a transition that may call the solver (a suggestion, a
deal with AI seats, a player who leaves mid-round; the deadline's
auto-arrange in timed.py) is first applied in a worker thread to a snapshot
of the room, outside its lock; under the lock it is applied again to the
room as it is then, with the solver's answers replayed for the hands they
were worked out for (solved.py). Reviews run in a worker thread too.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import random
import time

from bot.core.room import Room
from bot.core.state import Phase
from bot.core.verbs import VERBS
from bot.delivery.entries import Durable
from bot.i18n import t
from bot.i18n.languages import DEFAULT_LANGUAGE
from bot.rules.options import OptionError
from bot.views import render
from bot.views.deadline import DEFAULT_TIMEZONE
from bot.views.model import View
from storage.api import Repository, RoomExists, RoomStatus, SettlementRecord, StaleVersion
from storage.delivery import OutboxEntry, TimerChange

from . import history, info, lobby, present, solving, transitions
from . import timers as timing
from .actions import STALE, Action, Outcome, Verb
from .clock import Clock, RealClock, TimerHandle
from .contract import ActionObserver, Sink
from .deal import SYSTEM_RANDOM
from .effects import Effects
from .options import rules_for
from .refused import Refused
from .rooms import Held, Rooms, as_read
from .round import Ctx
from .solved import AHEAD_TRIES, Ahead, Solved, Unsolved
from .timed import Timed
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
        default_language: str = DEFAULT_LANGUAGE,
        *,
        default_preset: str = "classic",
        timezone: str = DEFAULT_TIMEZONE,
        rng: random.Random | None = None,
        max_retries: int = 20,
        pictures: bool = True,
        observer: ActionObserver | None = None,
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
        # told of every action handled, with its time (the metrics)
        self.observer = observer
        self.rooms = Rooms(repo)
        self.timed = Timed(self)
        self.timers = Timers(self.clock, self.timed.fire, showdown_step_seconds)
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

    def _ctx(self, solved: Solved | None = None) -> Ctx:
        return Ctx(
            now=self.clock.now(),
            rng=self.rng,
            strength=self.solver_strength,
            step_seconds=self.step_seconds,
            reminder_seconds=self.reminder_seconds,
            solved=Solved() if solved is None else solved,
        )

    # ------------------------------------------------------------ handle

    async def handle(self, action: Action) -> Outcome:
        if self.observer is None:
            return await self._handle(action)
        started = time.perf_counter()
        outcome = await self._handle(action)
        self.observer.action_done(action, outcome, time.perf_counter() - started)
        return outcome

    async def _handle(self, action: Action) -> Outcome:
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
        written: list[OutboxEntry] = []

        def table_post(stored: Room) -> list[OutboxEntry]:
            # The table post goes to the outbox in the room's own
            # transaction: a crash right after can never leave a room
            # nobody was shown (docs/delivery.md §1).
            view = render.table_view(stored, self.clock.now(), fresh=True, pictures=self.pictures)
            views, entries = self.durable.split([view], f"{stored.id}.1")
            made[:] = views
            written[:] = entries
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
        self.durable.written(written)
        return Outcome(
            ok=True,
            reply=t(rec.room.language, "toast.opened"),
            views=tuple(made),
            room_id=rec.room_id,
        )

    async def _in_room(self, room_id: str, action: Action, verb: Verb) -> Outcome:
        if verb is Verb.START and (rec := self.rooms.cached(room_id)) is not None:
            with contextlib.suppress(OptionError, KeyError):  # START itself explains
                await solving.warm(rules_for(rec.room, max(2, len(rec.room.players))))
        solved = Solved()
        if VERBS[verb].solver:
            # The solver works on a snapshot while the room stays free for
            # the others' taps; its answers are used under the lock only for
            # the hands they were worked out for (solved.py).
            for _ in range(AHEAD_TRIES):
                ahead = await self._ahead(room_id, action, solved)
                with contextlib.suppress(Unsolved):
                    return await self._locked(room_id, action, verb, solved.replaying(), ahead)
        # A verb without the solver, or a room that kept changing under it:
        # whatever is still missing is worked out under the lock.
        return await self._locked(room_id, action, verb, solved.computing())

    async def _snapshot(self, room_id: str) -> Held | None:
        """The room as stored now, read in its turn (the lock held only to read)."""
        async with self.rooms.lock(room_id):
            return await self.rooms.load(room_id)

    async def _ahead(self, room_id: str, action: Action, solved: Solved) -> Ahead | None:
        """``action`` applied to a snapshot of the room, outside its lock, in
        a worker thread, its solver answers recorded in ``solved`` (None:
        nothing to work out, or refused: the locked pass answers that)."""
        rec = await self._snapshot(room_id)
        if rec is None:
            return None
        try:
            self._check(rec, action)
            if not transitions.may_solve(rec.room, action):
                return None
            state = rec.room.copy()
            fx = await asyncio.to_thread(transitions.apply, state, action, self._ctx(solved))
        except Refused:
            return None
        return Ahead(rec.version, state, fx)

    async def _locked(
        self,
        room_id: str,
        action: Action,
        verb: Verb,
        solved: Solved,
        ahead: Ahead | None = None,
    ) -> Outcome:
        """``action`` applied to the room under its lock and stored; the
        solver's answers from ``solved`` (``Unsolved``: one is missing and
        ``solved`` only replays)."""
        async with self.rooms.lock(room_id):
            fresh = False
            for _ in range(self.max_retries):
                rec = await self.rooms.load(room_id, fresh)
                if rec is None:
                    new = render.command(action.actor.platform, "new")
                    raise Refused("err.no_room", cmd_new=new)
                try:
                    self._check(rec, action)
                    if VERBS[verb].read_only:
                        return await self._answer(rec, action, verb)
                    state = rec.room.copy()
                    apply = transitions.apply
                    ctx = self._ctx(solved)
                    if ahead is not None and ahead.version == rec.version:
                        state, fx = ahead.state, ahead.fx  # the room is as it was read
                    elif solved.compute and transitions.may_solve(state, action):
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
                            rec.room,
                            action.actor.key,
                            r,
                            now=self.clock.now(),
                            pictures=self.pictures,
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
                return Outcome(
                    ok=True, reply=reply, views=tuple(views), room_id=room_id, room=saved.room
                )
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
        timing.pace(rec.room, state, self.clock.now(), self.step_seconds)
        closed = state.phase == Phase.CLOSED
        private = await self.durable.private_chats(views, actor)
        views, entries = self.durable.split(views, f"{rec.room_id}.{rec.version + 1}", private)
        due = None if closed else timing.next_event(state)
        # Stored where it moved, so any process can fire it (fire_due).
        moved = TimerChange(due) if due != timing.next_event(rec.room) else None
        saved = await self.rooms.save(
            rec,
            state,
            round_record=fx.round_record,
            settlement=fx.settlement_record,
            outbox=entries,
            timer=moved,
        )
        self.durable.written(entries)
        self.timers.arm(rec.room_id, state)
        return saved, views

    # ------------------------------------------------------------ timed transitions

    async def fire_due(self, room_id: str) -> None:
        """Fire a room's timer that another process may have armed (its
        lease was taken from the database): from fresh state, so a step
        already taken elsewhere is not taken again."""
        async with self.rooms.lock(room_id):
            self.rooms.forget(room_id)
        await self.timed.fire(room_id)

    # ------------------------------------------------------------ reading a room

    async def room(self, room_id: str) -> Room | None:
        """The room as stored now (a copy: changing it changes nothing)."""
        rec = await self.rooms.load(room_id, fresh=True)
        return rec.room.copy() if rec else None

    async def room_in(self, platform: str, chat_id: str) -> str | None:
        """The id of a chat's open room (None: none is open there); the
        Discord Activity finds its room by the channel it is launched in."""
        return await self.rooms.open_in(platform, chat_id)

    async def round_settlement(self, room_id: str, round_no: int) -> SettlementRecord | None:
        """The stored settlement of a room's round (None: never paid); what
        the arranging page shows of a round the room has moved past."""
        records = await self.repo.room_settlements(room_id, round_no, round_no)
        return records[0] if records else None
