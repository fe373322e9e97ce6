"""The solver's answers a transition uses, worked out before the room is
locked and replayed under its lock (docs/architecture.md §3).

The solver's search (a suggestion, an AI seat's arrangement, an
auto-arrange) takes from milliseconds to seconds; under the room's lock
every other player's tap would wait for it. So the manager applies such a
transition twice: first to a snapshot of the room, outside the lock, in a
worker thread, with a ``Solved`` that computes and records each answer;
then, under the lock, to the room as it is now, with the same ``Solved``
replaying them. An answer is keyed by everything the solver is given (the
hand's cards, the round's rules, the table's seats, the banker), so it is
only ever used for the very hand it was computed for: a hand that changed
meanwhile (a new round, other cards) finds no answer, and the replay raises
``Unsolved`` (the manager lets go of the room and works it out again).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from bot.core.hand import Suggestion
from bot.core.room import Room
from bot.rules.cards import Card
from bot.rules.options import Rules
from bot.rules.types import Arrangement

from . import solving
from .effects import Effects

T = TypeVar("T")

# How many times the solver works on a fresh snapshot of a room that changed
# under it before what is still missing is worked out under the room's lock
# (a room that busy must still move on).
AHEAD_TRIES = 3


class Unsolved(Exception):
    """A transition replayed under the room's lock needed an answer of the
    solver that was not worked out before: the room changed meanwhile."""


def _rules_key(rules: Rules) -> str:
    # Rules holds a mapping (special_points), so it is keyed by its JSON.
    return json.dumps(rules.to_dict(), sort_keys=True)


def _cards_key(cards: Sequence[Card]) -> tuple[str, ...]:
    return tuple(c.token for c in cards)


class Solved:
    """The solver's answers of one action: computed and recorded
    (``compute``), or only replayed (a missing one raises ``Unsolved``)."""

    def __init__(self, *, compute: bool = True) -> None:
        self.compute = compute
        self._answers: dict[Hashable, object] = {}

    def replaying(self) -> Solved:
        """The same answers, replayed only: nothing is computed."""
        return self._with(compute=False)

    def computing(self) -> Solved:
        """The same answers, computing any that is missing."""
        return self._with(compute=True)

    def _with(self, *, compute: bool) -> Solved:
        other = Solved(compute=compute)
        other._answers = self._answers  # shared: what one computes the other replays
        return other

    def _answer(self, key: Hashable, work: Callable[[], T]) -> T:
        if key in self._answers:
            return self._answers[key]  # type: ignore[return-value]
        if not self.compute:
            raise Unsolved(key)
        value = work()
        self._answers[key] = value
        return value

    def suggestions(
        self,
        cards: Sequence[Card],
        rules: Rules,
        players: int,
        *,
        banker: bool,
        opponents: Sequence[str | None],
    ) -> list[Suggestion]:
        key = ("suggest", _cards_key(cards), _rules_key(rules), players, banker, tuple(opponents))
        found = self._answer(
            key,
            lambda: tuple(
                solving.suggestions(cards, rules, players, banker=banker, opponents=opponents)
            ),
        )
        return list(found)  # each hand its own list

    def auto_arrange(self, cards: Sequence[Card], rules: Rules) -> Arrangement:
        key = ("auto", _cards_key(cards), _rules_key(rules))
        return self._answer(key, lambda: solving.auto_arrange(cards, rules))

    def ai_arrange(
        self, cards: Sequence[Card], rules: Rules, level: str, opponents: Sequence[str | None]
    ) -> tuple[Arrangement, bool]:
        key = ("ai", _cards_key(cards), _rules_key(rules), level, tuple(opponents))
        return self._answer(key, lambda: solving.ai_arrange(cards, rules, level, opponents))


@dataclass(frozen=True, slots=True)
class Ahead:
    """A transition applied outside the room's lock to the room as stored
    at ``version``: stored as it is when the room is still at that version
    under the lock (a deal's cards stay the ones the AI seats arranged)."""

    version: int
    state: Room
    fx: Effects
