"""A round's result as the terminal shows it: compact enough for one
screen of 80×24 (the chat's settlement lists every lane and every pair,
about 60 lines at five seats), and the showdown's steps as they come.

The compact result is a table: a row per player with what they won or lost
against each opponent, the round's total and (after the first round) the
room's; the whole settlement is one command away (``l``).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.room import Room
from bot.core.state import Phase
from bot.i18n import t
from bot.views.model import View
from bot.views.render_common import signed

from .screen import cols
from .terminal_words import unformat

SCOOP_MARK = "*"


def _cell(text: str, width: int) -> str:
    return " " * max(0, width - cols(text)) + text


def result_lines(lang: str, room: Room) -> list[str]:
    """The settled round in a few lines: each player's points against each
    opponent, the round's total and the room's, then the home run and those
    who left."""
    rnd = room.rnd
    st = rnd.showdown.settlement
    # The table's seats in the order they sit, the same every round (a
    # round's own order starts where the dice said).
    seats = [p.key for p in room.players if p.key in rnd.seats]
    seats += [k for k in rnd.seats if k not in seats]
    names = [room.name_of(k) for k in seats]
    against: dict[tuple[str, str], str] = {}
    scooped = False
    for q in st.pairs:
        against[(q.a, q.b)] = signed(q.score)
        against[(q.b, q.a)] = signed(-q.score)
        if q.scoop:
            scooped = True
            loser = q.b if q.scoop == q.a else q.a
            against[(q.scoop, loser)] += SCOOP_MARK
    running = rnd.no > 1 or any(room.totals.get(k, 0) != st.totals.get(k, 0) for k in seats)
    heads = [*names, t(lang, "cli.result_round")]
    if running:
        heads.append(t(lang, "cli.result_room"))
    rows = []
    for key in seats:
        row = [against.get((key, other), "·") if other != key else "·" for other in seats]
        row.append(signed(st.totals.get(key, 0)))
        if running:
            row.append(signed(room.totals.get(key, 0)))
        rows.append(row)
    label = max(cols(n) for n in names) + 1
    widths = [max(cols(h), *(cols(r[i]) for r in rows)) + 2 for i, h in enumerate(heads)]
    lines = [" " * label + "".join(_cell(h, w) for h, w in zip(heads, widths, strict=True))]
    for name, row in zip(names, rows, strict=True):
        cells = "".join(_cell(c, w) for c, w in zip(row, widths, strict=True))
        lines.append(name + " " * (label - cols(name)) + cells)
    if scooped:
        lines.append(t(lang, "cli.result_scoop", mark=SCOOP_MARK))
    if st.home_run:
        lines.append(t(lang, "settle.home_run", name=room.name_of(st.home_run)))
    for key in rnd.escaped:
        lines.append(t(lang, "settle.escaped", name=room.name_of(key)))
    return lines


@dataclass
class ShowdownSteps:
    """Prints a round's showdown step by step: each table view of the
    showdown carries the steps so far; only the new ones are printed."""

    lang: str
    round_no: str = ""
    printed: int = 0

    def new_lines(self, view: View) -> list[str]:
        """The lines of ``view`` not printed before this round (the title
        first, once)."""
        if view.meta.phase is not Phase.SHOWDOWN:
            return []
        lines = list(view.lines)
        title = t(self.lang, "table.showdown", round=(view.meta.round_tag or ""))
        start = lines.index(title) if title in lines else 0
        if (view.meta.round_tag or "") != self.round_no:
            self.round_no, self.printed = (view.meta.round_tag or ""), start + 1
            fresh = ["", f"== {title} =="]
        else:
            fresh = []
        out, self.printed = fresh + lines[self.printed :], max(self.printed, len(lines))
        return out


def _cards(lang: str, line: str) -> str:
    """A review's lane line (``  Head: A♠️ K♠️ Q♠️``) as its cards."""
    parts = unformat(lang, "fmt.label", line.strip())
    return parts["value"] if parts else line.strip()


def review_lines(lang: str, view: View) -> list[str]:
    """A review (复盘) in a few lines: each arrangement on one line, the best
    one only where it differs from the one played (the player's, or the
    table's at the deadline: the view says which)."""
    lines = list(view.lines)
    best = t(lang, "review.best")
    played = next(
        (x for x in lines if x in (t(lang, "review.mine"), t(lang, "review.table"))), None
    )
    if played is None or best not in lines:
        return lines
    m, b = lines.index(played), lines.index(best)
    played_block = lines[m + 1 : b]
    end = b + 1
    while end < len(lines) and lines[end].startswith("  "):
        end += 1
    best_block, rest = lines[b + 1 : end], lines[end:]

    def one(title: str, block: list[str]) -> str:
        return t(
            lang, "cli.review_lanes", title=title, lanes=" | ".join(_cards(lang, x) for x in block)
        )

    out = [one(played, played_block)]
    if [_cards(lang, x) for x in best_block] != [_cards(lang, x) for x in played_block]:
        out.append(one(best, best_block))
    return out + rest
