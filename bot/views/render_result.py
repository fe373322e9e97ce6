"""One player's result against each opponent, in lines that add up:
``对 小波 +4：头道 +1 · 中道 -1 · 尾道 +4 铁支``, then any escape payment.
The settlement's text writes it for every seat; the private hand's result
at the settlement (:func:`hand_result_lines`, with the buttons that still
mean something once the round is paid) and the page write it for one
player."""

from __future__ import annotations

from collections.abc import Mapping

from bot.core.actions import Verb
from bot.core.breakdown import Result, item_text, items_text, result
from bot.core.room import Room
from bot.core.showdown import Settlement
from bot.core.state import Phase
from bot.i18n import t

from . import render_lobby
from .model import Button, ButtonStyle
from .render_common import button, lang_of, name, signed
from .render_match import review_button


def versus_lines(lang: str, res: Result, names: Mapping[str, str]) -> list[str]:
    """``res`` against each opponent (the parts and their sum), then the
    escape payments: with the pairs they make ``res.total``."""
    lines = []
    for v in res.versus:
        who = names.get(v.opponent, v.opponent)
        if v.items:
            items = items_text(lang, v.items, names)
            lines.append(t(lang, "result.versus", name=who, total=signed(v.total), items=items))
        else:  # a round stored before the parts were kept
            lines.append(t(lang, "result.versus_plain", name=who, total=signed(v.total)))
    lines.extend(item_text(lang, x, names) for x in res.escape)
    return lines


def settlement_result_lines(
    lang: str, settlement: Settlement, key: str, names: Mapping[str, str]
) -> list[str]:
    """Player ``key``'s lines of ``settlement`` (:func:`versus_lines`)."""
    return versus_lines(lang, result(settlement, key), names)


def result_lines(room: Room, key: str) -> list[str]:
    """Player ``key``'s result in the room's last settled round: a line per
    opponent with the parts that make it, then any escape payment; they add
    up to the player's round total (``result_title``)."""
    lang = lang_of(room)
    names = {k: name(room, k) for k in room.rnd.seats}
    return settlement_result_lines(lang, room.rnd.showdown.settlement, key, names)


def result_title(room: Room, key: str) -> str:
    """``你的结果 +16``: the total the lines of :func:`result_lines` add up to."""
    total = room.rnd.showdown.settlement.totals.get(key, 0)
    return t(lang_of(room), "result.title", total=signed(int(total)))


def settled_for(room: Room, key: str) -> bool:
    """Whether ``key``'s hand is of a paid round (its result is shown)."""
    rnd = room.round
    return (
        rnd is not None
        and rnd.settled
        and rnd.result is not None
        and key in rnd.showdown.settlement.totals
    )


def hand_result_lines(room: Room, key: str) -> list[str]:
    """The private hand's result: the round's total for ``key`` (and the
    room's running total), each opponent with the parts that make it
    (:func:`result_lines`), then the home run where there was one."""
    lang = lang_of(room)
    rnd = room.rnd
    st = rnd.showdown.settlement
    lines = [
        t(
            lang,
            "result.total",
            round=rnd.no,
            points=signed(st.totals[key]),
            running=signed(room.totals.get(key, 0)),
        ),
        *("  " + line for line in result_lines(room, key)),
    ]
    if st.home_run == key:
        lines.append(t(lang, "result.home_run_you"))
    elif st.home_run:
        lines.append(t(lang, "result.home_run", name=name(room, st.home_run)))
    if key in rnd.escaped:
        lines.append(t(lang, "result.escaped"))
    return lines


def result_buttons(room: Room, key: str) -> tuple[tuple[Button, ...], ...]:
    """The review; while the room waits for the next round, the next round
    for the owner and joining the next for a player no longer seated."""
    row = [review_button(room, room.rnd.no)]
    if room.phase == Phase.LOBBY:
        if key == room.owner and room.seat(key) is not None:
            row.append(render_lobby.start_button(room))
        elif room.seat(key) is None and not key.startswith("ai:"):
            lang = lang_of(room)
            row.append(
                button(
                    t(lang, "btn.join_next"),
                    room.id,
                    room.round_no,
                    Verb.JOIN,
                    style=ButtonStyle.SUCCESS,
                )
            )
    return (tuple(row),)
