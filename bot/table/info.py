"""Information verbs: help, rules, leaderboard, stats, verify, the settings
panel and showing a hand again. They change nothing."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from bot.views import render, render_match
from bot.views.i18n import normalize_language, t
from bot.views.render_common import commands
from storage.api import Period, RoomRecord

from . import history
from .actions import MAX_ROUND_DIGITS, Action, Outcome, Verb, small_number
from .deal import verify
from .hand import Refused

if TYPE_CHECKING:
    from bot.views.model import View

    from .manager import TableManager


async def roomless(
    mgr: TableManager, action: Action, verb: Verb, rec: RoomRecord | None
) -> Outcome:
    # The room's language; with no room, the asker's own (docs/messages.md).
    if rec is not None:
        lang = rec.state["language"]
    elif action.actor.language:
        lang = normalize_language(action.actor.language)
    else:
        lang = mgr.default_language
    state = rec.state if rec else None
    room_id = rec.room_id if rec else None
    platform = action.actor.platform
    if verb is Verb.HELP:
        view = render.help_view(lang, state, action.chat_id, action.actor)
        matches = t(lang, "help.matches", **commands(action.actor.platform))
        view = dataclasses.replace(view, lines=(*view.lines, matches))
    elif verb is Verb.RULES:
        view = render.rules_view(lang, state, action.chat_id, action.actor)
    elif verb is Verb.REPLAY:
        chat_id = state["chat_id"] if state else action.chat_id
        return await history.replay(mgr, dataclasses.replace(action, chat_id=chat_id), lang)
    elif verb is Verb.LEADERBOARD and (action.arg or "").lower() == "skill":
        chat_id = state["chat_id"] if state else action.chat_id
        if not chat_id:
            raise Refused("err.no_chat")
        records = await mgr.repo.settlement_details(platform, chat_id=chat_id)
        view = render_match.arrangers_view(
            lang, history.arrangers(records), chat_id, history.ARRANGERS_MIN_ROUNDS
        )
    elif verb is Verb.LEADERBOARD:
        period_text = (action.arg or "all").lower()
        try:
            period = Period(period_text)
        except ValueError:
            raise Refused("err.bad_period", value=period_text[:24]) from None
        chat_id = state["chat_id"] if state else action.chat_id
        if not chat_id:
            raise Refused("err.no_chat")
        rows = await mgr.repo.leaderboard(
            platform, chat_id, period, datetime.fromtimestamp(mgr.clock.now(), UTC)
        )
        view = render.leaderboard_view(lang, rows, period.value, chat_id, action.actor)
    elif verb is Verb.STATS:
        stats = await mgr.repo.player_stats(platform, action.actor.user_id)
        view = render.stats_view(lang, stats, action.actor)
        records = await mgr.repo.settlement_details(platform, player_key=action.actor.key)
        skill = history.skill_of(records, action.actor.key)
        view = dataclasses.replace(
            view, lines=view.lines + tuple(render_match.skill_lines(lang, skill))
        )
    else:
        raise Refused("err.unknown")
    return Outcome(ok=True, views=(view,), room_id=room_id)


async def in_room(mgr: TableManager, rec: RoomRecord, action: Action, verb: Verb) -> Outcome:
    state = rec.state
    key = action.actor.key
    if verb is Verb.SETTINGS:
        if key != state["owner"]:
            raise Refused("err.owner_only")
        view = render.settings_view(state, action.actor)
    elif verb is Verb.SHOW_HAND:
        rnd = state.get("round")
        if (
            rnd is None
            or state["phase"] not in ("arranging", "showdown")
            or key not in rnd["hands"]
        ):
            raise Refused("err.not_in_round")
        view = render.hand_view(state, key, now=mgr.clock.now())
    elif verb is Verb.VERIFY:
        view = await _verify(mgr, rec, action.arg, action)
    else:
        return await roomless(mgr, action, verb, rec)
    return Outcome(ok=True, views=(view,), room_id=rec.room_id)


async def _verify(mgr: TableManager, rec: RoomRecord, arg: str | None, action: Action) -> View:
    state = rec.state
    if arg:
        # A typed /verify ² or a 30-digit round is "not valid", not a crash.
        number = small_number(arg, 10**MAX_ROUND_DIGITS - 1)
        if number is None:
            raise Refused("err.bad_round", value=arg[:24])
        no = number
    else:
        rnd = state.get("round")
        no = rnd["no"] if rnd and rnd.get("settled") else state["round_no"] - 1
    if no < 1:
        raise Refused("err.not_revealed")
    # A round's deck is revealed only after its showdown.
    if not await mgr.repo.has_settlement(rec.room_id, no):
        raise Refused("err.not_revealed")
    record = await mgr.repo.get_round(rec.room_id, no)
    if record is None:
        raise Refused("err.not_revealed")
    ok = verify(record.deck, record.salt, record.deck_hash)
    return render.verify_view(
        state, no, list(record.deck), record.salt, record.deck_hash, ok, action.actor
    )
