"""The table manager: one async entry point (``handle``) for every action.

Per room: an asyncio lock; the state is a JSON-ready dict stored through
``repo.save_room(expected_version)`` BEFORE any view is returned; on
``StaleVersion`` (another manager wrote first) the room is reloaded and the
action re-applied. Deadlines, the reminder and showdown steps live in the
state as absolute times and are (re-)armed on the clock after every write
and by ``start()``; a time that passed while the bot was down fires at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import random
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from bot.delivery.entries import Durable
from bot.rules.options import OptionError
from bot.views import render
from bot.views.deadline import DEFAULT_TIMEZONE
from bot.views.i18n import t
from bot.views.model import View, ViewKind
from storage.api import Repository, RoomExists, RoomRecord, RoomStatus, StaleVersion
from storage.delivery import OutboxEntry, TimerChange

from . import arranging, history, info, lobby, match, solving
from . import review as RV
from . import round as R
from .actions import STALE, Action, Outcome, Verb
from .clock import Clock, RealClock, TimerHandle
from .deal import SYSTEM_RANDOM
from .effects import Effects
from .hand import Refused
from .options import rules_for

log = logging.getLogger(__name__)

Sink = Callable[[Sequence[View]], Awaitable[None]]

# Verbs that answer without a room (or without changing one).
ROOMLESS = {Verb.HELP, Verb.LEADERBOARD, Verb.STATS, Verb.RULES, Verb.REPLAY}
READ_ONLY = {Verb.SETTINGS, Verb.SHOW_HAND, Verb.VERIFY}
MAX_ARG_CHARS = 64
PANEL_VERBS = {Verb.SET_OPTION, Verb.ADD_AI, Verb.REMOVE_AI, Verb.REMOVE_PLAYER, Verb.LANGUAGE}


def _copy(state: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(state))


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
        self._sink: Sink | None = None
        self._locks: dict[str, asyncio.Lock] = {}
        self._rooms: dict[str, RoomRecord] = {}
        self._by_chat: dict[tuple[str, str], str] = {}  # (platform, chat) -> open room
        self._timers: dict[str, tuple[float, TimerHandle]] = {}
        # Platforms whose views are written to the outbox with the state
        # change that produced them (docs/delivery.md); set by their adapters.
        self.durable = Durable()

    # ------------------------------------------------------------ lifecycle

    def set_sink(self, sink: Sink | None) -> None:
        self._sink = sink

    async def start(self) -> None:
        """Load open rooms and re-arm their deadlines and showdown steps."""
        for rec in await self.repo.load_open_rooms():
            try:
                self._remember(rec)
                self._arm(rec.room_id, rec.state)
            except Exception:  # one unreadable room must not keep the others down
                log.exception("room %s could not be restored; left as stored", rec.room_id)
                self._forget(rec.room_id)

    async def stop(self) -> None:
        for _, handle in self._timers.values():
            handle.cancel()
        self._timers.clear()

    def _ctx(self) -> R.Ctx:
        return R.Ctx(
            now=self.clock.now(),
            rng=self.rng,
            strength=self.solver_strength,
            step_seconds=self.step_seconds,
            reminder_seconds=self.reminder_seconds,
        )

    def _lock(self, room_id: str) -> asyncio.Lock:
        lock = self._locks.get(room_id)
        if lock is None:
            lock = self._locks[room_id] = asyncio.Lock()
        return lock

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
                if verb in ROOMLESS:
                    return await info.roomless(self, action, verb, None)
                new = render.command(action.actor.platform, "new")
                return Outcome(ok=False, reply=t(lang, "err.no_room", cmd_new=new))
            return await self._in_room(room_id, action, verb)
        except Refused as r:
            params = {"cmd_new": render.command(action.actor.platform, "new"), **r.params}
            return Outcome(ok=False, reply=t(lang, r.key, **params), room_id=action.room_id)
        except Exception:
            # Nothing was stored (transitions work on a copy): say so, keep serving.
            log.exception("action %s failed", action)
            return Outcome(ok=False, reply=t(lang, "err.internal"), room_id=action.room_id)

    async def _resolve(self, action: Action) -> str | None:
        if action.room_id:
            return action.room_id
        if not action.chat_id:
            return None
        chat = (action.actor.platform, action.chat_id)
        rid = self._by_chat.get(chat)
        if rid is not None and rid in self._rooms:
            return rid
        rec = await self.repo.open_room_for_chat(*chat)
        if rec is None:
            return None
        self._remember(rec)
        return rec.room_id

    def _remember(self, rec: RoomRecord) -> None:
        self._rooms[rec.room_id] = rec
        if rec.status is RoomStatus.OPEN and rec.state.get("phase") != "closed":
            self._by_chat[(rec.platform, rec.chat_id)] = rec.room_id

    def _forget(self, room_id: str) -> None:
        rec = self._rooms.pop(room_id, None)
        if rec is not None and self._by_chat.get((rec.platform, rec.chat_id)) == room_id:
            del self._by_chat[(rec.platform, rec.chat_id)]

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

        def table_post(stored: dict[str, Any]) -> list[OutboxEntry]:
            # The table post goes to the outbox in the room's own
            # transaction: a crash right after can never leave a room
            # nobody was shown (docs/delivery.md §1).
            view = render.table_view(stored, self.clock.now(), fresh=True)
            views, entries = self.durable.split([view], f"{stored['room_id']}.1")
            made[:] = views
            return entries

        try:
            rec = await self.repo.create_room(
                action.actor.platform, action.chat_id, state, outbox=table_post
            )
        except RoomExists:
            # Said in the open room's language, not the bot's default.
            existing = await self._resolve(dataclasses.replace(action, room_id=None))
            room = await self._load(existing) if existing else None
            lang = room.state["language"] if room else self.default_language
            return Outcome(ok=False, reply=t(lang, "err.room_exists"), room_id=existing)
        self._remember(rec)
        return Outcome(
            ok=True,
            reply=t(rec.state["language"], "toast.opened"),
            views=tuple(made),
            room_id=rec.room_id,
        )

    async def _load(self, room_id: str, fresh: bool = False) -> RoomRecord | None:
        rec = None if fresh else self._rooms.get(room_id)
        if rec is None:
            rec = await self.repo.load_room(room_id)
            if rec is not None:
                self._remember(rec)
        return rec

    async def _in_room(self, room_id: str, action: Action, verb: Verb) -> Outcome:
        if verb is Verb.START and (rec := self._rooms.get(room_id)) is not None:
            with contextlib.suppress(OptionError, KeyError):  # START itself explains
                await solving.warm(rules_for(rec.state, max(2, len(rec.state["players"]))))
        async with self._lock(room_id):
            fresh = False
            for _ in range(self.max_retries):
                rec = await self._load(room_id, fresh)
                if rec is None:
                    new = render.command(action.actor.platform, "new")
                    raise Refused("err.no_room", cmd_new=new)
                lang = rec.state.get("language", self.default_language)
                try:
                    self._check(rec, action)
                    if verb is Verb.REVIEW:
                        return await history.review(self.repo, rec, action)
                    if verb in ROOMLESS or verb in READ_ONLY:
                        return await info.in_room(self, rec, action, verb)
                    state = _copy(rec.state)
                    fx = self._apply(state, action, verb)
                except Refused as r:
                    if not fresh:
                        # The cache may be behind another manager: check afresh.
                        again = await self.repo.load_room(room_id)
                        if again is not None and again.version != rec.version:
                            self._remember(again)
                            fresh = True
                            continue
                    shown: tuple[View, ...] = ()
                    if r.key == "err.foul" and rec.state.get("round"):
                        shown = (
                            render.hand_view(
                                rec.state, action.actor.key, refused=(r.key, r.params)
                            ),
                        )
                    return Outcome(
                        ok=False,
                        reply=render.reason(lang, r.key, r.params),
                        views=shown,
                        room_id=room_id,
                        refused=r.key,
                    )
                views = self._views(state, fx)
                if verb is Verb.CANCEL and (m := match.current(rec.state)) and not m["over"]:
                    # Closed mid-match: the 大结算 of the rounds played.
                    views += await history.final_views(self.repo, state, m)
                if verb in PANEL_VERBS and state["phase"] != "closed":
                    # The owner's settings panel must show the new values too.
                    views.append(render.settings_view(state, action.actor))
                try:
                    saved, views = await self._save(rec, state, fx, views, action.actor.key)
                except StaleVersion:
                    self._forget(room_id)
                    fresh = True
                    continue
                reply = t(saved.state["language"], fx.toast[0], **fx.toast[1]) if fx.toast else None
                return Outcome(ok=True, reply=reply, views=tuple(views), room_id=room_id)
            return Outcome(ok=False, reply=t(self.default_language, "err.busy"), room_id=room_id)

    def _check(self, rec: RoomRecord, action: Action) -> None:
        state = rec.state
        if rec.status is RoomStatus.CLOSED or state["phase"] == "closed":
            raise Refused("err.room_closed")
        informative = action.verb in ROOMLESS or action.verb in (Verb.VERIFY, Verb.REVIEW)
        # Information buttons of an old post (rules, verify) still answer.
        if action.round_no is not None and action.round_no != state["round_no"] and not informative:
            raise Refused(STALE)
        if action.actor.platform != state["platform"] and not informative:
            raise Refused("err.not_player")
        lobby.check_chat(state, action)  # seats only for members of the room's chat

    def _apply(self, state: dict[str, Any], action: Action, verb: Verb) -> Effects:
        actor, arg, ctx = action.actor, action.arg, self._ctx()
        if verb in arranging.PRESSES:
            return arranging.press(state, actor.key, verb, arg, ctx)
        if verb is Verb.JOIN:
            return lobby.join(state, actor)
        if verb is Verb.LEAVE:
            return lobby.leave(state, actor, ctx)
        if verb is Verb.START:
            return lobby.start(state, actor, ctx)
        if verb is Verb.SET_OPTION:
            return lobby.set_option(state, actor, arg)
        if verb is Verb.ADD_AI:
            return lobby.add_ai(state, actor, arg, self.solver_strength)
        if verb is Verb.REMOVE_AI:
            return lobby.remove_ai(state, actor, arg)
        if verb is Verb.REMOVE_PLAYER:
            return lobby.remove_player(state, actor, arg)
        if verb is Verb.LANGUAGE:
            return lobby.set_language(state, actor, arg)
        if verb is Verb.CANCEL:
            return lobby.close(state, actor, arg)
        raise Refused("err.unknown")

    async def _save(
        self,
        rec: RoomRecord,
        state: dict[str, Any],
        fx: Effects,
        views: list[View],
        actor: str | None = None,
    ) -> tuple[RoomRecord, list[View]]:
        """Store ``state`` with the views it produced (those of durable
        platforms go to the outbox in the same transaction); the saved
        record and the views, marked where they were written."""
        closed = state["phase"] == "closed"
        status = RoomStatus.CLOSED if closed else RoomStatus.OPEN
        private = await self.durable.private_chats(views, actor)
        views, entries = self.durable.split(views, f"{rec.room_id}.{rec.version + 1}", private)
        due = None if closed else self._next_event(state)
        # Stored where it moved, so any process can fire it (fire_due).
        moved = TimerChange(due) if due != self._next_event(rec.state) else None
        version = await self.repo.save_room(
            rec.room_id,
            state,
            rec.version,
            status=status,
            round_record=fx.round_record,
            settlement=fx.settlement_record,
            outbox=entries,
            timer=moved,
        )
        saved = RoomRecord(rec.room_id, rec.platform, rec.chat_id, state, version, status)
        if closed:
            self._forget(rec.room_id)
        else:
            self._remember(saved)
        self._arm(rec.room_id, state)
        return saved, views

    def _views(self, state: dict[str, Any], fx: Effects) -> list[View]:
        now = self.clock.now()
        out: list[View] = []
        if fx.table:
            out.append(render.table_view(state, now, fresh=fx.table_fresh))
        if fx.settlement:
            out.append(render.settlement_view(state))
        for key in fx.hands:
            out.append(render.hand_view(state, key, now=now))
        for key, params in fx.notices:
            out.append(render.notice_view(state, key, params))
        out.extend(fx.views)
        return out

    @staticmethod
    async def _review(state: dict[str, Any]) -> dict[str, Any]:
        """Each person's review, stored with the settlement: solver work, so
        in a worker thread. A failure costs the review, never the round's pay."""
        try:
            return await asyncio.to_thread(RV.review_round, state)
        except Exception:
            log.exception(
                "the review of room %s round %s failed", state.get("room_id"), state["round_no"]
            )
            return {}

    def _offer_review(self, state: dict[str, Any], views: list[View]) -> list[View]:
        """After the showdown: a review button on the group's settlement and
        on each person's private hand message."""
        from bot.views.render_match import review_button

        rnd = state["round"]
        more = (review_button(state, rnd["no"]),)
        out = [
            dataclasses.replace(v, buttons=(*v.buttons, more))
            if v.kind is ViewKind.SETTLEMENT
            else v
            for v in views
        ]
        hands = [render.hand_view(state, k) for k in rnd.get("review") or {} if k in rnd["hands"]]
        # Private edits first: the group's settlement stays the last thing said.
        return [dataclasses.replace(h, buttons=(*h.buttons, more)) for h in hands] + out

    # ------------------------------------------------------------ timers

    @staticmethod
    def _next_event(state: dict[str, Any]) -> float | None:
        rnd = state.get("round")
        if rnd is None:
            return None
        if state["phase"] == "arranging":
            if rnd.get("remind_at") is not None and not rnd["reminded"]:
                return min(rnd["remind_at"], rnd["deadline"])
            return rnd["deadline"]
        if state["phase"] == "showdown":
            return rnd["next_at"]
        return None

    def _arm(self, room_id: str, state: dict[str, Any]) -> None:
        when = self._next_event(state)
        current = self._timers.get(room_id)
        if current is not None:
            if current[0] == when:
                return
            current[1].cancel()
            del self._timers[room_id]
        if when is None:
            return

        entry: list[Any] = []

        async def fire() -> None:
            current = self._timers.get(room_id)
            if current is not None and entry and current[1] is entry[0]:
                del self._timers[room_id]
            await self._on_timer(room_id)

        handle = self.clock.call_at(when, fire)
        entry.append(handle)
        self._timers[room_id] = (when, handle)

    @staticmethod
    def _due(state: dict[str, Any], now: float) -> str | None:
        rnd = state.get("round")
        if rnd is None:
            return None
        if state["phase"] == "arranging":
            if now >= rnd["deadline"]:
                return "deadline"
            if rnd.get("remind_at") is not None and not rnd["reminded"] and now >= rnd["remind_at"]:
                return "remind"
        if state["phase"] == "showdown" and rnd["next_at"] is not None and now >= rnd["next_at"]:
            return "step"
        return None

    async def _on_timer(self, room_id: str) -> None:
        try:
            await self._timer_step(room_id)
        except Exception:
            # e.g. the database is down: nothing was stored, so try again soon.
            log.exception("timer of room %s failed; retrying", room_id)
            self._retry(room_id)

    def _retry(self, room_id: str, delay: float = 5.0) -> None:
        async def again() -> None:
            await self._on_timer(room_id)

        current = self._timers.pop(room_id, None)
        if current is not None:
            current[1].cancel()
        when = self.clock.now() + delay
        self._timers[room_id] = (when, self.clock.call_at(when, again))

    async def _timer_step(self, room_id: str) -> None:
        views: list[View] = []
        async with self._lock(room_id):
            for _ in range(self.max_retries):
                rec = await self._load(room_id)
                if rec is None or rec.status is RoomStatus.CLOSED:
                    return
                ctx = self._ctx()
                due = self._due(rec.state, ctx.now)
                if due is None:
                    self._arm(room_id, rec.state)
                    return
                state = _copy(rec.state)
                if due == "deadline":
                    fx = R.deadline(state, ctx)
                elif due == "remind":
                    fx = R.remind(state, ctx)
                else:
                    if R.finishing(state):
                        state["round"]["review"] = await self._review(state)
                    fx = R.showdown_step(state, ctx)
                views = self._views(state, fx)
                if fx.settlement:
                    views = self._offer_review(state, views)
                if fx.final and (m := match.current(state)):
                    # The last round's settlement is stored with these views.
                    views += await history.final_views(self.repo, state, m, fx.settlement_record)
                try:
                    _, views = await self._save(rec, state, fx, views)
                except StaleVersion:
                    self._forget(room_id)
                    continue
                break
        if views and self._sink is not None:
            try:
                await self._sink(views)
            except Exception:  # the adapter's failure must not stop the table
                log.exception("sink failed for room %s", room_id)

    async def fire_due(self, room_id: str) -> None:
        """Fire a room's timer that another process may have armed (its
        lease was taken from the database): from fresh state, so a step
        already taken elsewhere is not taken again."""
        async with self._lock(room_id):
            self._forget(room_id)
        await self._on_timer(room_id)

    # ------------------------------------------------------------ helpers for tests / console

    def peek(self, room_id: str) -> dict[str, Any] | None:
        """The cached state of a room this manager holds (no I/O, not a copy:
        do not change it). For drivers such as the console and benchmarks."""
        rec = self._rooms.get(room_id)
        return rec.state if rec else None

    async def room_state(self, room_id: str) -> dict[str, Any] | None:
        rec = await self._load(room_id, fresh=True)
        return _copy(rec.state) if rec else None
