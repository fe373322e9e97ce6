"""``python -m bot arrange``: suggest arrangements, JSON Lines in and out (JUDGE.md).

Input line: ``{"cards": [13 tokens, 16 for 多三张], "preset": "classic",
"options": {...}, "players": 4, "top": 3}``. Output line: ``{"ok": true,
"special": null | {"name", "points"}, "suggestions": [{"head", "middle",
"tail", "lanes", "score"}]}``, or ``{"ok": false, "error": "..."}``. Exit
status 0 when every line was ok, else 2.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import Any, TextIO

from bot.rules import CardError, OptionError, make_rules, parse_card
from bot.rules.cards import check_deck

FIELDS = ("cards", "preset", "options", "players", "top")


class LineError(ValueError):
    """A line that cannot be answered; the message is the reply."""


def _int_field(obj: dict[str, Any], name: str, default: int, low: int, high: int) -> int:
    v = obj.get(name, default)
    if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
        raise LineError(f"{name} must be a whole number from {low} to {high}, not {v!r}")
    return v


def answer(obj: Any) -> dict[str, Any]:
    """The output object of one input object (raises LineError)."""
    from bot.solver import suggest  # imported here so `--help` stays instant

    if not isinstance(obj, dict):
        raise LineError("each line must be a JSON object")
    unknown = sorted(set(obj) - set(FIELDS))
    if unknown:
        raise LineError(f"unknown field {unknown[0]!r}; the fields are {', '.join(FIELDS)}")
    if "preset" not in obj:
        raise LineError("preset is required (classic or extended)")
    options = obj.get("options") or {}
    if not isinstance(options, dict):
        raise LineError("options must be a JSON object")
    players = _int_field(obj, "players", 4, 2, 5)
    top = _int_field(obj, "top", 3, 1, 20)
    try:
        rules = make_rules(obj["preset"], players, options)
    except OptionError as e:
        raise LineError(str(e)) from None
    tokens = obj.get("cards")
    if not isinstance(tokens, list):
        raise LineError("cards must be a list of card tokens")
    try:
        cards = [parse_card(t) for t in tokens]
    except CardError as e:
        raise LineError(str(e)) from None
    want = rules.cards_per_player
    if len(cards) != want:
        raise LineError(f"a hand has {want} cards at this table, but {len(cards)} were given")
    problem = check_deck(cards, rules.deck)
    if problem:
        raise LineError(f"these cards cannot come from one deck: {problem}")
    result = suggest(cards, rules, players=players, top=top)
    special = None
    if result.special is not None:
        special = {"name": result.special.hand.value, "points": result.special.points}
    return {
        "ok": True,
        "special": special,
        "suggestions": [
            {
                **s.arrangement.to_tokens(),
                "lanes": [c.slug for c in s.lanes],
                "score": round(s.score, 2),
            }
            for s in result.items
        ],
    }


def run(lines: Iterable[str], out: TextIO) -> int:
    all_ok = True
    for line in lines:
        if not line.strip():
            continue
        try:
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as e:
                raise LineError(
                    f"the line is not valid JSON ({e.msg} at column {e.colno})"
                ) from None
            reply = answer(obj)
        except ValueError as e:  # LineError, or a hand the solver refuses
            all_ok = False
            reply = {"ok": False, "error": str(e)}
        out.write(json.dumps(reply, ensure_ascii=False) + "\n")
        out.flush()
    return 0 if all_ok else 2


def main(argv: list[str] | None = None) -> int:
    args = argv or []
    if args and args[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    return run(sys.stdin, sys.stdout)
