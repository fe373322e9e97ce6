"""The terminal as one more platform: typed lines in, views printed out.

Lines are read by a daemon thread, never by ``input()`` on the event loop's
executor: Ctrl-C ends the game at once (no thread to wait for), and a
deadline can pass while a prompt waits (the prompt is closed and the game
goes on). What is typed is checked as a whole before anything is sent to the
table: a line that places cards either places all of them or none.

Views are printed in terminal words (:class:`Words`): what only a chat has
(buttons to tap, the room's id, pictures, a clock in the server's time zone)
is left out or said as a command to type, the hand is printed whole once per
round (and on ``show``) and compactly after each command, and refusals are
printed once. Every line is wrapped to the terminal's width, counting a CJK
character as two columns.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import string
import sys
import threading
import unicodedata
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import Any, BinaryIO

from bot.i18n import t
from bot.table.actions import Verb
from bot.views.model import View, ViewKind

POLL_SECONDS = 0.25
_NUMBER = re.compile(r"[+-]?\d+", re.ASCII)

# ---------------------------------------------------------------- the screen

_VS16 = "\ufe0f"  # emoji presentation: the character before it takes two columns
# A line may not begin with these, nor end with the opening ones.
_NO_START = frozenset("，。、；：！？）」』】〉》…·,.;:!?)]}%”’")
_NO_END = frozenset("（「『【〈《“‘([{")


def _zero_width(ch: str) -> bool:
    return ch == _VS16 or unicodedata.category(ch) in ("Mn", "Me", "Cf")


def _wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in ("W", "F")


def cols(text: str) -> int:
    """The columns ``text`` takes in a terminal: CJK characters and emoji
    two, combining marks none."""
    total = last = 0
    for ch in text:
        if ch == _VS16:
            total += 1 if last == 1 else 0
            last = 2
        elif _zero_width(ch):
            continue
        else:
            last = 2 if _wide(ch) else 1
            total += last
    return total


def _can_break(prev: str, ch: str) -> bool:
    """Whether a line may break between ``prev`` and ``ch``: after spaces,
    and next to a CJK character (not before closing punctuation, not after
    opening punctuation)."""
    if ch.isspace() or _zero_width(ch):
        return False
    if prev.isspace():
        return True
    if ch in _NO_START or prev in _NO_END:
        return False
    return _wide(prev) or _wide(ch)


def _atoms(text: str) -> list[str]:
    """``text`` cut where a line may break (spaces stay with the word before)."""
    atoms: list[str] = []
    cur, prev = "", ""
    for ch in text:
        if cur and _can_break(prev, ch):
            atoms.append(cur)
            cur = ""
        cur += ch
        if not _zero_width(ch):
            prev = ch
    if cur:
        atoms.append(cur)
    return atoms


def _cut(text: str, width: int) -> tuple[str, str]:
    """The longest start of ``text`` that fits ``width`` columns, and the rest."""
    end = 0
    for i in range(1, len(text) + 1):
        if i < len(text) and _zero_width(text[i]):
            continue  # a combining mark stays with its character
        if cols(text[:i]) > width:
            break
        end = i
    end = max(end, 1)
    return text[:end], text[end:]


def wrap(text: str, width: int | None) -> list[str]:
    """``text`` as lines of at most ``width`` columns, broken between words
    or CJK characters; a continued line keeps the first one's indentation.
    None: the line as it is."""
    if width is None or width < 8 or cols(text) <= width:
        return [text]
    indent = text[: len(text) - len(text.lstrip(" "))]
    if cols(indent) > width // 2:
        indent = ""
    lines: list[str] = []
    cur = ""
    for atom in _atoms(text):
        if not cur.strip() or cols((cur + atom).rstrip()) <= width:
            cur += atom
        else:
            lines.append(cur.rstrip())
            cur = indent + atom.lstrip()
        while cols(cur.rstrip()) > width:  # one word longer than a line
            head, rest = _cut(cur, width)
            lines.append(head)
            cur = indent + rest
    if cur.strip():
        lines.append(cur.rstrip())
    return lines


def width() -> int | None:
    """The terminal's width in columns: ``COLUMNS`` when set, else the
    terminal's own; None when the output is not a terminal (a file or a
    pipe gets whole lines)."""
    env = os.environ.get("COLUMNS", "")
    if env.isdigit() and int(env) > 0:
        return int(env)
    try:
        if not os.isatty(sys.stdout.fileno()):
            return None
    except (AttributeError, OSError, ValueError):  # a replaced stdout (tests)
        return None
    return shutil.get_terminal_size().columns


@dataclass
class _Screen:
    at_prompt: bool = False  # the cursor stands right after a prompt
    closed: bool = False  # the output's reader went away (``| head``)


SCREEN = _Screen()


def _emit(text: str, end: str = "\n") -> None:
    """Print one line; a reader that went away ends the output quietly
    (the rest goes nowhere), not with a traceback."""
    if SCREEN.closed:
        return
    try:
        print(text, end=end, flush=True)
    except BrokenPipeError:
        SCREEN.closed = True
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def _leave_prompt() -> None:
    if SCREEN.at_prompt:
        _emit("")
        SCREEN.at_prompt = False


def say(text: str = "", *, fold: bool = True) -> None:
    """Print ``text`` (its ``\\n`` start new lines), each line wrapped to the
    terminal. ``fold=False``: never wrapped (a command to copy)."""
    _leave_prompt()
    w = width() if fold else None
    for line in text.split("\n"):
        for part in wrap(line, w):
            _emit(part)


def say_items(items: Sequence[str], sep: str = "  ") -> None:
    """Print ``items`` side by side, as many to a line as fit; an item is
    broken only where it is wider than the terminal."""
    _leave_prompt()
    w = width()
    line = ""
    for item in items:
        if line and w is not None and cols(line + sep + item) > w:
            _emit(line)
            line = ""
        if not line and w is not None and cols(item) > w:
            *full, line = wrap(item, w)
            for part in full:
                _emit(part)
        else:
            line = f"{line}{sep}{item}" if line else item
    if line:
        _emit(line)


def say_list(text: str) -> None:
    """Print a text whose lines list things with `` · `` between them: a
    line breaks between the things, not inside one."""
    for line in text.split("\n"):
        say_items(line.split(" · "), sep=" · ")


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
        try:
            # A terminal echoes what is typed; typed lines that come from a
            # file or a pipe are echoed here, so the transcript reads the same.
            self._echo = not os.isatty(stream.fileno())
        except (AttributeError, OSError, ValueError):
            self._echo = True
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
        self,
        prompt: str | Callable[[], Awaitable[str]],
        *,
        still: Callable[[], Awaitable[bool]] | None = None,
    ) -> str | None:
        """The next line typed after ``prompt`` (a text, or a function giving
        it: asked again when the prompt is printed again after other
        output); None when ``still()`` turned False while waiting (the prompt
        is then closed). EOFError at the end of input."""

        async def show_prompt() -> None:
            text = prompt if isinstance(prompt, str) else await prompt()
            _leave_prompt()
            body = text.rstrip()
            *above, last = wrap(body, width()) or [""]
            for line in above:
                _emit(line)
            _emit(last + text[len(body) :], end="")
            SCREEN.at_prompt = True

        await show_prompt()
        try:
            while True:
                try:
                    async with asyncio.timeout(POLL_SECONDS):
                        line = await self._queue.get()
                except TimeoutError:
                    if still is not None and not await still():
                        return None
                    if not SCREEN.at_prompt:  # something was printed meanwhile
                        await show_prompt()
                    continue
                if line is None:
                    raise EOFError
                if self._echo and SCREEN.at_prompt:
                    _emit(line)
                # A terminal's echo of the Enter key ended the prompt's line.
                SCREEN.at_prompt = False
                return line
        finally:
            _leave_prompt()


# ---------------------------------------------------------------- typed lines


@dataclass(frozen=True, slots=True)
class Typed:
    """What one typed line asks for: card numbers, one verb, information, or
    a problem to show (a catalog key and its values)."""

    picks: tuple[int, ...] = ()
    verb: Verb | None = None
    arg: str | None = None
    info: str | None = None  # help | rules | show | verify | quit
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
VERIFY = ("v", "verify")
SORTS = ("rank", "suit", "count")
MAX_TYPED_NUMBER = 9999  # longer numbers are not a card, a suggestion or a round


def _small(word: str) -> int | None:
    """A typed whole number from 1 to MAX_TYPED_NUMBER, else None."""
    if not _NUMBER.fullmatch(word) or len(word) > 5:
        return None
    n = int(word)
    return n if 1 <= n <= MAX_TYPED_NUMBER else None


def parse(line: str, cards: int, suggestions: int) -> Typed | None:
    """Read one typed line against a hand of ``cards`` cards and the
    ``suggestions`` on offer (0: none yet; ``a N`` then asks for them
    first); None for an empty line."""
    words = line.replace(",", " ").split()
    if not words:
        return None
    head, rest = words[0].lower(), words[1:]
    if _NUMBER.fullmatch(head):
        return _picks(words, cards)
    if head in VERIFY:
        return _verify(words)
    if head in SIMPLE or head in INFO:
        if rest:
            if SIMPLE.get(head) is Verb.SUGGEST and _small(rest[0]) is not None:
                return Typed(problem=("cli.suggest_number", {"word": head, "n": _small(rest[0])}))
            return Typed(problem=("cli.no_args", {"word": head}))
        return Typed(verb=SIMPLE[head]) if head in SIMPLE else Typed(info=INFO[head])
    if head in ("s", "sort") and len(rest) <= 1:
        how = rest[0].lower() if rest else "suit"
        if how not in SORTS:
            return Typed(problem=("cli.sort_how", {}))
        return Typed(verb=Verb.SORT, arg=how)
    if head in ("a", "apply"):
        n = _small(rest[0]) if len(rest) == 1 else None
        if suggestions:
            if n is None or n > suggestions:
                return Typed(problem=("cli.suggestion_range", {"count": suggestions}))
        elif n is None:
            return Typed(problem=("cli.apply_how", {}))
        return Typed(verb=Verb.APPLY, arg=str(n - 1))
    return Typed(problem=("cli.unknown", {"word": words[0][:20]}))


def parse_between(line: str) -> Typed | None:
    """Read a line typed between rounds: None (an empty line) goes on."""
    words = line.replace(",", " ").split()
    if not words:
        return None
    head = words[0].lower()
    if head in VERIFY:
        return _verify(words)
    if INFO.get(head) in ("help", "rules", "quit"):
        if len(words) > 1:
            return Typed(problem=("cli.no_args", {"word": head}))
        return Typed(info=INFO[head])
    return Typed(problem=("cli.unknown", {"word": words[0][:20]}))


def _verify(words: list[str]) -> Typed:
    if len(words) == 1:
        return Typed(info="verify")
    if len(words) == 2 and _small(words[1]) is not None:
        return Typed(info="verify", arg=str(_small(words[1])))
    return Typed(problem=("cli.verify_how", {}))


def _picks(words: list[str], cards: int) -> Typed:
    numbers: list[int] = []
    for w in words:
        if not _NUMBER.fullmatch(w) or not 1 <= int(w) <= cards:
            return Typed(problem=("cli.card_range", {"word": w[:20], "count": cards}))
        if int(w) in numbers:
            return Typed(problem=("cli.card_twice", {"number": int(w)}))
        numbers.append(int(w))
    return Typed(picks=tuple(numbers))


# ---------------------------------------------------------------- terminal words


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
        say()
        if title:
            say(f"== {title} ==")
        for line in self.lines(lines, deadline=deadline, now=now):
            say(line)
        if view.key.startswith("verify:"):
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
        key = view.key + view.meta.get("round", "")
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
            say_items(cards)
            if whole:
                say_list(t(self.lang, "cli.commands"))
