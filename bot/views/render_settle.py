"""A round's settlement post: each seat's total and its result against
each opponent in parts that add up (lanes, scoop, home run, specials, the
escape penalty, the banker cap), the running totals, and the deck with its
salt so anyone can check the hash published at the deal. Under a picture
(which shows all that) the caption is short: the totals and who sits."""

from __future__ import annotations

from bot.core.actions import Verb
from bot.core.room import Room
from bot.core.state import Phase
from bot.i18n import t

from . import render_lobby
from .keys import KeyKind, ViewKey
from .model import Audience, Button, View, ViewKind, ViewMeta
from .render_common import (
    button,
    cards_text,
    labelled,
    lang_of,
    listed,
    name,
    noted,
    signed,
    special,
)
from .render_match import review_button
from .render_result import settlement_result_lines
from .render_table import HASH_SHOWN


def settlement_lines(room: Room) -> list[str]:
    """The round's record, then the deck and its salt."""
    return record_lines(room) + proof_lines(room)


def record_lines(room: Room) -> list[str]:
    """Each seat's round total, then its result against each opponent in
    parts that add up to it (render_result); the home run; the room's totals.
    The hands themselves are on the round's showdown, just above."""
    lang = lang_of(room)
    rnd = room.rnd
    st = rnd.showdown.settlement
    names = {k: name(room, k) for k in rnd.seats}
    lines: list[str] = []
    for key in rnd.seats:
        lines.append(seat_head(room, key))
        special_of = st.player(key).special
        if special_of:
            cards = cards_text(rnd.hands[key].kept_tokens())
            lines.append(
                "  " + t(lang, "settle.special", special=special(lang, special_of), cards=cards)
            )
        lines.extend("  " + x for x in settlement_result_lines(lang, st, key, names))
    if st.home_run:
        lines.append(t(lang, "settle.home_run", name=name(room, st.home_run)))
    lines.append(t(lang, "settle.running_totals"))
    for key, pts in sorted(room.totals.items(), key=lambda kv: -kv[1]):
        lines.append("  " + labelled(lang, name(room, key), signed(pts)))
    return lines


def seat_head(room: Room, key: str, *more: str) -> str:
    """``卡萝：+16（庄家）``: a seat's round total, its marks and ``more``."""
    lang = lang_of(room)
    rnd = room.rnd
    marks = []
    if rnd.hands[key].auto:
        marks.append(t(lang, "settle.auto_mark"))
    if key in rnd.escaped:
        marks.append(t(lang, "settle.escaped_mark"))
    if rnd.banker == key:
        marks.append(t(lang, "settle.banker_mark"))
    marks.extend(more)
    total = rnd.showdown.settlement.totals.get(key, 0)
    head = labelled(lang, name(room, key), signed(total))
    return noted(lang, head, listed(lang, marks)) if marks else head


def caption_lines(room: Room) -> list[str]:
    """The settlement under its picture, short (a caption holds 1,024
    characters; the picture has every part, the settings and the deck are
    behind Settings and Verify): each seat's round total with its marks and
    the room's total."""
    lang = lang_of(room)
    return [
        seat_head(room, key, t(lang, "settle.room_mark", room=signed(room.totals.get(key, 0))))
        for key in room.rnd.seats
    ]


def proof_lines(room: Room) -> list[str]:
    """The deal published the full hash; here the deck in cards, the salt and
    the hash's start, to recognise it (verify shows every step)."""
    lang = lang_of(room)
    rnd = room.rnd
    return [
        t(lang, "settle.deck", deck=cards_text(rnd.deck)),
        t(lang, "settle.salt", salt=rnd.salt, hash=rnd.hash[:HASH_SHOWN]),
    ]


def settlement_view(room: Room, *, fresh: bool = True, short: bool = False) -> View:
    """The last round's result, posted once (``fresh``) when it is paid.
    While the room waits for the next round it is also the lobby (who sits,
    next round, join, leave, AI, settings, close: render_lobby), edited in
    place as players come and go; a room closed after it says so here.

    ``short``: the caption of the settlement's picture, which shows every
    part: the totals and who sits (Telegram cuts a caption at 1,024
    characters; the settings are on Settings, the deck and salt on Verify).
    Otherwise (text only) every seat's result against each opponent, in
    parts that add up, the settings and the deck with its salt."""
    lang = lang_of(room)
    rnd = room.rnd
    rid, no = room.id, room.round_no
    lines = caption_lines(room) if short else record_lines(room)
    proof = [] if short else proof_lines(room)
    info = [
        button(t(lang, "btn.verify"), rid, no, Verb.VERIFY, str(rnd.no)),
        button(t(lang, "btn.leaderboard"), rid, no, Verb.LEADERBOARD, "all"),
        review_button(room, rnd.no),
    ]
    controls: list[tuple[Button, ...]] = []
    lobby: list[str] = []
    if room.phase == Phase.CLOSED:
        lines = [*render_lobby.closed_lines(room), *lines]
    elif room.phase == Phase.LOBBY and rnd.settled:
        lobby = render_lobby.after_round_lines(room, settings=not short)
        lines = [*lobby, *lines]
        join, leave, add_ai, settings = render_lobby.seating_buttons(room)
        controls = [
            (render_lobby.start_button(room), join, leave),
            (add_ai, settings, render_lobby.close_button(room)),
        ]
    return View(
        kind=ViewKind.SETTLEMENT,
        audience=Audience.GROUP,
        key=str(ViewKey(KeyKind.SETTLE, rid, round=rnd.no)),
        title=t(lang, "settle.title", round=rnd.no),
        lines=(*lines, *proof),
        buttons=(*controls, tuple(info)),
        platform=room.platform,
        chat_id=room.chat_id,
        language=lang,
        fresh=fresh,
        # how many of the first lines are the lobby's (the console, which
        # has its own prompt between rounds, leaves them out)
        meta=ViewMeta(round=rnd.no, lobby_lines=len(lobby)),
    )
