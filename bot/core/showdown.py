"""A round's showdown (比牌) as the table keeps it: the settlement (the
judge's JSON object, docs/judge.md), the order each lane is revealed in and
the declared specials (报道), as typed records.

``Settlement.from_json`` / ``to_json`` read and write exactly the judge's
object; ``Showdown.from_json`` / ``to_json`` exactly the round's ``result``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.rules.settlement_types import EscapePayment, PairPart, PartKind, escape_delta

from .state import LANE_NAMES

SPECIALS_STEP = "specials"  # the showdown step that shows the declared specials


@dataclass(frozen=True, slots=True)
class LaneScore:
    """One lane of one player: its category's slug and what it is worth."""

    category: str
    points: int

    def to_json(self) -> dict[str, object]:
        return {"category": self.category, "points": self.points}


@dataclass(frozen=True, slots=True)
class PlayerScore:
    """One player's line of a settlement: a declared special (报道) or the
    three lanes head first, and the round's total."""

    id: str
    special: str | None
    lanes: tuple[LaneScore, ...] | None  # None for a declared special
    total: int

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> PlayerScore:
        lanes = d["lanes"]
        return cls(
            id=d["id"],
            special=d["special"],
            lanes=None
            if lanes is None
            else tuple(LaneScore(x["category"], x["points"]) for x in lanes),
            total=d["total"],
        )

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "special": self.special,
            "lanes": None if self.lanes is None else [x.to_json() for x in self.lanes],
            "total": self.total,
        }


@dataclass(frozen=True, slots=True)
class PairScore:
    """Two players compared: each lane's sign from ``a``'s side (None when a
    special decided it), who scooped (打枪) and ``a``'s score."""

    a: str
    b: str
    lanes: tuple[int, ...] | None
    scoop: str | None
    score: int
    # what the score is made of, summing to it (empty in a round stored
    # before the parts were kept: then only the score is shown)
    parts: tuple[PairPart, ...] = ()

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> PairScore:
        lanes = d["lanes"]
        parts = tuple(PairPart.from_json(x) for x in d.get("parts") or ())
        return cls(
            d["a"], d["b"], None if lanes is None else tuple(lanes), d["scoop"], d["score"], parts
        )

    def to_json(self) -> dict[str, object]:
        d: dict[str, object] = {
            "a": self.a,
            "b": self.b,
            "lanes": None if self.lanes is None else list(self.lanes),
            "scoop": self.scoop,
            "score": self.score,
        }
        if self.parts:  # a pair always has a part; none: stored before them
            d["parts"] = [x.to_json() for x in self.parts]
        return d

    def side(self, key: str) -> int:
        """The sign that turns a's view to player ``key``'s."""
        return 1 if key == self.a else -1

    def opponent(self, key: str) -> str:
        return self.b if key == self.a else self.a


@dataclass(frozen=True, slots=True)
class Settlement:
    """A round's settlement (结算): every player, every pair, the home run
    (全垒打) and each player's total."""

    players: tuple[PlayerScore, ...]
    pairs: tuple[PairScore, ...]
    home_run: str | None
    totals: Mapping[str, int]
    # the escape penalty's payments (None: a round stored before they were kept)
    escape: tuple[EscapePayment, ...] | None = ()

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Settlement:
        return cls(
            players=tuple(PlayerScore.from_json(p) for p in d["players"]),
            pairs=tuple(PairScore.from_json(q) for q in d["pairs"]),
            home_run=d.get("home_run"),
            totals=dict(d["totals"]),
            escape=None
            if "escape" not in d
            else tuple(EscapePayment.from_json(e) for e in d["escape"]),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "players": [p.to_json() for p in self.players],
            "pairs": [q.to_json() for q in self.pairs],
            "home_run": self.home_run,
            **({} if self.escape is None else {"escape": [e.to_json() for e in self.escape]}),
            "totals": dict(self.totals),
        }

    def pairs_of(self, key: str) -> tuple[PairScore, ...]:
        """The pairs player ``key`` played, in order."""
        return tuple(q for q in self.pairs if key in (q.a, q.b))

    def escape_delta(self, key: str) -> int:
        """What the escape payments add to player ``key``'s total."""
        return escape_delta(self.escape or (), key)

    def player(self, key: str) -> PlayerScore:
        return next(p for p in self.players if p.id == key)

    def by_id(self) -> dict[str, PlayerScore]:
        return {p.id: p for p in self.players}


@dataclass(frozen=True, slots=True)
class Showdown:
    """A round's result, fixed when the showdown begins: the settlement, each
    lane's reveal order (weakest first, declared specials left out), the
    declared specials (weakest first) and the steps shown one by one."""

    settlement: Settlement
    reveal: Mapping[str, tuple[str, ...]]  # lane name -> player keys
    specials: tuple[str, ...]
    steps: tuple[str, ...]  # "head", "middle", "tail" and maybe "specials"

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Showdown:
        return cls(
            settlement=Settlement.from_json(d["settlement"]),
            reveal={lane: tuple(keys) for lane, keys in d["reveal"].items()},
            specials=tuple(d["specials"]),
            steps=tuple(d["steps"]),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "settlement": self.settlement.to_json(),
            "reveal": {lane: list(keys) for lane, keys in self.reveal.items()},
            "specials": list(self.specials),
            "steps": list(self.steps),
        }


def revealed_steps(steps: tuple[str, ...] | list[str], upto: int) -> frozenset[str]:
    """The showdown steps shown once step ``upto`` (0-based) is on the table."""
    return frozenset(steps[: max(0, upto + 1)]) if upto >= 0 else frozenset()


__all__ = [
    "LANE_NAMES",
    "EscapePayment",
    "PairPart",
    "PartKind",
    "SPECIALS_STEP",
    "LaneScore",
    "PairScore",
    "PlayerScore",
    "Settlement",
    "Showdown",
    "revealed_steps",
]
