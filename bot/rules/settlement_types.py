"""Inputs and outputs of settlement (比牌与计分), docs/rules.md §4."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
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


class PartKind(StrEnum):
    """What one written part of a pair's score is (docs/rules.md §4)."""

    LANE = "lane"  # a lane won (its winner's points) or tied (0)
    SCOOP = "scoop"  # 打枪: the lanes' sum once more when doubled
    HOME_RUN = "home_run"  # 全垒打: the pair's score so far once more
    SPECIAL = "special"  # 报道: a special's points (or a tie of specials)
    SPECIAL_SWEEP = "special_sweep"  # extended: a special that beat everyone, doubled
    BANKER_CAP = "banker_cap"  # banker mode: what the ±7 cap takes off


@dataclass(frozen=True, slots=True)
class PairPart:
    """One part of a pair's score, so anyone can add it up: the parts of a
    pair sum exactly to its score. ``points`` are from a's side (negative:
    b gains them); ``winner`` is whose part it is (None: a tied lane, tied
    specials, the cap)."""

    kind: PartKind
    points: int
    winner: str | None = None
    lane: str | None = None  # "head", "middle", "tail" for a lane
    category: str | None = None  # the winning lane's category slug
    special: str | None = None  # the winner's special (SPECIAL)
    factor: int = 1  # a doubling's factor (a scoop without scoop_double: 1)

    def to_json(self) -> dict[str, object]:
        d: dict[str, object] = {"kind": self.kind.value}
        if self.lane is not None:
            d["lane"] = self.lane
        d["winner"] = self.winner
        if self.category is not None:
            d["category"] = self.category
        if self.special is not None:
            d["special"] = self.special
        if self.kind in _DOUBLINGS:
            d["factor"] = self.factor
        d["points"] = self.points
        return d

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> PairPart:
        return cls(
            kind=PartKind(d["kind"]),
            points=int(d["points"]),
            winner=d.get("winner"),
            lane=d.get("lane"),
            category=d.get("category"),
            special=d.get("special"),
            factor=int(d.get("factor", 1)),
        )


_DOUBLINGS = frozenset({PartKind.SCOOP, PartKind.HOME_RUN, PartKind.SPECIAL_SWEEP})


@dataclass(frozen=True, slots=True)
class EscapePayment:
    """The escape penalty (逃跑) as payments: the leaver ``payer`` pays a
    losing player's loss (``payee``), or its own penalty (``payee`` None,
    the points leave the table)."""

    payer: str
    payee: str | None
    points: int

    def to_json(self) -> dict[str, object]:
        return {"from": self.payer, "to": self.payee, "points": self.points}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> EscapePayment:
        return cls(d["from"], d["to"], int(d["points"]))


def escape_delta(payments: tuple[EscapePayment, ...], pid: str) -> int:
    """What the escape payments add to player ``pid``'s total."""
    return sum(e.points for e in payments if e.payee == pid) - sum(
        e.points for e in payments if e.payer == pid
    )


@dataclass(frozen=True, slots=True)
class PairResult:
    a: str
    b: str
    lanes: tuple[int, int, int] | None  # +1/-1/0 from a's view; None with a special
    scoop: str | None  # id of the scooping player
    score: int  # a's result against b after every multiplier and cap
    parts: tuple[PairPart, ...] = ()  # what ``score`` is made of, in order; sums to it


@dataclass(frozen=True, slots=True)
class SettlementResult:
    players: tuple[PlayerResult, ...]
    pairs: tuple[PairResult, ...]
    home_run: str | None
    totals: dict[str, int]  # after the escape penalty
    escape: tuple[EscapePayment, ...] = ()  # the escape penalty, payment by payment

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
                    "parts": [x.to_json() for x in q.parts],
                }
                for q in self.pairs
            ],
            "home_run": self.home_run,
            "escape": [e.to_json() for e in self.escape],
            "totals": dict(self.totals),
        }
