"""``thirteen arrange``: suggest arrangements, JSON Lines in and out (docs/judge.md).

Input line: ``{"cards": [13 tokens, 16 for 多三张], "preset": "classic",
"options": {...}, "players": 4, "top": 3}``. Output line: ``{"ok": true,
"special": null | {"name", "points"}, "suggestions": [{"head", "middle",
"tail", "lanes", "score"}]}``, or ``{"ok": false, "error": "..."}``. Exit
status 0 when every line was ok, else 2.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import IO, Any

from bot.rules import CardError, OptionError, Rules, make_rules, parse_card
from bot.rules.cards import check_deck

from . import configure_solver, settings_or_exit
from .jsonl import InputError, handle_lines, main_loop, shown

FIELDS = ("cards", "preset", "options", "players", "top")

DESCRIPTION = """Suggest arrangements of one hand of Thirteen Water: one JSON object per
input line (the cards, the preset, the options, the number of players and
how many suggestions), one JSON object per output line with the special hand
the cards make, if any, and the best arrangements, best first, each with its
lane categories and its expected points. A line that cannot be answered gets
{"ok": false, "error": "..."} and the rest still run; the exit status is 0
when every line was ok, else 2. The format is in docs/judge.md of the source
tree."""

EPILOG = """example:
  echo '{"cards": ["As","Ah","Kd","Kc","Qs","Js","Ts","9h","8h","7c","5d","4d","2s"], \
"preset": "classic", "top": 2}' | thirteen arrange"""


def _int_field(obj: dict[str, Any], name: str, default: int, low: int, high: int) -> int:
    v = obj.get(name, default)
    if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
        raise InputError(f"{name} must be a whole number from {low} to {high}, not {shown(v)}")
    return v


def _deck(rules: Rules) -> str:
    parts = [rules.preset.value]
    if rules.jokers:
        parts.append(f"{rules.jokers} joker{'s' if rules.jokers > 1 else ''}")
    if rules.added_suit is not None:
        parts.append("the added suit")
    if rules.wild_rank is not None:
        parts.append("a wild rank")
    if rules.extra_three:
        parts.append("16 cards")
    return ", ".join(parts)


@contextmanager
def building_note(rules: Rules) -> Iterator[None]:
    """One line on stderr (stdout is the JSON Lines) while the first
    suggestion of a deck setting builds the solver's opponent pool."""
    from bot.solver import config

    where = config.cache_dir()
    kept = f"then kept in {where}" if where is not None else "THIRTEEN_SOLVER_CACHE=off: not kept"
    print(
        f"thirteen arrange: building the solver's opponent pool for {_deck(rules)} "
        f"(the first time this deck setting is used: about half a minute; {kept}) ...",
        end="",
        file=sys.stderr,
        flush=True,
    )
    started = time.monotonic()
    try:
        yield
    except BaseException:
        print(" stopped", file=sys.stderr, flush=True)
        raise
    print(f" done in {time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)


def answer(obj: dict[str, Any]) -> dict[str, Any]:
    """The output object of one input object (raises InputError)."""
    from bot.solver import built, suggest  # imported here so `--help` stays instant

    unknown = sorted(set(obj) - set(FIELDS), key=str)
    if unknown:
        raise InputError(f"unknown field {shown(unknown[0])}; the fields are {', '.join(FIELDS)}")
    if "preset" not in obj:
        raise InputError("preset is required (classic or extended)")
    options = obj.get("options") or {}
    if not isinstance(options, dict):
        raise InputError("options must be a JSON object")
    players = _int_field(obj, "players", 4, 2, 5)
    top = _int_field(obj, "top", 3, 1, 20)
    try:
        rules = make_rules(obj["preset"], players, options)
    except OptionError as e:
        raise InputError(str(e)) from None
    if "cards" not in obj:
        raise InputError("cards is required: the hand's card tokens")
    tokens = obj["cards"]
    if not isinstance(tokens, list):
        raise InputError(f"cards must be a list of card tokens, not {shown(tokens)}")
    try:
        cards = [parse_card(t) for t in tokens]
    except CardError as e:
        raise InputError(str(e)) from None
    want = rules.cards_per_player
    if len(cards) != want:
        raise InputError(f"a hand has {want} cards at this table, but {len(cards)} were given")
    problem = check_deck(cards, rules.deck)
    if problem:
        raise InputError(f"these cards cannot come from one deck: {problem}")
    if built(rules):
        result = suggest(cards, rules, players=players, top=top)
    else:
        with building_note(rules):
            result = suggest(cards, rules, players=players, top=top)
    special = None
    if result.special is not None:
        special = {"name": result.special.hand.value, "points": result.special.points}
    return {
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


def run(lines: Iterable[bytes | str], out: IO[str] | IO[bytes]) -> int:
    """Answer every line on ``out``; the exit status."""
    return handle_lines(lines, answer, out)


def _setup() -> None:
    configure_solver(settings_or_exit())  # THIRTEEN_SOLVER_MODEL_HANDS, from .env too


def main(argv: Sequence[str] | None = None) -> int:
    return main_loop(answer, argv, "thirteen arrange", DESCRIPTION, EPILOG, _setup)
