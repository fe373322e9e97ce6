"""Views printed in terminal words (:class:`Words`, :class:`HandPrinter`).

What only a chat has (buttons to tap, the room's id, pictures, a clock in
the server's time zone) is left out or said as a command to type, the hand
is printed whole once per round (and on ``show``) and compactly after each
command, and refusals are printed once. A chat line is recognised by
reading it back against its catalog text (:func:`unformat`).
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache

from bot.i18n import t
from bot.table.actions import Verb
from bot.views.keys import KeyKind
from bot.views.model import Button, View, ViewKind

from .screen import say, say_items, say_list


@lru_cache(maxsize=256)
def _pattern(lang: str, key: str) -> re.Pattern[str]:
    """A catalog text as a pattern whose groups are its placeholders."""
    out, seen = [], set()
    for literal, name, _, _ in string.Formatter().parse(t(lang, key)):
        out.append(re.escape(literal))
        if name:
            out.append(f"(?P={name})" if name in seen else f"(?P<{name}>.*?)")
            seen.add(name)
    return re.compile("".join(out), re.DOTALL)


def unformat(lang: str, key: str, line: str) -> dict[str, str] | None:
    """The values ``line`` fills into the catalog text ``key``; None when
    the line is not that text."""
    m = _pattern(lang, key).fullmatch(line)
    return m.groupdict() if m else None


def _without(lang: str, key: str, placeholder: str, params: dict[str, str]) -> str:
    """Catalog text ``key`` without its `` · ``-separated part that shows
    ``placeholder``."""
    parts = [p for p in t(lang, key).split(" · ") if "{" + placeholder + "}" not in p]
    return " · ".join(parts).format(**params)


def local_clock(deadline: float) -> str:
    """A moment as this computer's clock shows it (its own time zone)."""
    return datetime.fromtimestamp(deadline).strftime("%H:%M:%S")


@dataclass
class Words:
    """Chat lines in terminal words. ``auto``: nobody types (``--auto``)."""

    lang: str
    auto: bool = False

    def line(self, text: str, *, deadline: float | None = None, now: float = 0.0) -> list[str]:
        """A view's line as the terminal says it: none, one or more lines."""
        lang = self.lang
        if text == t(lang, "hand.hint") or unformat(lang, "final.next", text) is not None:
            return []  # tap the cards; the rematch and close buttons
        if unformat(lang, "table.round", text) is not None:
            return []  # "arrange in private": the round is the title
        if (p := unformat(lang, "hand.hint_extra", text)) is not None:
            return [t(lang, "cli.extra_three", **p)]
        if (p := unformat(lang, "notice.reminder", text)) is not None and p["names"] == t(
            lang, "cli.you"
        ):
            return [t(lang, "cli.reminder", seconds=p["seconds"])]  # only I arrange here
        if (p := unformat(lang, "settle.salt", text)) is not None:
            return [t(lang, "cli.salt_auto" if self.auto else "cli.salt", **p)]
        if unformat(lang, "time.deadline_clock", text) is not None:
            if deadline is None:
                return []
            left = max(0, int(deadline - now))
            return [t(lang, "cli.deadline", time=local_clock(deadline), seconds=left)]
        if (p := unformat(lang, "table.options3", text)) is not None:
            return [_without(lang, "table.options3", "pictures", p)]  # no pictures here
        if unformat(lang, "hand.special_offer", text) is not None:
            return [text, t(lang, "cli.declare_hint")]
        return [text]

    def lines(
        self, lines: Iterable[str], *, deadline: float | None = None, now: float = 0.0
    ) -> list[str]:
        return [x for line in lines for x in self.line(line, deadline=deadline, now=now)]

    def title(self, view: View) -> str | None:
        """A view's heading; the table's (which names the room) becomes the
        round, with the match's count where there is one."""
        if view.kind is not ViewKind.TABLE:
            return view.title or None
        for line in view.lines:
            if unformat(self.lang, "match.line", line) is not None:
                return line
            if (p := unformat(self.lang, "table.round", line)) is not None:
                return t(self.lang, "cli.round", **p)
        return None

    def show(self, view: View, *, deadline: float | None = None, now: float = 0.0) -> None:
        """Print a view (not a hand) in terminal words."""
        title = self.title(view)
        lines = list(view.lines)
        if view.kind is ViewKind.TABLE:
            lines = [x for x in lines if unformat(self.lang, "match.line", x) is None]
        # A settlement is the chat's lobby too; the console asks for itself.
        lines = lines[view.meta.lobby_lines :]
        say()
        if title:
            say(f"== {title} ==")
        for line in self.lines(lines, deadline=deadline, now=now):
            say(line)
        if view.view_key.kind is KeyKind.VERIFY:
            self._verify_command(lines)

    def _verify_command(self, lines: Sequence[str]) -> None:
        """The check of a revealed deck as one command to paste in a shell."""
        salt = tokens = None
        for line in lines:
            salt = (unformat(self.lang, "verify.salt", line) or {}).get("salt", salt)
            tokens = (unformat(self.lang, "verify.tokens", line) or {}).get("deck", tokens)
        if salt and tokens and re.fullmatch(r"[0-9A-Za-z ,:]+", tokens + salt):
            text = ",".join(tokens.split()) + ":" + salt
            command = (
                "python3 -c 'import hashlib,sys; "
                "print(hashlib.sha256(sys.argv[1].encode()).hexdigest())' " + text
            )
            say(t(self.lang, "cli.verify_shell"))
            say("  " + command, fold=False)


@dataclass
class HandPrinter:
    """Prints a player's hand view in terminal words.

    The first view of a round is printed whole, with the commands; later
    ones show the lanes, the numbered cards and only the lines not printed
    before this round (suggestions, the special-hand offer, the outcome) and
    the hand's warning (a fouled split) whenever it has one.
    """

    lang: str
    printed: set[str] = field(default_factory=set)
    round_key: str | None = None

    @property
    def words(self) -> Words:
        return Words(self.lang)

    def card_numbers(self, view: View) -> dict[int, str]:
        """Number shown -> the card's index in the hand (the PICK argument)."""
        return {n: (b.action_id or "").split("|")[4] for n, b in enumerate(_cards(view), start=1)}

    def suggestions(self, view: View) -> int:
        return sum(
            1
            for row in view.buttons
            for b in row
            if (b.action_id or "").split("|")[3:4] == [Verb.APPLY.value]
        )

    def print(
        self,
        view: View,
        *,
        whole: bool = False,
        categories: Sequence[str | None] = (),
        deadline: float | None = None,
        now: float = 0.0,
    ) -> None:
        """``categories``: each full lane's category, shown after it."""
        key = view.key + (view.meta.round_tag or "")
        if key != self.round_key:
            self.round_key, self.printed, whole = key, set(), True
        lanes, others = list(view.lines[:3]), view.lines[3:]
        for i, cat in enumerate(categories[:3]):
            if cat:
                lanes[i] = t(self.lang, "cli.lane_category", line=lanes[i].rstrip(), category=cat)
        say()
        if whole:
            say(f"== {view.title} ==")
        for line in lanes:
            say(line.rstrip())
        for line in self.words.lines(others, deadline=deadline, now=now):
            if line.startswith("⚠️"):
                say(line)  # the hand's own warning (a fouled split), each time
                continue
            if whole or (line not in self.printed and not line.startswith("⏱")):
                say(line)  # the time left is in the prompt after the first print
            self.printed.add(line)
        cards = [f"[{n}] {b.label}" for n, b in enumerate(_cards(view), start=1)]
        if cards:
            say_items(cards)
            if whole:
                commands = t(self.lang, "cli.commands")
                if extra_three(self.lang, view):  # its own placing rule is said above
                    commands = commands.split("\n", 1)[-1]
                say_list(commands)


def _cards(view: View) -> list[Button]:
    """A hand's card buttons in the order they are numbered: the cards still
    to place as the hand is sorted, then the placed ones lane by lane as the
    lanes show them (a sort does not move a placed card)."""
    picks = [
        b
        for row in view.buttons
        for b in row
        if (b.action_id or "").split("|")[3:4] == [Verb.PICK.value]
    ]
    lanes = [
        card for line in view.lines[:3] for card in re.split("[:：]", line, maxsplit=1)[-1].split()
    ]
    placed = [b for b in picks if "·" in b.label and b.label.split("·")[0] in lanes]
    rest = [b for b in picks if b not in placed]
    return rest + sorted(placed, key=lambda b: lanes.index(b.label.split("·")[0]))


def extra_three(lang: str, view: View | None) -> bool:
    """Whether the hand is 多三张's 16 cards (the tail is placed too)."""
    return view is not None and any(
        unformat(lang, "hand.hint_extra", line) is not None for line in view.lines
    )
