"""What a replay, the judge line and the arranging page's showdown need of
a round, kept with its settlement (the record's ``detail["round"]``): the
seats, names, hands as played, the cards dealt, the declared specials, the
rules, the banker, who escaped, and the match round it was.

``ReplayDetail.from_json`` / ``to_json`` read and write exactly the stored
object (``ReplayDetail.of`` builds it from a room).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .review import LaneTokens

if TYPE_CHECKING:
    from .room import Room


@dataclass(frozen=True, slots=True)
class MatchRound:
    """The match a round belonged to: match ``seq``, its round ``no`` of ``of``."""

    seq: int
    no: int
    of: int

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> MatchRound:
        return cls(seq=d["seq"], no=d["no"], of=d["of"])

    def to_json(self) -> dict[str, int]:
        return {"seq": self.seq, "no": self.no, "of": self.of}


@dataclass(frozen=True, slots=True)
class ReplayDetail:
    seats: tuple[str, ...]
    names: Mapping[str, str]  # by key
    hands: Mapping[str, LaneTokens]  # by key: each lane's card tokens as played
    cards: Mapping[str, tuple[str, ...]]  # by key: the cards dealt
    declared: Mapping[str, str | None]  # by key: the special declared (报道)
    rules: Mapping[str, Any]  # the Rules it was dealt under, as stored
    banker: str | None
    escaped: tuple[str, ...]
    match: MatchRound | None

    @classmethod
    def of(cls, room: Room) -> ReplayDetail:
        """What a replay and the judge line need of the room's round, kept
        with its settlement: the hands as played, the rules, seats, names,
        banker and escapes, and the match round it was."""
        rnd = room.rnd
        m = room.match
        return cls(
            seats=tuple(rnd.seats),
            names={k: room.name_of(k) for k in rnd.seats},
            hands={
                k: {lane: tuple(c) for lane, c in rnd.hands[k].arrangement_tokens().items()}
                for k in rnd.seats
            },
            cards={k: tuple(rnd.hands[k].cards) for k in rnd.seats},
            declared={k: rnd.hands[k].declared for k in rnd.seats},
            rules=rnd.rules_json(),
            banker=rnd.banker,
            escaped=tuple(rnd.escaped),
            match=None if m is None else MatchRound(seq=m.seq, no=rnd.no - m.start, of=m.rounds),
        )

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> ReplayDetail:
        m = d.get("match")
        return cls(
            seats=tuple(d["seats"]),
            names=dict(d["names"]),
            hands={
                k: {lane: tuple(tokens) for lane, tokens in lanes.items()}
                for k, lanes in d["hands"].items()
            },
            cards={k: tuple(c) for k, c in d["cards"].items()},
            declared=dict(d["declared"]),
            rules=dict(d["rules"]),
            banker=d["banker"],
            escaped=tuple(d["escaped"]),
            match=MatchRound.from_json(m) if m else None,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "seats": list(self.seats),
            "names": dict(self.names),
            "hands": {
                k: {lane: list(tokens) for lane, tokens in lanes.items()}
                for k, lanes in self.hands.items()
            },
            "cards": {k: list(c) for k, c in self.cards.items()},
            "declared": dict(self.declared),
            "rules": dict(self.rules),
            "banker": self.banker,
            "escaped": list(self.escaped),
            "match": None if self.match is None else self.match.to_json(),
        }
