"""A round (一局) as the table keeps it, typed: the deal (seats, dice, deck
and its salted hash), the rules it was dealt under, each seat's hand, the
arranging deadline, who escaped or is leaving, and the showdown's steps.

``Round.from_json`` / ``to_json`` read and write exactly a round as stored.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Final

from bot.rules.options import DealStyle, Rules, make_rules

from .hand import Hand
from .review import SeatReview
from .showdown import Showdown

# The keys a stored round always has; "review" is added as it is paid, any
# other key is kept as read.
_KEYS: Final = frozenset(
    (
        "no",
        "seats",
        "dice",
        "first_seat",
        "deal_style",
        "hash",
        "deck",
        "salt",
        "wild_rank",
        "rules",
        "banker",
        "hands",
        "deadline",
        "remind_at",
        "reminded",
        "escaped",
        "leaving",
        "step",
        "next_at",
        "result",
        "settled",
        "review",
        "left_shown",
    )
)


@lru_cache(maxsize=256)
def _rules_cached(key: str) -> Rules:
    d = json.loads(key)
    preset, players = d.pop("preset"), d.pop("players")
    return make_rules(preset, players, d)


def rules_of(rules: Mapping[str, Any]) -> Rules:
    """The Rules of a stored round's ``rules`` (a preset, the players and the
    overrides), built once per distinct value."""
    return _rules_cached(json.dumps(rules, sort_keys=True))


@dataclass(slots=True)
class Round:
    no: int  # the room's round number
    seats: tuple[str, ...]  # player keys in seat order (座位随机)
    dice: tuple[int, ...]
    first_seat: int  # the seat dealt first
    deal_style: DealStyle  # 一张一发 or 三张一发
    hash: str  # sha-256 of the deck and salt, published at the deal
    deck: tuple[str, ...]
    salt: str
    wild_rank: str | None  # the rank drawn for 百变, when on
    rules: Rules  # the Rules it was dealt under
    banker: str | None  # the banker's key (庄家 mode)
    hands: dict[str, Hand]
    deadline: float  # arranging ends (epoch seconds)
    remind_at: float | None
    reminded: bool = False
    escaped: list[str] = field(default_factory=list)  # left after the deal
    leaving: list[str] = field(default_factory=list)  # left during the showdown
    step: int = -1  # the showdown step shown (-1: before the showdown)
    next_at: float | None = None  # when the next showdown step is due
    result: Showdown | None = None
    settled: bool = False  # paid
    review: dict[str, SeatReview] | None = None  # each person's 复盘, once paid
    # The seconds left the hands last showed by a step of the countdown (the
    # deal's arranging time, then each redraw's step); None: not counted
    # down (a room of a platform whose markup counts down by itself).
    left_shown: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # keys of a newer format
    # The rules as stored, JSON text: written back as they were read (a round
    # stored by older code may lack an option Rules has now); None until
    # first written, then ``rules.to_dict()``.
    stored_rules: str | None = field(default=None, repr=False, compare=False)

    def game_rules(self) -> Rules:
        """The Rules this round was dealt under."""
        return self.rules

    def rules_json(self) -> dict[str, Any]:
        """The rules as stored: the preset, the players and every option."""
        if self.stored_rules is None:
            self.stored_rules = json.dumps(self.rules.to_dict())
        copied: dict[str, Any] = json.loads(self.stored_rules)
        return copied

    @property
    def showdown(self) -> Showdown:
        """The result (only once the showdown has begun)."""
        if self.result is None:
            raise ValueError(f"round {self.no} has no showdown yet")
        return self.result

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Round:
        result = d["result"]
        review = d.get("review")
        stored_rules = json.dumps(d["rules"])
        return cls(
            no=d["no"],
            seats=tuple(d["seats"]),
            dice=tuple(d["dice"]),
            first_seat=d["first_seat"],
            deal_style=DealStyle(d["deal_style"]),
            hash=d["hash"],
            deck=tuple(d["deck"]),
            salt=d["salt"],
            wild_rank=d["wild_rank"],
            rules=_rules_cached(stored_rules),
            banker=d["banker"],
            hands={k: Hand.from_json(h) for k, h in d["hands"].items()},
            deadline=d["deadline"],
            remind_at=d["remind_at"],
            reminded=d["reminded"],
            escaped=list(d["escaped"]),
            leaving=list(d["leaving"]),
            step=d["step"],
            next_at=d["next_at"],
            result=None if result is None else Showdown.from_json(result),
            settled=d["settled"],
            review=None
            if review is None
            else {k: SeatReview.from_json(v) for k, v in review.items()},
            left_shown=d.get("left_shown"),
            extra={k: v for k, v in d.items() if k not in _KEYS},
            stored_rules=stored_rules,
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "no": self.no,
            "seats": list(self.seats),
            "dice": list(self.dice),
            "first_seat": self.first_seat,
            "deal_style": self.deal_style.value,
            "hash": self.hash,
            "deck": list(self.deck),
            "salt": self.salt,
            "wild_rank": self.wild_rank,
            "rules": self.rules_json(),
            "banker": self.banker,
            "hands": {k: h.to_json() for k, h in self.hands.items()},
            "deadline": self.deadline,
            "remind_at": self.remind_at,
            "reminded": self.reminded,
            "escaped": list(self.escaped),
            "leaving": list(self.leaving),
            "step": self.step,
            "next_at": self.next_at,
            "result": None if self.result is None else self.result.to_json(),
            "settled": self.settled,
        }
        if self.review is not None:
            out["review"] = {k: v.to_json() for k, v in self.review.items()}
        if self.left_shown is not None:
            out["left_shown"] = self.left_shown
        out.update(self.extra)
        return out
