"""The terminal as one more platform: typed lines in, views printed out.

Lines are read by a daemon thread, never by ``input()`` on the event loop's
executor: Ctrl-C ends the game at once (no thread to wait for), and a
deadline can pass while a prompt waits (the prompt is closed and the game
goes on). What is typed is checked as a whole before anything is sent to the
table: a line that places cards either places all of them or none.

Views are printed in terminal words: the chat's "tap" hints are replaced,
the hand is printed whole once per round (and on ``show``) and compactly
after each command, and refusals are printed once.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from bot.table.actions import Verb
from bot.views.i18n import t
from bot.views.model import View

POLL_SECONDS = 0.25
_NUMBER = re.compile(r"[+-]?\d+", re.ASCII)


class LineReader:
    """Lines typed at the terminal, read by a daemon thread into a queue."""

    def __init__(self, stream: BinaryIO | None = None) -> None:
        self._loop = asyncio.get_running_loop()
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        if stream is None:
            # A reader of its own on a copy of the descriptor, unbuffered: the
            # thread blocked in it holds no lock that sys.stdin needs when the
            # interpreter shuts down.
            stream = open(os.dup(sys.stdin.fileno()), "rb", buffering=0)  # noqa: SIM115
        source = stream
        threading.Thread(
            target=self._read, args=(source,), name="console-input", daemon=True
        ).start()

    def _read(self, stream: BinaryIO) -> None:
        while True:
            try:
                raw = stream.readline()
            except (OSError, ValueError):
                raw = b""
            line = raw.decode("utf-8", "replace").rstrip("\r\n") if raw else None
            try:
                self._loop.call_soon_threadsafe(self._queue.put_nowait, line)
            except RuntimeError:  # the game ended and its loop closed
                return
            if line is None:
                return

    async def ask(
        self, prompt: str, *, still: Callable[[], Awaitable[bool]] | None = None
    ) -> str | None:
        """The next line typed after ``prompt``; None when ``still()`` turned
        False while waiting (the prompt is then closed). EOFError at the end
        of input."""
        print(prompt, end="", flush=True)
        while True:
            try:
                async with asyncio.timeout(POLL_SECONDS):
                    line = await self._queue.get()
            except TimeoutError:
                if still is not None and not await still():
                    print()
                    return None
                continue
            if line is None:
                print()
                raise EOFError
            return line


# ---------------------------------------------------------------- typed lines


@dataclass(frozen=True, slots=True)
class Typed:
    """What one typed line asks for: card numbers, one verb, information, or
    a problem to show (a catalog key and its values)."""

    picks: tuple[int, ...] = ()
    verb: Verb | None = None
    arg: str | None = None
    info: str | None = None  # help | rules | show | quit
    problem: tuple[str, dict[str, Any]] | None = None


SIMPLE = {
    "u": Verb.UNDO,
    "undo": Verb.UNDO,
    "r": Verb.RESET,
    "reset": Verb.RESET,
    "g": Verb.SUGGEST,
    "suggest": Verb.SUGGEST,
    "d": Verb.DECLARE,
    "declare": Verb.DECLARE,
    "c": Verb.CONFIRM,
    "confirm": Verb.CONFIRM,
}
INFO = {
    "h": "help",
    "help": "help",
    "?": "help",
    "rules": "rules",
    "show": "show",
    "l": "show",
    "q": "quit",
    "quit": "quit",
    "exit": "quit",
}
SORTS = ("rank", "suit", "count")


def parse(line: str, cards: int, suggestions: int) -> Typed | None:
    """Read one typed line against a hand of ``cards`` cards and the
    ``suggestions`` on offer; None for an empty line."""
    words = line.replace(",", " ").split()
    if not words:
        return None
    head, rest = words[0].lower(), words[1:]
    if _NUMBER.fullmatch(head):
        return _picks(words, cards)
    if head in SIMPLE and not rest:
        return Typed(verb=SIMPLE[head])
    if head in INFO and not rest:
        return Typed(info=INFO[head])
    if head in ("s", "sort") and len(rest) <= 1:
        how = rest[0].lower() if rest else "suit"
        if how not in SORTS:
            return Typed(problem=("cli.sort_how", {}))
        return Typed(verb=Verb.SORT, arg=how)
    if head in ("a", "apply"):
        if not suggestions:
            return Typed(problem=("cli.no_suggestions", {}))
        if len(rest) != 1 or not _NUMBER.fullmatch(rest[0]) or not 1 <= int(rest[0]) <= suggestions:
            return Typed(problem=("cli.suggestion_range", {"count": suggestions}))
        return Typed(verb=Verb.APPLY, arg=str(int(rest[0]) - 1))
    return Typed(problem=("cli.unknown", {"word": words[0][:20]}))


def _picks(words: list[str], cards: int) -> Typed:
    numbers: list[int] = []
    for w in words:
        if not _NUMBER.fullmatch(w) or not 1 <= int(w) <= cards:
            return Typed(problem=("cli.card_range", {"word": w[:20], "count": cards}))
        if int(w) in numbers:
            return Typed(problem=("cli.card_twice", {"number": int(w)}))
        numbers.append(int(w))
    return Typed(picks=tuple(numbers))


# ---------------------------------------------------------------- printing


def show(view: View, skip: Callable[[str], bool] = lambda line: False) -> None:
    print()
    if view.title:
        print(f"== {view.title} ==")
    for line in view.lines:
        if not skip(line):
            print(line)


@dataclass
class HandPrinter:
    """Prints a player's hand view in terminal words.

    The first view of a round is printed whole, with the commands; later
    ones show the lanes, the numbered cards and only the lines not printed
    before this round (suggestions, the special-hand offer, the outcome).
    """

    lang: str
    printed: set[str] = field(default_factory=set)
    round_key: str | None = None

    def card_numbers(self, view: View) -> dict[int, str]:
        """Number shown -> the card's index in the hand (the PICK argument)."""
        numbers: dict[int, str] = {}
        for row in view.buttons:
            for b in row:
                parts = (b.action_id or "").split("|")
                if len(parts) == 5 and parts[3] == Verb.PICK.value:
                    numbers[len(numbers) + 1] = parts[4]
        return numbers

    def suggestions(self, view: View) -> int:
        return sum(
            1
            for row in view.buttons
            for b in row
            if (b.action_id or "").split("|")[3:4] == [Verb.APPLY.value]
        )

    def _terminal(self, line: str) -> str | None:
        """A view line in terminal words (None: not for a terminal)."""
        if line == t(self.lang, "hand.hint") or line.startswith("⚠️"):
            return None  # the chat hint; a refusal, printed once by the caller
        if line == t(self.lang, "hand.hint_extra", count=3):
            return t(self.lang, "cli.extra_three", count=3)
        return line

    def print(self, view: View, *, whole: bool = False) -> None:
        key = view.key + view.meta.get("round", "")
        if key != self.round_key:
            self.round_key, self.printed, whole = key, set(), True
        lines = [x for x in (self._terminal(line) for line in view.lines) if x is not None]
        lanes, others = lines[:3], lines[3:]
        print()
        if whole:
            print(f"== {view.title} ==")
        for line in lanes:
            print(line)
        for line in others:
            if whole or (line not in self.printed and not line.startswith("⏱")):
                print(line)  # the time left is in the prompt after the first print
            self.printed.add(line)
        cards = [
            f"[{n}] {b.label}"
            for n, b in enumerate(
                (
                    b
                    for row in view.buttons
                    for b in row
                    if (b.action_id or "").split("|")[3:4] == [Verb.PICK.value]
                ),
                start=1,
            )
        ]
        if cards:
            print("  ".join(cards))
            if whole:
                print(t(self.lang, "cli.commands"))
