"""Deadlines as absolute times, so a message never shows a countdown that
stops: Discord renders ``<t:UNIX:R>`` live in each reader's own clock
("in 2 minutes"); Telegram has no such markup, so the deadline's clock time
is written in the room's time zone (the TIMEZONE setting, kept in the
room's state when it opens)."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.core.room import Room
from bot.core.state import DEFAULT_TIMEZONE
from bot.i18n import t

__all__ = ["DEFAULT_TIMEZONE", "clock_text", "deadline_text", "utc_offset", "zone"]


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


def deadline_text(room: Room, lang: str, deadline: float) -> str:
    """One line saying until when cards may be arranged, in the form the
    room's platform shows best."""
    if room.platform == "discord":
        return t(lang, "time.deadline_live", when=f"<t:{int(deadline)}:R>")
    return t(lang, "time.deadline_clock", when=clock_text(deadline, room.timezone))
