"""The JSON Lines loop shared by ``judge`` and ``arrange`` (docs/judge.md).

One object per input line, one per output line in the same order; a line
that cannot be handled gets ``{"ok": false, "error": "<sentence>"}`` and the
rest still run; blank lines are skipped; exit status 0 when every line was
ok, else 2.

Whatever arrives — any bytes, any nesting depth, any length, numbers of any
size — each line is answered with one JSON object, and what goes out is
always valid UTF-8 JSON: input is read as bytes and decoded strictly, the
line length, the nesting depth and the length of numbers are bounded before
the JSON parser sees them, and an answer that would hold a lone surrogate
(``"\\udcff"`` in the input) is written with ``\\u`` escapes instead.
"""

from __future__ import annotations

import io
import itertools
import json
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import IO, Any, BinaryIO, cast

from bot.rules import CardError, OptionError, make_rules
from bot.rules.options import SETTLEMENT_OPTIONS, Rules

from . import command_parser

Handler = Callable[[dict[str, Any]], dict[str, Any]]

MAX_LINE_BYTES = 1_000_000
MAX_DEPTH = 32  # a judge line nests 4 deep; anything far deeper is not ours
MAX_NUMBER_CHARS = 20
MAX_ERROR_CHARS = 300

_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(rb"[\[\]{}]")


class InputError(ValueError):
    """A line whose content is wrong; the message is the one clear sentence."""


class TooLongLine(bytes):
    """A line over MAX_LINE_BYTES: only its first bytes are kept."""


def shown(value: object, limit: int = 40) -> str:
    """``repr(value)`` clipped, for echoing a user's value in an error."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def rules_from(obj: dict[str, Any], players: int) -> Rules:
    if "preset" not in obj:
        raise InputError("the field preset is required (classic or extended)")
    options = obj.get("options") or {}
    if not isinstance(options, dict):
        raise InputError("options must be an object")
    try:
        return make_rules(obj["preset"], players, options, allowed=SETTLEMENT_OPTIONS)
    except OptionError as e:
        raise InputError(str(e)) from None


# ---------------------------------------------------------------- reading


def read_lines(stream: BinaryIO, limit: int = MAX_LINE_BYTES) -> Iterator[bytes]:
    """The lines of ``stream``; a line longer than ``limit`` is cut there and
    the rest of it skipped (as a ``TooLongLine``), so memory stays bounded."""
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        if len(line) <= limit or line.endswith(b"\n"):
            yield line
            continue
        while line and not line.endswith(b"\n"):  # skip to the end of the long line
            line = stream.readline(1 << 16)
        yield TooLongLine(b"")


def _depth(raw: bytes) -> int:
    """How deep the line's arrays and objects nest (strings left out)."""
    brackets = _BRACKETS.findall(_STRINGS.sub(b'""', raw))
    steps = (1 if b in (b"[", b"{") else -1 for b in brackets)
    return max(itertools.accumulate(steps, initial=0))


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_NUMBER_CHARS:
        raise InputError(f"a number in the line has more than {MAX_NUMBER_CHARS} digits")
    return int(text)


def _parse_float(text: str) -> float:
    if len(text) > MAX_NUMBER_CHARS + 10:
        raise InputError(f"a number in the line has more than {MAX_NUMBER_CHARS} digits")
    return float(text)


def _parse_constant(name: str) -> float:
    raise InputError(f"the line is not valid JSON ({name} is not a JSON number)")


def parse_line(raw: bytes | str) -> dict[str, Any] | None:
    """The JSON object of one line, None for a blank line; InputError otherwise."""
    if isinstance(raw, TooLongLine):
        raise InputError(f"the line is longer than {MAX_LINE_BYTES:,} bytes")
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    if len(data.rstrip(b"\r\n")) > MAX_LINE_BYTES:
        raise InputError(f"the line is longer than {MAX_LINE_BYTES:,} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(
            f"the line is not valid UTF-8 (the byte 0x{data[e.start]:02x} at position {e.start + 1})"
        ) from None
    if not text.strip():
        return None
    if _depth(data) > MAX_DEPTH:
        raise InputError(f"the line nests arrays and objects more than {MAX_DEPTH} deep")
    try:
        obj = json.loads(
            text,
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=_parse_constant,
        )
    except json.JSONDecodeError as e:
        raise InputError(f"the line is not valid JSON ({e.msg} at column {e.colno})") from None
    if not isinstance(obj, dict):
        raise InputError("each line must be a JSON object")
    return obj


# ---------------------------------------------------------------- answering


def answer(raw: bytes | str, handler: Handler) -> dict[str, Any] | None:
    """The reply to one line (None for a blank line): never raises."""
    try:
        obj = parse_line(raw)
        if obj is None:
            return None
        return {"ok": True, **handler(obj)}
    except (InputError, CardError, OptionError, ValueError) as e:
        # ValueError: rules-level refusals (SettlementError, the solver's)
        message = str(e)
    except RecursionError:
        message = "the line nests too deep to handle"
    except Exception as e:  # noqa: BLE001 - one bad line must not stop the rest
        message = f"this line could not be handled (internal error: {type(e).__name__})"
    if len(message) > MAX_ERROR_CHARS:
        message = message[: MAX_ERROR_CHARS - 1] + "…"
    return {"ok": False, "error": message}


def encode(reply: dict[str, Any]) -> bytes:
    """One output line, valid UTF-8 whatever strings the reply holds."""
    text = json.dumps(reply, ensure_ascii=False)
    try:
        return text.encode("utf-8") + b"\n"
    except UnicodeEncodeError:  # a lone surrogate: escape it
        return json.dumps(reply).encode("ascii") + b"\n"


def handle_lines(lines: Iterable[bytes | str], handler: Handler, out: IO[str] | IO[bytes]) -> int:
    """Answer every line on ``out`` (text or binary); the exit status."""
    status = 0
    for raw in lines:
        reply = answer(raw, handler)
        if reply is None:
            continue
        if not reply["ok"]:
            status = 2
        data = encode(reply)
        if isinstance(out, io.TextIOBase):
            out.write(data.decode("utf-8"))
        else:
            cast(IO[bytes], out).write(data)
        out.flush()
    return status


def main_loop(
    handler: Handler,
    argv: Sequence[str] | None,
    prog: str,
    description: str,
    epilog: str | None = None,
    setup: Callable[[], None] | None = None,
) -> int:
    """``thirteen judge`` / ``thirteen arrange``: arguments, ``setup``, then
    the loop on standard input and output (binary, so no locale can garble a
    byte)."""
    command_parser(prog, description, epilog).parse_args(list(argv or []))
    if setup is not None:
        setup()
    try:
        return handle_lines(read_lines(sys.stdin.buffer), handler, sys.stdout.buffer)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
