"""The round's table in the group: the lobby before the first round, then
each round's own message: the deal and who has confirmed, turned into the
showdown (its steps), which stays as the round's record; a room closed
before or during a round says so here (after a settled round, on its
settlement: render_settle)."""

from __future__ import annotations

from bot.core.actions import Verb
from bot.core.moments import SCOOP_STEP, MomentKind, moments
from bot.core.paid import CAP, special_paid
from bot.core.room import Room
from bot.core.showdown import SPECIALS_STEP
from bot.core.state import LANE_NAMES, Phase
from bot.i18n import t
from bot.pictures.stamps import moment_text

from . import render_lobby, render_match
from .deadline import deadline_text
from .keys import KeyKind, ViewKey
from .model import Audience, Button, ButtonStyle, View, ViewKind, ViewMeta
from .render_common import (
    button,
    category,
    labelled,
    lane_text,
    lang_of,
    name,
    noted,
    rows,
    special,
)

HASH_SHOWN = 12  # hex digits of the deck's hash a deal's caption shows (48 bits)


def _lobby(room: Room) -> tuple[list[str], list[Button]]:
    """Before the first round (and after a round that was not played out):
    the table is the lobby. After a settled round the settlement is."""
    lang = lang_of(room)
    rid, no = room.id, room.round_no
    lines = [t(lang, "table.lobby", count=len(room.players))]
    lines += [render_lobby.seat_line(room, p) for p in room.players]
    lines += render_lobby.options_lines(room)
    lines += render_match.match_lines(room)
    lines.append(t(lang, "table.lobby_hint"))
    join, leave, add_ai, settings = render_lobby.seating_buttons(room)
    buttons = [
        join,
        leave,
        render_lobby.start_button(room),
        add_ai,
        settings,
        button(t(lang, "btn.rules"), rid, no, Verb.RULES),
        button(t(lang, "btn.leaderboard"), rid, no, Verb.LEADERBOARD, "all"),
        button(t(lang, "btn.help"), rid, no, Verb.HELP),
        render_lobby.close_button(room),
    ]
    return lines, buttons


def _round_head(room: Room) -> list[str]:
    lang = lang_of(room)
    rnd = room.rnd
    seats = rnd.seats
    lines = [
        *render_match.match_lines(room),
        t(lang, "table.round", round=rnd.no),
        t(
            lang,
            "table.dice",
            d1=rnd.dice[0],
            d2=rnd.dice[1],
            name=name(room, seats[rnd.first_seat]),
            style=t(lang, f"opt.deal_{rnd.deal_style.value}"),
        ),
        # the hash's start: a caption has no room for 64 digits; "verify"
        # shows the whole hash with the deck and salt once they are revealed
        t(lang, "table.hash", hash=rnd.hash[:HASH_SHOWN]),
    ]
    if rnd.wild_rank:
        lines.append(t(lang, "table.wild", rank=rnd.wild_rank.replace("T", "10")))
    if rnd.banker:
        lines.append(t(lang, "table.banker", name=name(room, rnd.banker)))
    return lines


def _arranging(room: Room, now: float) -> tuple[list[str], list[Button]]:
    lang = lang_of(room)
    rnd = room.rnd
    rid, no = room.id, rnd.no
    lines = _round_head(room)
    for key in rnd.seats:
        hand = rnd.hands[key]
        mark = "✅" if hand.done else "⏳"
        extra = ""
        if key in rnd.escaped:
            extra = " " + t(lang, "table.escaped_mark")
        elif hand.declared:
            extra = " " + t(lang, "table.declared_mark")
        lines.append(f"{mark} {name(room, key)}{extra}")
    lines.append(deadline_text(room, lang, rnd.deadline))
    buttons = [
        button(t(lang, "btn.my_hand"), rid, no, Verb.SHOW_HAND, style=ButtonStyle.PRIMARY),
        # The arranging page, where the platform can link to it from a group.
        Button(t(lang, "btn.open_page"), web_app=True),
        button(t(lang, "btn.leave"), rid, no, Verb.LEAVE, style=ButtonStyle.DANGER),
        button(t(lang, "btn.rules"), rid, no, Verb.RULES),
        button(t(lang, "btn.help"), rid, no, Verb.HELP),
    ]
    return lines, buttons


def showdown_lines(room: Room, upto: int) -> list[str]:
    """The steps revealed so far: lanes weakest first, then specials."""
    lang = lang_of(room)
    rnd = room.rnd
    result = rnd.showdown
    players = result.settlement.by_id()
    lines: list[str] = []
    for step in result.steps[: upto + 1]:
        if step == SPECIALS_STEP:
            lines.append(t(lang, "show.specials"))
            for key in result.specials:
                hand = rnd.hands[key]
                worth = hand.special.points if hand.special else 0
                pay = special_paid(result.settlement, key, worth)
                lines.append(
                    t(
                        lang,
                        "show.special_line" if pay.how == "worth" else f"show.special_{pay.how}",
                        name=name(room, key),
                        special=special(lang, hand.declared or ""),
                        points=worth,
                        paid=pay.paid,
                        cap=CAP,
                    )
                )
            continue
        i = LANE_NAMES.index(step)
        lines.append(t(lang, f"show.{step}"))
        for key in result.reveal[step]:
            tokens = rnd.hands[key].arrangement_tokens()[step]
            lanes = players[key].lanes
            cards = lane_text(tokens)
            if lanes:
                cards = noted(lang, cards, category(lang, lanes[i].category))
            lines.append("  " + labelled(lang, name(room, key), cards))
        if step == SCOOP_STEP:
            lines += moment_lines(room)
    return lines


def moment_lines(room: Room) -> list[str]:
    """The scoops (打枪) and the home run (全垒打) the tail decides, each on
    its own line; a special's line at its step is its moment already."""
    lang = lang_of(room)
    out = []
    for m in moments(room.rnd.showdown.settlement, (SCOOP_STEP,)):
        of = name(room, m.of) if m.of else None
        text = moment_text(lang, m.kind, name(room, m.by), of, m.times)
        if m.kind is MomentKind.HOME_RUN:
            text = t(lang, "show.moment_home_run", text=t(lang, "moment.home_run_line", text=text))
        else:
            text = t(lang, "show.moment_scoop", text=text)
        out.append(text)
    return out


def _showdown(room: Room) -> tuple[list[str], list[Button]]:
    lang = lang_of(room)
    lines = [
        *render_match.match_lines(room),
        t(lang, "table.showdown", round=room.rnd.no),
    ]
    lines += showdown_lines(room, room.rnd.step)
    return lines, []


def _closed(room: Room) -> tuple[list[str], list[Button]]:
    return render_lobby.closed_lines(room), []


def table_view(room: Room, now: float, fresh: bool = False) -> View:
    lang = lang_of(room)
    phase = room.phase
    if phase == Phase.ARRANGING:
        lines, buttons = _arranging(room, now)
    elif phase == Phase.SHOWDOWN:
        lines, buttons = _showdown(room)
    elif phase == Phase.CLOSED:
        lines, buttons = _closed(room)
    else:
        lines, buttons = _lobby(room)
    return View(
        kind=ViewKind.TABLE,
        audience=Audience.GROUP,
        key=str(ViewKey(KeyKind.TABLE, room.id)),
        title=t(lang, "table.title", room=room.id),
        lines=tuple(lines),
        buttons=tuple(rows(buttons)),
        platform=room.platform,
        chat_id=room.chat_id,
        language=lang,
        fresh=fresh,
        meta=ViewMeta(round=room.round_no, phase=phase),
    )
