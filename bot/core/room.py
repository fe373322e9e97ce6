"""A room (房间) as the table runs it, typed: who sits at it (``Seat``), its
options, its phase, the running totals, the match (局数) and the round in
play (``bot.core.round``). Every layer above reads this; only the table
changes it.

A room is stored as JSON with its format's version under ``"v"``.
``Room.from_json`` reads a stored room of any version this code knows
(``upgrade`` brings an older one to ``STATE_VERSION`` step by step) and
``Room.to_json`` writes exactly today's format: for a room stored by today's
code, ``Room.from_json(x).to_json() == x``.

- ``"v"`` equal to ``STATE_VERSION``: read as it is.
- ``"v"`` absent: a room stored before the field existed. It is taken as
  version 0, the format of version 1 less the keys that may be missing
  from it; the upgrade fills those with the values a new room starts with.
- ``"v"`` above ``STATE_VERSION``: a room written by newer code. It is
  refused with ``RoomFormatError`` instead of being run (and rewritten) by
  code that does not know its format.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from bot.rules.options import DealStyle, RuleOverrides

from .round import Round
from .state import DEFAULT_TIMEZONE, LIVE_PHASES, Phase

STATE_VERSION: Final = 1

# The keys a stored room of today's format has; any other key is kept as read.
_KEYS: Final = frozenset(
    (
        "v",
        "platform",
        "chat_id",
        "owner",
        "phase",
        "round_no",
        "language",
        "timezone",
        "preset",
        "options",
        "players",
        "names",
        "ai_seq",
        "totals",
        "round",
        "match",
        "room_id",
    )
)
_OPTION_KEYS: Final = frozenset(
    ("rules", "random_wild_rank", "arrange_seconds", "deal_style", "pictures", "rounds")
)


class RoomFormatError(ValueError):
    """A stored room this code cannot read: written by a newer version, or
    not a room at all."""


# ---------------------------------------------------------------- versions


def _from_v0(data: dict[str, Any]) -> dict[str, Any]:
    """Before ``"v"``: the keys a room of version 1 always has, where missing."""
    data.setdefault("round_no", 0)
    data.setdefault("timezone", DEFAULT_TIMEZONE)
    data.setdefault("names", {p["key"]: p["name"] for p in data.get("players", ())})
    seated = [*(p["key"] for p in data.get("players", ())), *data["names"]]
    numbers = [int(k[3:]) for k in seated if k.startswith("ai:") and k[3:].isdigit()]
    data.setdefault("ai_seq", max(numbers, default=0))  # AI keys are ai:<n>, never reused
    data.setdefault("totals", {})
    data.setdefault("round", None)
    return data


# UPGRADES[n] turns a room of version n into one of version n + 1.
UPGRADES: Final[dict[int, Callable[[dict[str, Any]], dict[str, Any]]]] = {0: _from_v0}


def upgrade(data: object) -> dict[str, Any]:
    """A stored room's JSON in today's format: the same object when it is
    already, an upgraded copy when older, ``RoomFormatError`` when newer or
    unreadable."""
    if not isinstance(data, dict):
        raise RoomFormatError(f"a stored room is a JSON object, not {type(data).__name__}")
    version = data.get("v", 0)
    if not isinstance(version, int) or version < 0:
        raise RoomFormatError(f"a stored room's version must be a whole number, not {version!r}")
    if version > STATE_VERSION:
        raise RoomFormatError(
            f"room stored in format v{version}; this code reads up to v{STATE_VERSION}"
            " (run the newer version of the bot)"
        )
    if version == STATE_VERSION:
        room = data
    else:
        room = dict(data)  # the stored record stays as read
        for n in range(version, STATE_VERSION):
            room = UPGRADES[n](room)
        room["v"] = STATE_VERSION
    phase = room.get("phase")
    if phase not in set(Phase):
        raise RoomFormatError(f"a stored room's phase {phase!r} is not one of {[*Phase]}")
    return room


# ---------------------------------------------------------------- parts of a room


@dataclass(frozen=True, slots=True)
class Seat:
    """A place at the table: a person or an AI (``ai``: its level)."""

    key: str  # "<platform>:<user id>" or "ai:<n>"
    name: str
    ai: str | None = None  # "easy", "normal" or "strong"

    def to_json(self) -> dict[str, object]:
        return {"key": self.key, "name": self.name, "ai": self.ai}


@dataclass(slots=True)
class Match:
    """A match (局数) of a set number of rounds, then the 大结算. ``start``
    is the room's round number before its first round."""

    seq: int
    start: int
    rounds: int
    over: bool = False

    def to_json(self) -> dict[str, object]:
        return {"seq": self.seq, "start": self.start, "rounds": self.rounds, "over": self.over}


@dataclass(slots=True)
class RoomOptions:
    """The table's options: the owner's overrides of the preset's rules (as
    ``make_rules`` takes them) and the table's own settings. ``pictures``
    and ``rounds`` are None until first set."""

    rules: RuleOverrides = field(default_factory=RuleOverrides)
    random_wild_rank: bool = False  # 百变: a wild rank drawn each round
    arrange_seconds: int = 120
    deal_style: DealStyle = DealStyle.ONE
    pictures: bool | None = None
    rounds: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # keys of a newer format

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> RoomOptions:
        return cls(
            rules=RuleOverrides(d["rules"]),
            random_wild_rank=d["random_wild_rank"],
            arrange_seconds=d["arrange_seconds"],
            deal_style=DealStyle(d["deal_style"]),
            pictures=d.get("pictures"),
            rounds=d.get("rounds"),
            extra={k: v for k, v in d.items() if k not in _OPTION_KEYS},
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "rules": self.rules.to_json(),
            "random_wild_rank": self.random_wild_rank,
            "arrange_seconds": self.arrange_seconds,
            "deal_style": self.deal_style.value,
        }
        if self.pictures is not None:
            out["pictures"] = self.pictures
        if self.rounds is not None:
            out["rounds"] = self.rounds
        out.update(self.extra)
        return out


# ---------------------------------------------------------------- the room


@dataclass(slots=True)
class Room:
    platform: str
    chat_id: str
    owner: str  # the key of the person who runs the table
    phase: Phase
    language: str
    preset: str  # a Preset value
    options: RoomOptions
    players: list[Seat]
    names: dict[str, str]  # everyone ever seated, by key (settlements name them)
    round_no: int = 0  # rounds dealt
    timezone: str = DEFAULT_TIMEZONE
    ai_seq: int = 0  # the last AI's number (ai:<n> keys are never reused)
    totals: dict[str, int] = field(default_factory=dict)  # running totals
    round: Round | None = None  # the round in play, or the last one
    match: Match | None = None
    room_id: str | None = None  # given by the repository when it is created
    match_key: bool = False  # stored with "match": null (a match turned off)
    extra: dict[str, Any] = field(default_factory=dict)  # keys of a newer format

    @classmethod
    def from_json(cls, data: object) -> Room:
        """A stored room of any version this code reads (``RoomFormatError``
        otherwise)."""
        d = upgrade(data)
        rnd, m = d["round"], d.get("match")
        return cls(
            platform=d["platform"],
            chat_id=d["chat_id"],
            owner=d["owner"],
            phase=Phase(d["phase"]),
            language=d["language"],
            preset=d["preset"],
            options=RoomOptions.from_json(d["options"]),
            players=[Seat(p["key"], p["name"], p.get("ai")) for p in d["players"]],
            names=dict(d["names"]),
            round_no=d["round_no"],
            timezone=d["timezone"],
            ai_seq=d["ai_seq"],
            totals=dict(d["totals"]),
            round=None if rnd is None else Round.from_json(rnd),
            match=None if m is None else Match(m["seq"], m["start"], m["rounds"], m["over"]),
            room_id=d.get("room_id"),
            match_key="match" in d,
            extra={k: v for k, v in d.items() if k not in _KEYS},
        )

    def to_json(self) -> dict[str, Any]:
        """The room as it is stored: today's format, under today's version."""
        out: dict[str, Any] = {
            "v": STATE_VERSION,
            "platform": self.platform,
            "chat_id": self.chat_id,
            "owner": self.owner,
            "phase": self.phase.value,
            "round_no": self.round_no,
            "language": self.language,
            "timezone": self.timezone,
            "preset": self.preset,
            "options": self.options.to_json(),
            "players": [p.to_json() for p in self.players],
            "names": dict(self.names),
            "ai_seq": self.ai_seq,
            "totals": dict(self.totals),
            "round": None if self.round is None else self.round.to_json(),
        }
        if self.match is not None or self.match_key:
            out["match"] = None if self.match is None else self.match.to_json()
        if self.room_id is not None:
            out["room_id"] = self.room_id
        out.update(self.extra)
        return out

    def copy(self) -> Room:
        """A deep copy (what a transition changes; the cached room stays)."""
        return Room.from_json(self.to_json())

    # ------------------------------------------------------------ reading

    @property
    def live(self) -> bool:
        """A round is live (it holds hands being arranged or shown)."""
        return self.phase in LIVE_PHASES

    @property
    def rnd(self) -> Round:
        """The round (only where the room has one)."""
        if self.round is None:
            raise ValueError(f"room {self.room_id} has no round")
        return self.round

    @property
    def id(self) -> str:
        """The room's id (only once the repository has given it one)."""
        if self.room_id is None:
            raise ValueError("the room has no id yet")
        return self.room_id

    def name_of(self, key: str) -> str:
        return self.names.get(key, key)

    def seat(self, key: str) -> Seat | None:
        return next((p for p in self.players if p.key == key), None)

    @property
    def pictures_on(self) -> bool:
        """The room's own option (the PICTURES setting may still turn them off)."""
        return self.options.pictures is not False
