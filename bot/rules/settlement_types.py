"""Inputs and outputs of settlement (比牌与计分), docs/rules.md §4."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .types import Arrangement, Category, SpecialHand


@dataclass(frozen=True, slots=True)
class SpecialResult:
    """A special hand (报道) a 13-card hand makes under a table's rules."""

    hand: SpecialHand
    points: int
    natural: bool  # no joker, no wild card standing for another card
    # The 3-5-5 split that shows it (always set; for three straights /
    # flushes / straight flushes it is a split with the property).
    arrangement: Arrangement | None = None


@dataclass(frozen=True, slots=True)
class PlayerHand:
    """One seat's hand at showdown: an arrangement, or a declared special."""

    id: str
    arrangement: Arrangement
    special: SpecialResult | None = None  # set only when the player declared


@dataclass(frozen=True, slots=True)
class LaneResult:
    category: Category
    points: int  # what this lane wins when it wins (docs/rules.md §4 table)


@dataclass(frozen=True, slots=True)
class PlayerResult:
    id: str
    special: SpecialHand | None
    lanes: tuple[LaneResult, LaneResult, LaneResult] | None  # None for a special
    total: int


@dataclass(frozen=True, slots=True)
class PairResult:
    a: str
    b: str
    lanes: tuple[int, int, int] | None  # +1/-1/0 from a's view; None with a special
    scoop: str | None  # id of the scooping player
    score: int  # a's result against b after every multiplier and cap


@dataclass(frozen=True, slots=True)
class Settlement:
    players: tuple[PlayerResult, ...]
    pairs: tuple[PairResult, ...]
    home_run: str | None
    totals: dict[str, int]  # after the escape penalty

    def to_json(self) -> dict[str, Any]:
        """The docs/judge.md output object (without "ok")."""
        return {
            "players": [
                {
                    "id": p.id,
                    "special": p.special.value if p.special else None,
                    "lanes": None
                    if p.lanes is None
                    else [{"category": lr.category.slug, "points": lr.points} for lr in p.lanes],
                    "total": p.total,
                }
                for p in self.players
            ],
            "pairs": [
                {
                    "a": q.a,
                    "b": q.b,
                    "lanes": list(q.lanes) if q.lanes is not None else None,
                    "scoop": q.scoop,
                    "score": q.score,
                }
                for q in self.pairs
            ],
            "home_run": self.home_run,
            "totals": dict(self.totals),
        }
