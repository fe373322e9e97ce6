"""Typed commands of ``thirteen play``: what one line typed at the
terminal asks for (card numbers, one verb, information, or a problem to
show), checked as a whole before anything is sent to the table: a line that
places cards either places all of them or none.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any

from bot.table.actions import Verb

from .screen import clean

_NUMBER = re.compile(r"[+-]?\d+", re.ASCII)


@dataclass(frozen=True, slots=True)
class Typed:
    """What one typed line asks for: card numbers, one verb, information, or
    a problem to show (a catalog key and its values)."""

    picks: tuple[int, ...] = ()
    verb: Verb | None = None
    arg: str | None = None
    info: str | None = None  # help | rules | show | verify | quit
    lane: int | None = None  # aim at this lane (0 head, 1 middle, 2 tail) before the picks
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
# The lane the next cards go to (头道 / 中道 / 尾道): most players see the tail
# first, so it can be placed first; cards typed after the word go there.
LANES = {
    "head": 0,
    "hd": 0,
    "头": 0,
    "頭": 0,
    "middle": 1,
    "mid": 1,
    "m": 1,
    "中": 1,
    "tail": 2,
    "t": 2,
    "尾": 2,
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


def _words(line: str) -> list[str]:
    """A line's words: split at spaces and commas (a Chinese 、 too)."""
    return clean(line).replace(",", " ").replace("、", " ").split()


def parse(line: str, cards: int, suggestions: int) -> Typed | None:
    """Read one typed line against a hand of ``cards`` cards and the
    ``suggestions`` on offer (0: none yet; ``a N`` then asks for them
    first); None for an empty line."""
    words = _words(line)
    if not words:
        return None
    head, rest = words[0].lower(), words[1:]
    if _NUMBER.fullmatch(head):
        return _picks(words, cards)
    if head in VERIFY:
        return _verify(words)
    if head in LANES:
        typed = _picks(rest, cards) if rest else Typed()
        return typed if typed.problem else dataclasses.replace(typed, lane=LANES[head])
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
    return Typed(problem=("cli.unknown", {"word": shown(words[0])}))


def parse_between(line: str) -> Typed | None:
    """Read a line typed between rounds: None (an empty line) goes on."""
    words = _words(line)
    if not words:
        return None
    head = words[0].lower()
    if head in VERIFY:
        return _verify(words)
    if _NUMBER.fullmatch(head):  # card numbers: there is no hand between rounds
        return Typed(problem=("cli.between_cards", {}))
    if INFO.get(head) in ("help", "rules", "show", "quit"):
        if len(words) > 1:
            return Typed(problem=("cli.no_args", {"word": head}))
        return Typed(info=INFO[head])
    return Typed(problem=("cli.unknown", {"word": shown(words[0])}))


def _verify(words: list[str]) -> Typed:
    if len(words) == 1:
        return Typed(info="verify")
    if len(words) == 2 and _small(words[1]) is not None:
        return Typed(info="verify", arg=str(_small(words[1])))
    return Typed(problem=("cli.verify_how", {}))


def shown(word: str) -> str:
    """A typed word as an answer repeats it: at most 20 characters."""
    return word if len(word) <= 20 else word[:19] + "…"


def _picks(words: list[str], cards: int) -> Typed:
    numbers: list[int] = []
    for w in words:
        # Never int() of a long word: Python refuses 4,301 digits and more.
        if len(w) > 5 or not _NUMBER.fullmatch(w) or not 1 <= int(w) <= cards:
            return Typed(problem=("cli.card_range", {"word": shown(w), "count": cards}))
        if int(w) in numbers:
            return Typed(problem=("cli.card_twice", {"number": int(w)}))
        numbers.append(int(w))
    return Typed(picks=tuple(numbers))
