"""The showdown's moments: a scoop (打枪), a home run (全垒打), a declared
special (报道), each shown as a stamp on the showdown step that decides it.

A scoop needs all three lanes, so it (and a home run, a scoop of everyone)
is decided when the last lane (the tail) is turned up; a special when the
specials are. The showdown's text, its picture and the arranging page all
read the moments from here, so the three say the same thing at the same
step. Read from the settlement only: nothing is judged again.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from bot.rules.types import MomentKind

from .showdown import SPECIALS_STEP, PairScore, Settlement
from .state import LANE_NAMES

SCOOP_STEP = LANE_NAMES[-1]  # a scoop is known once every lane is turned up


@dataclass(frozen=True, slots=True)
class Moment:
    """One moment: ``by`` scooped ``of`` (a scoop), scooped everyone (a
    home run) or declared ``special``; ``times`` is what the scoop did to
    the pair's score (2: doubled, 4: doubled again by a home run; 1 where
    the rules double nothing)."""

    kind: MomentKind
    by: str
    of: str | None = None
    times: int = 1
    special: str | None = None

    @property
    def step(self) -> str:
        return SPECIALS_STEP if self.kind is MomentKind.SPECIAL else SCOOP_STEP


def scoop_times(settlement: Settlement, pair: PairScore) -> int:
    """The pair's score as a multiple of the lane points the scooper won
    (1 where that is not a whole multiple, or nothing was won)."""
    if pair.lanes is None or pair.scoop is None:
        return 1
    sign = 1 if pair.scoop == pair.a else -1
    lanes = settlement.player(pair.scoop).lanes or ()
    base = sum(lane.points for lane, s in zip(lanes, pair.lanes, strict=False) if s * sign > 0)
    score = abs(pair.score)
    return score // base if base > 0 and score % base == 0 and score >= base else 1


def moments(settlement: Settlement, revealed: Collection[str] | None = None) -> tuple[Moment, ...]:
    """The round's moments decided by the steps ``revealed`` (every step
    when None): the home run first, then the other scoops in pair order
    (the home run's own are in it), then the specials in seat order."""
    out: list[Moment] = []
    if revealed is None or SCOOP_STEP in revealed:
        home = settlement.home_run
        runs = [scoop_times(settlement, q) for q in settlement.pairs if q.scoop == home]
        if home:
            out.append(Moment(MomentKind.HOME_RUN, home, times=max(runs, default=1)))
        for q in settlement.pairs:
            if q.scoop is None or q.scoop == home:
                continue
            of = q.b if q.scoop == q.a else q.a
            out.append(Moment(MomentKind.SCOOP, q.scoop, of, scoop_times(settlement, q)))
    if revealed is None or SPECIALS_STEP in revealed:
        out += [
            Moment(MomentKind.SPECIAL, p.id, special=p.special)
            for p in settlement.players
            if p.special
        ]
    return tuple(out)


__all__ = ["SCOOP_STEP", "Moment", "MomentKind", "moments", "scoop_times"]
