"""The room between rounds: who sits, the controls (join, leave, start or
next round, AI, settings, close) and the closed room's last word.

Before the first round the lobby is the table message. After a round it is
that round's settlement, the group's latest message (render_settle): the
round's table has become its showdown, which stays as the round's record,
and the next round's table is posted anew, so only the settlement's
controls go stale at the deal (the outbox takes them off, keeping verify,
leaderboard and review)."""

from __future__ import annotations

from bot.core import match
from bot.core.actions import Verb
from bot.core.options import summary
from bot.core.room import Room, Seat
from bot.i18n import t
from bot.rules.room_options import OPTIONS

from . import render_match
from .model import Button, ButtonStyle
from .render_common import (
    button,
    labelled,
    lang_of,
    listed,
    name,
    noted,
    option_value,
    signed,
)


def options_lines(room: Room) -> list[str]:
    """The options as the three summary lines (``table.options1``-``3``):
    each option declared with a place there (``shown_as``) in its words."""
    lang = lang_of(room)
    shown = {
        declared.shown_as: option_value(lang, name, value)
        for name, value in summary(room).items()
        if (declared := OPTIONS[name]).shown_as
    }
    return [t(lang, f"table.options{n}", **shown) for n in (1, 2, 3)]


def seat_line(room: Room, p: Seat) -> str:
    """``• P0 (owner): +3``: a seated player, their marks and running total."""
    lang = lang_of(room)
    marks = []
    if p.key == room.owner:
        marks.append(t(lang, "table.owner_mark"))
    if p.ai:
        marks.append(t(lang, f"ai.{p.ai}"))
    total = room.totals.get(p.key)
    text = noted(lang, p.name, listed(lang, marks)) if marks else p.name
    if total is not None:
        text = labelled(lang, text, signed(total))
    return "• " + text


def start_button(room: Room) -> Button:
    """Start, next round or rematch: the owner deals the next round."""
    lang = lang_of(room)
    no = room.round_no
    label = render_match.start_label(room) or (
        t(lang, "btn.start") if no == 0 else t(lang, "btn.next_round")
    )
    return button(label, room.id, no, Verb.START, style=ButtonStyle.PRIMARY)


def seating_buttons(room: Room) -> list[Button]:
    """Join, leave, add an AI seat, the settings panel."""
    lang = lang_of(room)
    rid, no = room.id, room.round_no
    return [
        button(t(lang, "btn.join"), rid, no, Verb.JOIN, style=ButtonStyle.SUCCESS),
        button(t(lang, "btn.leave"), rid, no, Verb.LEAVE),
        button(t(lang, "btn.add_ai"), rid, no, Verb.ADD_AI, "normal"),
        button(t(lang, "btn.settings"), rid, no, Verb.SETTINGS),
    ]


def close_button(room: Room) -> Button:
    lang = lang_of(room)
    return button(
        t(lang, "btn.close"), room.id, room.round_no, Verb.CANCEL, style=ButtonStyle.DANGER
    )


def after_round_lines(room: Room, *, settings: bool = True) -> list[str]:
    """What a settlement adds while it is the lobby: who sits for the next
    round (a join or a leave shows here), the settings (``settings``; a
    picture's short caption leaves them to the Settings button) and who
    deals it."""
    lang = lang_of(room)
    rnd = room.rnd
    seated = [
        noted(lang, name(room, p.key), t(lang, "table.owner_mark"))
        if p.key == room.owner
        else name(room, p.key)
        for p in room.players
    ]
    lines = [
        labelled(lang, t(lang, "table.lobby", count=len(room.players)), listed(lang, seated)),
        *(options_lines(room) if settings else []),  # what the owner changes shows to all
        *render_match.match_lines(room),
    ]
    if not match.is_over(room) and settings:  # else the match's line says what comes next
        lines.append(t(lang, "table.last_round", round=rnd.no))
    return lines


def closed_lines(room: Room) -> list[str]:
    """The room's last word: what became of an unfinished round, then the
    final totals, or that no round was played."""
    lang = lang_of(room)
    lines = [t(lang, "table.closed")]
    rnd = room.round
    if rnd and not rnd.settled:
        lines.append(t(lang, "table.closed_void", round=rnd.no))
    if room.totals:
        played = rnd.no - (0 if rnd.settled else 1) if rnd else 0
        lines.append(t(lang, "table.closed_totals", rounds=played))
        for key, pts in sorted(room.totals.items(), key=lambda kv: -kv[1]):
            lines.append("• " + labelled(lang, name(room, key), signed(pts)))
    else:
        lines.append(t(lang, "table.closed_empty"))
    return lines
