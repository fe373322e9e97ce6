"""The JSON Lines loop shared by ``judge`` and ``arrange`` (JUDGE.md).

One object per input line, one per output line in the same order; a line
that cannot be handled gets ``{"ok": false, "error": "<sentence>"}`` and the
rest still run; exit status 0 when every line was ok, else 2.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable
from typing import IO, Any

from bot.rules import CardError, OptionError, make_rules
from bot.rules.options import EXTRA_OPTIONS, SETTLEMENT_OPTIONS, Rules

MAX_LINE_BYTES = 1_000_000


class InputError(ValueError):
    """A line whose content is wrong; the message is the one clear sentence."""


def rules_from(obj: dict[str, Any], players: int) -> Rules:
    if "preset" not in obj:
        raise InputError("the field preset is required (classic or extended)")
    options = obj.get("options") or {}
    if not isinstance(options, dict):
        raise InputError("options must be an object")
    try:
        return make_rules(
            obj["preset"], players, options, allowed=SETTLEMENT_OPTIONS + EXTRA_OPTIONS
        )
    except OptionError as e:
        raise InputError(str(e)) from None


def handle_lines(
    lines: Iterable[str], handler: Callable[[dict[str, Any]], dict[str, Any]], out: IO[str]
) -> int:
    status = 0
    for raw in lines:
        if not raw.strip():
            continue
        try:
            if len(raw) > MAX_LINE_BYTES:
                raise InputError("the line is too long")
            try:
                obj = json.loads(raw)
            except json.JSONDecodeError:
                raise InputError("the line is not valid JSON") from None
            if not isinstance(obj, dict):
                raise InputError("each line must be a JSON object")
            result = {"ok": True, **handler(obj)}
        except (InputError, CardError, OptionError) as e:
            result = {"ok": False, "error": str(e)}
        except ValueError as e:  # rules-level refusals (e.g. SettlementError)
            result = {"ok": False, "error": str(e)}
        if not result["ok"]:
            status = 2
        out.write(json.dumps(result, ensure_ascii=False) + "\n")
        out.flush()
    return status


def main_loop(handler: Callable[[dict[str, Any]], dict[str, Any]]) -> int:
    return handle_lines(sys.stdin, handler, sys.stdout)
