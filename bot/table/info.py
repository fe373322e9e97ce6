"""Information verbs: help, rules, leaderboard, stats, verify, the settings
panel and showing a hand again. They change nothing."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Protocol

from bot.i18n import normalize_language, t
from bot.views import render, render_match
from bot.views.keys import KeyKind, ViewKey
from bot.views.render_common import commands
from storage.api import Period, Repository

from . import history
from .actions import MAX_ROUND_DIGITS, Action, Outcome, Verb, small_number
from .deal import verify
from .refused import Refused

if TYPE_CHECKING:
    from bot.views.model import View

    from .clock import Clock
    from .rooms import Held


class Asked(Protocol):
    """What the answers read besides the room: the stored records, the
    time, the bot's own language and its PICTURES setting (the table
    manager is one)."""

    @property
    def repo(self) -> Repository: ...

    @property
    def clock(self) -> Clock: ...

    @property
    def default_language(self) -> str: ...

    @property
    def pictures(self) -> bool: ...


async def roomless(ask: Asked, action: Action, verb: Verb, rec: Held | None) -> Outcome:
    # The room's language; with no room, the asker's own (docs/messages.md).
    if rec is not None:
        lang = rec.room.language
    elif action.actor.language:
        lang = normalize_language(action.actor.language)
    else:
        lang = ask.default_language
    room = rec.room if rec else None
    room_id = rec.room_id if rec else None
    platform = action.actor.platform
    if verb is Verb.HELP:
        view = render.help_view(lang, room, action.chat_id, action.actor)
        matches = t(lang, "help.matches", **commands(action.actor.platform))
        view = dataclasses.replace(view, lines=(*view.lines, matches))
    elif verb is Verb.RULES:
        view = render.rules_view(lang, room, action.chat_id, action.actor)
    elif verb is Verb.REPLAY:
        chat_id = room.chat_id if room else action.chat_id
        return await history.replay(ask.repo, dataclasses.replace(action, chat_id=chat_id), lang)
    elif verb is Verb.LEADERBOARD and (action.arg or "").lower() == "skill":
        chat_id = room.chat_id if room else action.chat_id
        if not chat_id:
            raise Refused("err.no_chat")
        records = await ask.repo.settlement_details(platform, chat_id=chat_id)
        view = render_match.arrangers_view(
            lang, history.arrangers(records), chat_id, history.ARRANGERS_MIN_ROUNDS
        )
    elif verb is Verb.LEADERBOARD:
        period_text = (action.arg or "all").lower()
        try:
            period = Period(period_text)
        except ValueError:
            raise Refused("err.bad_period", value=period_text[:24]) from None
        chat_id = room.chat_id if room else action.chat_id
        if not chat_id:
            raise Refused("err.no_chat")
        rows = await ask.repo.leaderboard(
            platform, chat_id, period, datetime.fromtimestamp(ask.clock.now(), UTC)
        )
        view = render.leaderboard_view(lang, rows, period.value, chat_id, platform)
    elif verb is Verb.STATS:
        stats = await ask.repo.player_stats(platform, action.actor.user_id)
        # In the group it was typed in (a room's own when asked from its buttons).
        view = render.stats_view(
            lang, stats, action.actor, room.chat_id if room else action.chat_id
        )
        records = await ask.repo.settlement_details(platform, player_key=action.actor.key)
        skill = history.skill_of(records, action.actor.key)
        view = dataclasses.replace(
            view, lines=view.lines + tuple(render_match.skill_lines(lang, skill))
        )
    else:
        raise Refused("err.unknown")
    return Outcome(ok=True, views=(view,), room_id=room_id)


async def in_room(ask: Asked, rec: Held, action: Action, verb: Verb) -> Outcome:
    room = rec.room
    key = action.actor.key
    if verb is Verb.SETTINGS:
        if key == room.owner:
            view = render.settings_view(room, action.actor)
        else:
            # Anyone may read the table's settings (the settlement's short
            # caption leaves them to this button); only the owner changes them.
            view = render.rules_view(room.language, room, action.chat_id, action.actor)
            # its own message, not the one a /rules answer is
            view = dataclasses.replace(
                view, key=str(ViewKey(KeyKind.SETTINGS_READ, inner=view.view_key))
            )
    elif verb is Verb.SHOW_HAND:
        rnd = room.round
        if rnd is None or not room.live or key not in rnd.hands:
            raise Refused("err.not_in_round")
        view = render.hand_view(room, key, now=ask.clock.now(), pictures=ask.pictures)
    elif verb is Verb.VERIFY:
        view = await _verify(ask, rec, action.arg, action)
    else:
        return await roomless(ask, action, verb, rec)
    return Outcome(ok=True, views=(view,), room_id=rec.room_id)


async def _verify(ask: Asked, rec: Held, arg: str | None, action: Action) -> View:
    room = rec.room
    if arg:
        # A typed /verify ² or a 30-digit round is "not valid", not a crash.
        number = small_number(arg, 10**MAX_ROUND_DIGITS - 1)
        if number is None:
            raise Refused("err.bad_round", value=arg[:24])
        no = number
    else:
        rnd = room.round
        no = rnd.no if rnd and rnd.settled else room.round_no - 1
    if no < 1:
        raise Refused("err.not_revealed")
    # A round's deck is revealed only after its showdown.
    if not await ask.repo.has_settlement(rec.room_id, no):
        raise Refused("err.not_revealed")
    record = await ask.repo.get_round(rec.room_id, no)
    if record is None:
        raise Refused("err.not_revealed")
    ok = verify(record.deck, record.salt, record.deck_hash)
    return render.verify_view(
        room,
        no,
        list(record.deck),
        record.salt,
        record.deck_hash,
        ok,
        action.actor,
    )
