"""A round's settlement post: lanes per player, pairwise scores, scoops,
home run, specials, escapes, round and running totals, and the deck with
its salt so anyone can check the hash published at the deal."""

from __future__ import annotations

from bot.core.actions import Verb
from bot.core.room import Room
from bot.core.showdown import PairScore
from bot.core.state import LANE_NAMES, Phase
from bot.i18n import t

from . import render_lobby
from .model import Audience, Button, View, ViewKind
from .render_common import (
    button,
    cards_text,
    category,
    labelled,
    lane,
    lane_text,
    lang_of,
    listed,
    name,
    noted,
    signed,
    special,
)
from .render_match import review_button


def settlement_lines(room: Room) -> list[str]:
    """The round's record, then the deck and its salt."""
    return record_lines(room) + proof_lines(room)


def record_lines(room: Room) -> list[str]:
    """Each seat's hand and score, the pairs, the round's and the room's totals."""
    lang = lang_of(room)
    rnd = room.rnd
    st = rnd.showdown.settlement
    by_id = st.by_id()
    lines: list[str] = []
    for key in rnd.seats:
        p = by_id[key]
        hand = rnd.hands[key]
        marks = []
        if hand.auto:
            marks.append(t(lang, "settle.auto_mark"))
        if key in rnd.escaped:
            marks.append(t(lang, "settle.escaped_mark"))
        if rnd.banker == key:
            marks.append(t(lang, "settle.banker_mark"))
        head = labelled(lang, name(room, key), signed(p.total))
        lines.append(noted(lang, head, listed(lang, marks)) if marks else head)
        arr = hand.arrangement_tokens()
        if p.special:
            lines.append(
                "  "
                + t(
                    lang,
                    "settle.special",
                    special=special(lang, p.special),
                    cards=cards_text(hand.kept_tokens()),
                )
            )
        else:
            for i, lane_name in enumerate(LANE_NAMES):
                cards = lane_text(arr[lane_name])
                if p.lanes:
                    cards = noted(lang, cards, category(lang, p.lanes[i].category))
                lines.append("  " + labelled(lang, lane(lang, lane_name), cards))
    lines.append(t(lang, "settle.pairs"))
    for q in st.pairs:
        lines.append("  " + pair_text(room, lang, q))
    if st.home_run:
        lines.append(t(lang, "settle.home_run", name=name(room, st.home_run)))
    for key in rnd.escaped:
        lines.append(t(lang, "settle.escaped", name=name(room, key)))
    lines.append(t(lang, "settle.round_totals"))
    for key in rnd.seats:
        lines.append("  " + labelled(lang, name(room, key), signed(st.totals.get(key, 0))))
    lines.append(t(lang, "settle.running_totals"))
    for key, pts in sorted(room.totals.items(), key=lambda kv: -kv[1]):
        lines.append("  " + labelled(lang, name(room, key), signed(pts)))
    return lines


def proof_lines(room: Room) -> list[str]:
    """The deal published the full hash; here the deck in cards, the salt and
    the hash's start, to recognise it (verify shows every step)."""
    lang = lang_of(room)
    rnd = room.rnd
    return [
        t(lang, "settle.deck", deck=cards_text(rnd.deck)),
        t(lang, "settle.salt", salt=rnd.salt, hash=rnd.hash[:12]),
    ]


def pair_text(room: Room, lang: str, q: PairScore) -> str:
    """One pair in words: who won how much, who took each lane, the scoop.
    ``A vs B: A won 4 (Head A · Middle B · Tail A)``, ``… · A scooped``: the
    past tense reads right after any name, the console's "You" too."""
    a, b = name(room, q.a), name(room, q.b)
    score = q.score
    if score > 0:
        result = t(lang, "settle.pair_win", name=a, points=score)
    elif score < 0:
        result = t(lang, "settle.pair_win", name=b, points=-score)
    else:
        result = t(lang, "settle.pair_draw")
    text = t(lang, "settle.pair", a=a, b=b, result=result)
    if q.lanes is not None:
        words = []
        for lane_name, x in zip(LANE_NAMES, q.lanes, strict=True):
            who = a if x > 0 else b if x < 0 else t(lang, "settle.lane_tie")
            words.append(t(lang, "settle.lane_won", lane=lane(lang, lane_name), name=who))
        text += t(lang, "settle.pair_lanes", lanes=" · ".join(words))
    else:
        text += t(lang, "settle.pair_special")
    if q.scoop:
        text += " · " + t(lang, "settle.scoop", name=name(room, q.scoop))
    return text


def settlement_view(room: Room, *, fresh: bool = True) -> View:
    """The last round's result, posted once (``fresh``) when it is paid.
    While the room waits for the next round it is also the lobby (who sits,
    next round, join, leave, AI, settings, close: render_lobby), edited in
    place as players come and go; a room closed after it says so here."""
    lang = lang_of(room)
    rnd = room.rnd
    rid, no = room.id, room.round_no
    lines = record_lines(room)
    # The deck and its salt stay last: a long caption is cut from the end,
    # and they are one press away on "verify".
    proof = proof_lines(room)
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
        # First: a long caption is cut from the end (the picture, the
        # table's showdown and "verify" have the rest of the record).
        lobby = render_lobby.after_round_lines(room)
        lines = [*lobby, *lines]
        join, leave, add_ai, settings = render_lobby.seating_buttons(room)
        controls = [
            (render_lobby.start_button(room), join, leave),
            (add_ai, settings, render_lobby.close_button(room)),
        ]
    return View(
        kind=ViewKind.SETTLEMENT,
        audience=Audience.GROUP,
        key=f"settle:{rid}:{rnd.no}",
        title=t(lang, "settle.title", round=rnd.no),
        lines=(*lines, *proof),
        buttons=(*controls, tuple(info)),
        platform=room.platform,
        chat_id=room.chat_id,
        language=lang,
        fresh=fresh,
        # how many of the first lines are the lobby's (the console, which
        # has its own prompt between rounds, leaves them out)
        meta={"round": str(rnd.no), "lobby_lines": str(len(lobby))},
    )
