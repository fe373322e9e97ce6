"""The terminal's screen: its width, lines wrapped to it, printing, and
the lines typed at it.

Lines are read by a daemon thread, never by ``input()`` on the event loop's
executor: Ctrl-C ends the game at once (no thread to wait for), and a
deadline can pass while a prompt waits (the prompt is closed and the game
goes on). Every line is wrapped to the terminal's width, counting a CJK
character as two columns.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import sys
import threading
import unicodedata
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import BinaryIO, Protocol

POLL_SECONDS = 0.25

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
    """``text`` cut where a line may break (spaces stay with the word before;
    a number keeps the CJK unit after it: ``+3.9 分``)."""
    atoms: list[str] = []
    cur, prev, before = "", "", ""
    for ch in text:
        unit = _wide(ch) and (prev.isdigit() or (prev == " " and before.isdigit()))
        if cur and _can_break(prev, ch) and not unit:
            atoms.append(cur)
            cur = ""
        cur += ch
        if not _zero_width(ch):
            prev, before = ch, prev
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


class OpenPrompt(Protocol):
    """A prompt being edited in another thread (line_editing.Editor)."""

    prompt: str
    saved: str

    @property
    def active(self) -> bool: ...

    def close(self) -> bool: ...


class LineSource(Protocol):
    """Where typed lines come from: :class:`LineReader`, or readline's
    prompt (line_editing.EditedLines)."""

    async def ask(
        self,
        prompt: str | Callable[[], Awaitable[str]],
        *,
        still: Callable[[], Awaitable[bool]] | None = None,
    ) -> str | None: ...


@dataclass
class _Screen:
    at_prompt: bool = False  # the cursor stands right after a prompt
    closed: bool = False  # the output's reader went away (``| head``)
    editor: OpenPrompt | None = None  # readline edits the prompt (line_editing)


SCREEN = _Screen()


def emit(text: str, end: str = "\n") -> None:
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


def leave_prompt() -> None:
    """Before other output: end the prompt's line. A prompt readline edits
    is closed first (it is shown again below, with what was typed); its
    line is cleared when it fits one."""
    if not SCREEN.at_prompt:
        return
    editor = SCREEN.editor
    if editor is None:
        emit("")
    elif editor.active and editor.close():
        w = width()
        if w is not None and cols(editor.prompt + editor.saved) < w:
            emit("\r\x1b[K", end="")
        else:
            emit("")
    SCREEN.at_prompt = False


_ESCAPE = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)?|.)?")


def clean(line: str) -> str:
    """A typed line as the game reads it: full-width letters and digits (a
    Chinese input method's) as plain ones (NFKC), terminal escapes (an
    arrow key where the line is not edited) and control characters taken
    out, so none is ever echoed back."""
    line = _ESCAPE.sub("", unicodedata.normalize("NFKC", line))
    line = line.replace("\t", " ")
    return "".join(ch for ch in line if unicodedata.category(ch) not in ("Cc", "Cf"))


def say(text: str = "", *, fold: bool = True) -> None:
    """Print ``text`` (its ``\\n`` start new lines), each line wrapped to the
    terminal. ``fold=False``: never wrapped (a command to copy)."""
    leave_prompt()
    w = width() if fold else None
    for line in text.split("\n"):
        for part in wrap(line, w):
            emit(part)


def say_items(items: Sequence[str], sep: str = "  ") -> None:
    """Print ``items`` side by side, as many to a line as fit; an item is
    broken only where it is wider than the terminal."""
    leave_prompt()
    w = width()
    line = ""
    for item in items:
        if line and w is not None and cols(line + sep + item) > w:
            emit(line)
            line = ""
        if not line and w is not None and cols(item) > w:
            *full, line = wrap(item, w)
            for part in full:
                emit(part)
        else:
            line = f"{line}{sep}{item}" if line else item
    if line:
        emit(line)


def say_list(text: str) -> None:
    """Print a text whose lines list things with `` · `` between them: a
    line breaks between the things, not inside one."""
    for line in text.split("\n"):
        say_items(line.split(" · "), sep=" · ")


def prompt_start(text: str) -> str:
    """Prints the lines of a prompt ``text`` that wrap above the one typed
    on (after ending a prompt left open) and returns that last line, its
    trailing spaces kept: the console's and readline's prompts alike."""
    leave_prompt()
    body = text.rstrip()
    *above, last = wrap(body, width()) or [""]
    for line in above:
        emit(line)
    return last + text[len(body) :]


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
            line = clean(raw.decode("utf-8", "replace").rstrip("\r\n")) if raw else None
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
            emit(prompt_start(text), end="")
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
                    emit(line)
                # A terminal's echo of the Enter key ended the prompt's line.
                SCREEN.at_prompt = False
                return line
        finally:
            leave_prompt()
