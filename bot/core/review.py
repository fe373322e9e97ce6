"""One person's review (复盘) of a paid round, as the table keeps it in the
round and with the settlement: their arrangement (or declared special), the
solver's best for the same cards, the expected points of both against the
table, what each actually scored and the points given up.

``SeatReview.from_json`` / ``to_json`` read and write exactly the stored
object (``bot.table.review`` computes it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

LaneTokens = Mapping[str, tuple[str, ...]]  # lane name -> card tokens


def _lanes(d: Mapping[str, Any]) -> LaneTokens:
    return {lane: tuple(tokens) for lane, tokens in d.items()}


@dataclass(frozen=True, slots=True)
class SeatReview:
    mine: LaneTokens  # the arrangement played
    declared: str | None  # the special declared, if one was
    auto: bool  # arranged by the table
    mine_ev: float  # its expected points against this table
    best: LaneTokens  # the solver's best split of the same cards
    best_declare: str | None  # or the special it would declare
    best_ev: float
    actual: int  # the points really scored
    best_actual: int  # what the best would have scored against the hands played
    given_up: float  # best_ev - mine_ev

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> SeatReview:
        return cls(
            mine=_lanes(d["mine"]),
            # (a settlement record may hold a review written before these three)
            declared=d.get("declared"),
            auto=bool(d.get("auto")),
            mine_ev=d["mine_ev"],
            best=_lanes(d["best"]),
            best_declare=d.get("best_declare"),
            best_ev=d["best_ev"],
            actual=d["actual"],
            best_actual=d["best_actual"],
            given_up=d["given_up"],
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "mine": {lane: list(tokens) for lane, tokens in self.mine.items()},
            "declared": self.declared,
            "auto": self.auto,
            "mine_ev": self.mine_ev,
            "best": {lane: list(tokens) for lane, tokens in self.best.items()},
            "best_declare": self.best_declare,
            "best_ev": self.best_ev,
            "actual": self.actual,
            "best_actual": self.best_actual,
            "given_up": self.given_up,
        }


@dataclass(frozen=True, slots=True)
class SkillFigures:
    """One person's figures over their reviewed rounds (/stats, the best
    arrangers' board): expected points given up a round against the solver's
    best (skill), the best split's expected points (luck: how strong the
    cards dealt were against the table), fouls and specials per 100 rounds."""

    key: str
    name: str
    rounds: int
    given_up: float
    luck: float
    fouls_100: float
    specials_100: float
