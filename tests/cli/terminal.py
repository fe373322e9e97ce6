"""``thirteen play`` in a pseudo-terminal, driven as a person would: wait
for a prompt, type a line (the terminal echoes it), read what is printed."""

from __future__ import annotations

import contextlib
import fcntl
import os
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "THIRTEEN_SOLVER_MODEL_HANDS": "200", "PYTHONUNBUFFERED": "1"}
ENV.pop("COLUMNS", None)
ENV.pop("LINES", None)
# Seed 2, 2 players: your cards are numbered
# [1] K♣ [2] Q♦ [3] J♠ [4] J♥ [5] 10♠ [6] 9♥ [7] 9♣ [8] 8♣ [9] 6♠ [10] 5♠ [11] 4♥ [12] 4♣ [13] 3♣
GAME = ["--players", "2", "--seed", "2", "--step", "0"]
PROMPT = "s) > "  # the prompt while arranging: "(119s) > "


class Terminal:
    """A ``thirteen`` command on a pseudo-terminal of ``columns`` columns
    (COLUMNS set too unless ``env_columns`` is False)."""

    def __init__(
        self,
        *args: str,
        command: str = "play",
        columns: int = 80,
        env_columns: bool = True,
        env: dict[str, str] | None = None,
        cwd: Path = ROOT,
    ) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
        environ = {**ENV, **(env or {})}
        if env_columns:
            environ["COLUMNS"] = str(columns)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bot", command, *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=cwd,
            env=environ,
            start_new_session=True,
        )
        os.close(slave)
        self.fd = master
        self.raw = b""
        self.pos = 0  # how far expect() has read
        self.eof = False

    @property
    def out(self) -> str:
        return self.raw.decode("utf-8", "replace").replace("\r\n", "\n")

    def _read(self, timeout: float) -> None:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # the other end closed: the command ended
            data = b""
        if data:
            self.raw += data
        else:
            self.eof = True

    def expect(self, text: str, timeout: float = 60) -> str:
        """Wait until ``text`` is printed (after what was expected before);
        the output up to it."""
        deadline = time.monotonic() + timeout
        while text not in self.out[self.pos :]:
            if self.eof or time.monotonic() > deadline:
                raise AssertionError(f"{text!r} never came; the terminal showed:\n{self.out}")
            self._read(0.2)
        end = self.out.index(text, self.pos) + len(text)
        seen, self.pos = self.out[self.pos : end], end
        return seen

    def expect_prompt(self, text: str, timeout: float = 60) -> str:
        """Wait for a prompt that may be wrapped to the terminal's width;
        the output up to it."""
        want = "".join(text.split())
        deadline = time.monotonic() + timeout
        while want not in "".join(self.out[self.pos :].split()):
            if self.eof or time.monotonic() > deadline:
                raise AssertionError(f"{text!r} never came; the terminal showed:\n{self.out}")
            self._read(0.2)
        seen, self.pos = self.out[self.pos :], len(self.out)
        return seen

    def type(self, line: str) -> None:
        os.write(self.fd, (line + "\n").encode())

    def play(self, *lines: str, prompt: str = PROMPT) -> None:
        """Type each line at the next prompt."""
        for line in lines:
            self.expect(prompt)
            self.type(line)

    def finish(self, timeout: float = 60) -> str:
        """Everything printed, once the command ended (its exit status in
        ``self.returncode``)."""
        deadline = time.monotonic() + timeout
        while not self.eof and time.monotonic() < deadline:
            self._read(0.2)
        try:
            self.returncode = self.proc.wait(timeout=max(1.0, deadline - time.monotonic()))
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            os.close(self.fd)
        return self.out

    def __enter__(self) -> Terminal:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        with contextlib.suppress(OSError):
            os.close(self.fd)


# Seed 2, 2 players: your cards are numbered
# [1] K♣ [2] Q♦ [3] J♠ [4] J♥ [5] 10♠ [6] 9♥ [7] 9♣ [8] 8♣ [9] 6♠ [10] 5♠ [11] 4♥ [12] 4♣ [13] 3♣
GAME = ["--players", "2", "--seed", "2", "--lang", "en", "--step", "0"]


def play_cli(lines: list[str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "play", *args],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=ENV,
        timeout=120,
        check=False,
    )
