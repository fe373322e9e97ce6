"""One player's result of a paid round, for their private hand: the
round's total, what they won or lost against each opponent (lane by lane),
the 打枪 marks and the 全垒打, and the buttons that still mean something
once the round is paid (the review, the next round for the owner, joining
the next for a player who left).

``versus_lines`` is the one place the per-opponent words are made: the
settlement's per-pair breakdown (lane wins with their points and reasons,
the scoop's doubling, specials) replaces its body when it lands, and the
hand, the console and the page's words follow.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.actions import Verb
from bot.core.room import Room
from bot.core.showdown import Settlement
from bot.core.state import LANE_NAMES, Phase
from bot.i18n import t

from . import render_lobby
from .model import Button, ButtonStyle
from .render_common import button, lane, lang_of, name, signed
from .render_match import review_button


@dataclass(frozen=True, slots=True)
class Versus:
    """``me`` against one opponent, from ``me``'s side: the score, each
    lane's sign (None when a special decided it) and who scooped (打枪)."""

    opponent: str
    score: int
    lanes: tuple[int, ...] | None
    scoop: str | None


def versus_of(settlement: Settlement, me: str) -> list[Versus]:
    """Every pair ``me`` played in, turned to ``me``'s side, in seat order
    of the settlement's pairs."""
    out = []
    for q in settlement.pairs:
        if me not in (q.a, q.b):
            continue
        sign = 1 if q.a == me else -1
        other = q.b if q.a == me else q.a
        lanes = None if q.lanes is None else tuple(sign * x for x in q.lanes)
        out.append(Versus(other, sign * q.score, lanes, q.scoop))
    return out


def versus_lines(room: Room, me: str) -> list[str]:
    """``对 Bo：+6（头道 胜 · 中道 胜 · 尾道 胜） · 🔫 你打枪``: one line per
    opponent."""
    lang = lang_of(room)
    rnd = room.rnd
    st = rnd.showdown.settlement
    lines = []
    for v in versus_of(st, me):
        if v.lanes is None:
            how = t(lang, "result.by_special")
        else:
            how = " · ".join(
                t(lang, "result.lane", lane=lane(lang, n), outcome=t(lang, _OUTCOME[_sign(x)]))
                for n, x in zip(LANE_NAMES, v.lanes, strict=True)
            )
        text = t(
            lang, "result.versus", name=name(room, v.opponent), points=signed(v.score), how=how
        )
        if v.scoop == me:
            text += " · " + t(lang, "result.scooped_them")
        elif v.scoop == v.opponent:
            text += " · " + t(lang, "result.scooped_you", name=name(room, v.opponent))
        lines.append(text)
    return lines


_OUTCOME = {1: "result.won", -1: "result.lost", 0: "result.tie"}


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def settled_for(room: Room, key: str) -> bool:
    """Whether ``key``'s hand is of a paid round (its result is shown)."""
    rnd = room.round
    return (
        rnd is not None
        and rnd.settled
        and rnd.result is not None
        and key in rnd.showdown.settlement.totals
    )


def result_lines(room: Room, key: str) -> list[str]:
    """The round's total for ``key`` (and the room's running total), then
    each opponent, then the home run where there was one."""
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
        *("  " + line for line in versus_lines(room, key)),
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
