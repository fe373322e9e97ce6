"""The 大结算 of a match as the table derives it and the views and pictures
read it: the ranking with each player's counts and best lane, and the
biggest single round. Built by ``bot.table.final.summary`` from the stored
settlements; never stored itself."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class BestLane:
    """A player's strongest lane of the match: which lane, its category's
    slug, what it was worth and the match round it was played in."""

    lane: str  # "head", "middle" or "tail"
    category: str
    points: int
    round: int


@dataclass(frozen=True, slots=True)
class Biggest:
    """The biggest single round of the match: who scored it, and how much."""

    key: str
    name: str
    points: int
    round: int


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """One player's line of the 大结算."""

    key: str
    name: str
    total: int
    rounds: int
    wins: int
    scoops: int
    home_runs: int
    specials: int
    fouls: int
    best_lane: BestLane | None
    rank: int  # 1 + the players with a higher total


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """The 大结算 of match ``seq``: ``played`` of its ``rounds`` rounds
    (``early``: ended before the last), the players ranked, and the
    biggest round (None unless someone won points in one)."""

    seq: int
    rounds: int
    played: int
    early: bool
    players: tuple[PlayerSummary, ...]
    biggest: Biggest | None
