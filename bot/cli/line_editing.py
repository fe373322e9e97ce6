"""Line editing and history at ``thirteen play``'s prompt (Python's
readline), where the terminal and the platform have it.

readline edits a line only in the main thread's ``input()``, and only there
can a signal close it (a deadline that passes while the prompt waits, or a
line printed meanwhile: readline cannot share its line with other output).
So with readline the game runs its event loop in a thread of its own and
the main thread serves its prompts: :class:`Editor` is the bridge. Without
a terminal (input from a file or a pipe) or without readline, lines are
read as before (:class:`bot.cli.screen.LineReader`).
"""

from __future__ import annotations

import asyncio
import os
import queue
import signal
import sys
import threading
from collections.abc import Awaitable, Callable
from types import FrameType
from typing import Any

from .screen import POLL_SECONDS, SCREEN, clean, emit, leave_prompt, prompt_start

_CLOSE = signal.SIGUSR1 if hasattr(signal, "SIGUSR1") else None


_NO_LINE = object()


class _Closed(Exception):
    """The game closed the prompt (raised in ``input()`` by the signal)."""


def readline_module() -> Any | None:
    """readline, when both ends are a terminal and the platform has it."""
    if _CLOSE is None:
        return None
    try:
        if not (os.isatty(sys.stdin.fileno()) and os.isatty(sys.stdout.fileno())):
            return None
        import readline
    except (ImportError, AttributeError, OSError, ValueError):
        return None
    if "libedit" not in (readline.__doc__ or ""):
        # Pasted text is a typed line, and no escapes around each prompt.
        readline.parse_and_bind("set enable-bracketed-paste off")
    readline.set_completer(lambda _text, _state: None)  # Tab types nothing, lists no files
    return readline


class Editor:
    """The main thread's prompt, served to the game's event loop.

    The loop opens a prompt (:meth:`open`) and gets the typed line on
    :attr:`lines`; it closes an open prompt (:meth:`close`) before it
    prints anything, and reopens it with what had been typed."""

    def __init__(self, readline: Any) -> None:
        self.readline = readline
        self.requests: queue.Queue[tuple[str, str] | None] = queue.Queue()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.lines: asyncio.Queue[str | None] | None = None
        self.saved = ""  # what was typed at a prompt closed for output
        self.prompt = ""
        self._lock = threading.Lock()
        self._active = False  # a prompt was asked for and not yet answered
        self._closing = False
        self._in_input = False
        self._left = threading.Event()
        self._serving = False
        self._main = threading.main_thread().ident
        # A signal that comes while readline sets up its prompt, before it
        # waits for a key, waits unhandled (Ctrl-C too): every signal is
        # written here, and the game's loop wakes readline for it (_nudge).
        self._signals, write = os.pipe()
        os.set_blocking(self._signals, False)
        os.set_blocking(write, False)
        signal.set_wakeup_fd(write, warn_on_full_buffer=False)

    # ------------------------------------------------------------ main thread

    def serve(self) -> None:
        """Serve prompts until the game ends (a None request)."""
        # Left installed afterwards: a late signal must not end the process.
        signal.signal(_CLOSE, self._on_close)  # type: ignore[arg-type]
        self._serving = True
        try:
            while (req := self.requests.get()) is not None:
                self._serve_one(*req)
        finally:
            self._serving = False
            self._left.set()

    def _serve_one(self, prompt: str, prefill: str) -> None:
        line: str | None | object = _NO_LINE
        closed = False
        try:
            try:
                with self._lock:
                    if self._closing:  # closed before it was shown
                        raise _Closed
                    self._in_input = True
                if prefill:  # (readline drops an exception raised in a hook: Ctrl-C)
                    self.readline.set_pre_input_hook(lambda: self._prefill(prefill))
                try:
                    line = input(prompt)
                except EOFError:
                    line = None
                except SystemError as e:
                    # Ctrl-C and our signal at once: CPython calls our handler
                    # with the KeyboardInterrupt already set and says so.
                    if isinstance(e.__cause__, KeyboardInterrupt):
                        raise KeyboardInterrupt from None
                    raise
            finally:
                self._in_input = False
        except _Closed:
            closed = True  # a line typed as the signal came is still delivered
        self.readline.set_pre_input_hook(None)
        if isinstance(line, str) or line is None:
            assert self.loop is not None and self.lines is not None
            self.loop.call_soon_threadsafe(self.lines.put_nowait, line)
        with self._lock:
            self._active = False
            if self._closing or closed:
                self._closing = False
                self._left.set()

    def _prefill(self, text: str) -> None:
        self.readline.insert_text(text)
        self.readline.redisplay()

    def _on_close(self, _signum: int, _frame: FrameType | None) -> None:
        if self._closing and self._in_input:
            self.saved = self.readline.get_line_buffer()
            raise _Closed

    # ------------------------------------------------------------ game thread

    def start(self) -> None:
        """In the game's event loop, before the first prompt."""
        self.loop = asyncio.get_running_loop()
        self.lines = asyncio.Queue()
        self.loop.add_reader(self._signals, self._nudge)

    def _nudge(self) -> None:
        """A signal came (Ctrl-C): wake the main thread's readline so that
        it is handled now (our own signal needs nothing more)."""
        try:
            got = os.read(self._signals, 64)
        except BlockingIOError:
            return
        if any(n != _CLOSE for n in got):
            self._wake(10)

    def _wake(self, times: int) -> None:
        # Again a few times: a wake that comes in the same moment is lost too.
        if self._serving and times > 0 and self.loop is not None:
            signal.pthread_kill(self._main or 0, _CLOSE)  # type: ignore[arg-type]
            self.loop.call_later(0.1, self._wake, times - 1)

    @property
    def active(self) -> bool:
        return self._active

    def open(self, prompt: str, prefill: str = "") -> None:
        with self._lock:
            self._active, self._closing = True, False
            self._left.clear()
        self.prompt, self.saved = prompt, ""
        self.requests.put((prompt, prefill))

    def close(self) -> bool:
        """Close the open prompt, waiting until the main thread left it;
        False when it was answered meanwhile (its line is on :attr:`lines`)."""
        with self._lock:
            if not self._active:
                return False
            self._closing = True
        while not self._left.wait(0.05) and self._serving:
            signal.pthread_kill(self._main or 0, _CLOSE)  # type: ignore[arg-type]
        return True

    def stop(self) -> None:
        """The game is over: the main thread stops serving."""
        self.requests.put(None)


def run_edited(editor: Editor, game: Callable[[], Awaitable[int]]) -> int:
    """Run ``game`` in a thread of its own while this (the main) thread
    serves its prompts; Ctrl-C ends the game (KeyboardInterrupt here)."""
    result: dict[str, Any] = {}
    task: list[asyncio.Task[int]] = []

    async def main() -> int:
        editor.start()
        task.append(asyncio.current_task())  # type: ignore[arg-type]
        return await game()

    def thread() -> None:
        try:
            result["rc"] = asyncio.run(main())
        except BaseException as e:  # noqa: BLE001 - handed to the main thread
            result["error"] = e
        finally:
            editor.stop()

    worker = threading.Thread(target=thread, name="game", daemon=True)
    worker.start()
    try:
        editor.serve()
    except KeyboardInterrupt:
        if editor.loop is not None and task:
            editor.loop.call_soon_threadsafe(task[0].cancel)
        worker.join(5)
        raise
    worker.join()
    if "error" in result:
        raise result["error"]
    return int(result["rc"])


class EditedLines:
    """Lines typed at a prompt readline edits (the main thread's): the same
    questions as :class:`bot.cli.screen.LineReader` asks."""

    def __init__(self, editor: Editor) -> None:
        self.editor = editor
        SCREEN.editor = editor

    async def ask(
        self,
        prompt: str | Callable[[], Awaitable[str]],
        *,
        still: Callable[[], Awaitable[bool]] | None = None,
    ) -> str | None:
        """The next line typed after ``prompt``; None when ``still()`` turned
        False while waiting (the prompt is closed). EOFError at the end of
        input (Ctrl-D)."""
        editor = self.editor
        assert editor.lines is not None

        async def show_prompt(prefill: str = "") -> None:
            text = prompt if isinstance(prompt, str) else await prompt()
            editor.open(prompt_start(text), prefill)
            SCREEN.at_prompt = True

        await show_prompt()
        try:
            while True:
                try:
                    async with asyncio.timeout(POLL_SECONDS):
                        line = await editor.lines.get()
                except TimeoutError:
                    if still is not None and not await still():
                        if editor.close():
                            emit("")  # the prompt ends where it was
                        SCREEN.at_prompt = False
                        return None
                    if not SCREEN.at_prompt:  # closed to print something: again
                        await show_prompt(editor.saved)
                    continue
                SCREEN.at_prompt = False  # readline's Enter ended the line
                if line is None:  # Ctrl-D: the line it ended is ended here
                    emit("")
                    raise EOFError
                return clean(line)
        finally:
            leave_prompt()
