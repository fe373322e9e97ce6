"""One player's result against each opponent, in lines that add up:
``对 小波 +4：头道 +1 · 中道 -1 · 尾道 +4 铁支``, then any escape payment.
The settlement's text writes it for every seat; the private hand's result
at the settlement and the page write it for one player."""

from __future__ import annotations

from collections.abc import Mapping

from bot.core.breakdown import Result, item_text, items_text, result
from bot.core.room import Room
from bot.core.showdown import Settlement
from bot.i18n import t

from .render_common import lang_of, name, signed


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
