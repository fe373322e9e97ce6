"""The renderers the table manager calls, in one namespace."""

from __future__ import annotations

from typing import Any

from bot.core.room import Room
from bot.core.state import Phase

from . import pictured
from .model import View
from .render_common import command
from .render_hand import hand_view as _hand_view
from .render_hand import reason_text
from .render_info import (
    close_confirm_view,
    help_view,
    leaderboard_view,
    notice_view,
    rules_view,
    settings_view,
    stats_view,
    verify_view,
)
from .render_settle import settlement_lines
from .render_settle import settlement_view as _settlement_view
from .render_table import showdown_lines
from .render_table import table_view as _table_view


def hand_view(
    room: Room,
    key: str,
    *,
    refused: tuple[str, dict[str, Any]] | None = None,
    now: float | None = None,
    pictures: bool = True,
) -> View:
    """A player's private hand; with pictures (``pictures``, the bot's
    setting, and the room's option), the hand's picture too."""
    view = _hand_view(room, key, refused=refused, now=now)
    return pictured.with_hand(view, room, key, pictures=pictures)


def table_view(room: Room, now: float, fresh: bool = False, *, pictures: bool = True) -> View:
    """The room's table. Once a round is paid the lobby (and a room closed
    after it) is that round's settlement, below its showdown: the table
    message, which became the showdown, stays the round's record. With
    pictures the round's table shows the seats' lanes face down, then
    turns them up step by step."""
    if lobby_is_settlement(room):
        return settlement_view(room, fresh=fresh, pictures=pictures)
    view = _table_view(room, now, fresh)
    if room.phase == Phase.ARRANGING:
        return pictured.with_dealt(view, room, pictures=pictures)
    if room.phase == Phase.SHOWDOWN:
        return pictured.showdown_view(view, room, pictures=pictures)
    return view


def lobby_is_settlement(room: Room) -> bool:
    """Whether the room's table view is its last settlement: between rounds
    once a round is paid, and in a room closed after one."""
    rnd = room.round
    return room.phase in (Phase.LOBBY, Phase.CLOSED) and rnd is not None and rnd.settled


def settlement_view(room: Room, *, fresh: bool = True, pictures: bool = True) -> View:
    """A round's result post (and, while the room waits, its lobby); with
    pictures, the settlement table's picture."""
    on = pictured.pictures_on(room, pictures=pictures)
    view = _settlement_view(room, fresh=fresh, short=on)
    return pictured.with_settlement(view, room, pictures=pictures)


def reason(lang: str, key: str, params: dict[str, Any]) -> str:
    """A refusal's short localized reason."""
    return reason_text(lang, key, params)


__all__ = [
    "close_confirm_view",
    "command",
    "hand_view",
    "help_view",
    "leaderboard_view",
    "lobby_is_settlement",
    "notice_view",
    "reason",
    "rules_view",
    "settings_view",
    "settlement_lines",
    "settlement_view",
    "showdown_lines",
    "stats_view",
    "table_view",
    "verify_view",
]
