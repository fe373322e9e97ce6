"""Deadlines, never as a countdown that stops: a platform with live time
markup (``Traits.live_time``: Discord's ``<t:UNIX:R>``) shows the deadline
in each reader's own clock ("in 2 minutes"); elsewhere the group table
writes the deadline's clock time in the room's time zone (the TIMEZONE
setting, kept in the room's state when it opens), and where the platform
says so (``Traits.redraws_time_left``: Telegram) a player's private hand
the time left as a duration ("还剩 2 分钟") that the table redraws at
coarse steps (``LEFT_STEPS`` and the reminder: ``time_steps``, the timers'
``Due.TICK``) and at every tap, so it is true whenever it is read, without
arithmetic."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.core.room import Room
from bot.core.state import DEFAULT_TIMEZONE
from bot.core.traits import traits_of
from bot.i18n import t

__all__ = [
    "DEFAULT_TIMEZONE",
    "LEFT_STEPS",
    "clock_text",
    "counts_down",
    "deadline_text",
    "duration_text",
    "time_left_text",
    "time_steps",
    "utc_offset",
    "zone",
]

# The seconds left at which a hand that shows the time left is redrawn
# (besides the reminder's): coarse, so a long arranging time costs a few
# edits of each unconfirmed hand, not one a minute.
LEFT_STEPS = (900, 600, 300, 180, 120, 60)
# Shown as "2 minutes" when drawn within this many seconds of a step (the
# step's own redraw, the deal), else as "under 2 minutes".
_AT_STEP = 2.0


@lru_cache(maxsize=64)
def zone(name: str | None) -> ZoneInfo:
    """The zone called ``name``; the default zone for an unknown name (a
    setting checked at start cannot be unknown; an old room may have none)."""
    try:
        return ZoneInfo(name or DEFAULT_TIMEZONE)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo(DEFAULT_TIMEZONE)


def utc_offset(moment: datetime) -> str:
    """``UTC+8``, ``UTC-3:30``, ``UTC``."""
    offset = moment.utcoffset()
    minutes = int(offset.total_seconds() // 60) if offset else 0
    if minutes == 0:
        return "UTC"
    sign = "+" if minutes > 0 else "-"
    h, m = divmod(abs(minutes), 60)
    return f"UTC{sign}{h}" + (f":{m:02d}" if m else "")


def clock_text(deadline: float, timezone: str | None) -> str:
    """``21:15:30 (UTC+8)``: the deadline as the room's clocks show it."""
    moment = datetime.fromtimestamp(deadline, UTC).astimezone(zone(timezone))
    return f"{moment:%H:%M:%S} ({utc_offset(moment)})"


def deadline_text(room: Room, lang: str, deadline: float, *, warn: bool = False) -> str:
    """One line saying until when cards may be arranged, in the form the
    room's platform shows best; ``warn``: the reminder's warning (to a hand
    still being arranged)."""
    live = traits_of(room.platform).live_time
    if live is not None:
        when = live(int(deadline))
        return t(lang, "time.deadline_warning" if warn else "time.deadline_live", when=when)
    when = clock_text(deadline, room.timezone)
    return t(lang, "time.deadline_warning" if warn else "time.deadline_clock", when=when)


def counts_down(room: Room) -> bool:
    """Whether the room's private hands show the time left as a duration
    the table redraws (as the room's platform declares)."""
    return traits_of(room.platform).redraws_time_left


def answered_apart(room: Room) -> bool:
    """Whether a press on a private hand is answered apart from the hand's
    redraw (as the room's platform declares: Telegram's answerCallbackQuery
    and edit are two calls; Discord answers the interaction with the redraw
    itself). Where it is, the last hand confirmed is not redrawn as
    confirmed: the showdown begins at once and the result redraws it
    seconds later."""
    return traits_of(room.platform).answers_press_apart


def time_steps(room: Room) -> tuple[int, ...]:
    """The seconds left at which the hands are redrawn, highest first:
    ``LEFT_STEPS`` below the arranging time, and the reminder's."""
    rnd = room.rnd
    total = room.options.arrange_seconds
    steps = {s for s in LEFT_STEPS if s < total}
    if rnd.remind_at is not None:
        steps.add(max(0, round(rnd.deadline - rnd.remind_at)))
    return tuple(sorted((s for s in steps if s > 0), reverse=True))


def duration_text(lang: str, seconds: int) -> str:
    """``2 分钟``, ``90 秒``: whole minutes as minutes, anything else in seconds."""
    if seconds >= 60 and seconds % 60 == 0:
        return t(lang, "time.minutes", count=seconds // 60)
    return t(lang, "time.seconds", count=seconds)


def time_left_text(room: Room, lang: str, now: float) -> str:
    """The time left as the smallest step (or the arranging time) not
    below it: ``⏱ 还剩 2 分钟`` at that step, ``⏱ 还剩不到 2 分钟`` after it,
    until the next step redraws it; after the reminder a warning."""
    rnd = room.rnd
    left = max(0.0, rnd.deadline - now)
    shown = [*time_steps(room), room.options.arrange_seconds]
    step = min((s for s in shown if s >= left - _AT_STEP), default=max(shown))
    key = "time.left" if step - left < _AT_STEP else "time.left_under"
    phrase = t(lang, key, left=duration_text(lang, step))
    return t(lang, "time.left_warning" if rnd.reminded else "time.left_line", left=phrase)
