"""Matches (局数): a room plays a set number of rounds, then the 大结算.

The owner sets the option ``rounds`` (0 = open-ended, as before; presets
6, 8, 10, 12, 16, 20, or any number from 1 to 99). The match itself lives in
the room's state as ``Room.match`` (stored as ``"match"``), so it survives
restarts like the round does::

    {"seq": 2, "start": 10, "rounds": 8, "over": false}

``start`` is the room's round number before the match's first round, so the
match's k-th round is room round ``start + k``. Totals are never kept here:
the 大结算 sums the stored settlements of rounds ``start+1 .. start+rounds``.
After the last round the match is ``over``; the next START (the "rematch"
button) begins a new match with the players seated and the same settings.
"""

from __future__ import annotations

from bot.rules.options import OptionError

from .room import Match, Room

PRESETS = (6, 8, 10, 12, 16, 20)
MAX_ROUNDS = 99
_OFF = {"off", "0", "none", "no", "关", "關", "open"}


def parse_rounds(text: str) -> int:
    """The option's value: 0 for open-ended, else 1..99."""
    v = text.strip().lower()
    if v in _OFF:
        return 0
    if v.isascii() and v.isdigit() and len(v) <= 2 and 1 <= int(v) <= MAX_ROUNDS:
        return int(v)
    raise OptionError(
        f"rounds must be off or a whole number from 1 to {MAX_ROUNDS}, not {text!r}",
        "rounds",
        high=MAX_ROUNDS,
        value=text,
    )


def current(room: Room) -> Match | None:
    """The match in progress or just finished, or None (open-ended room)."""
    return room.match


def played(room: Room) -> int:
    """Rounds of the current match dealt so far (the one running included)."""
    m = room.match
    return 0 if m is None else max(0, room.round_no - m.start)


def position(room: Room) -> tuple[int, int] | None:
    """(k, n) for "第 k/n 局": the round being played, or the last one played."""
    m = room.match
    if m is None:
        return None
    return max(1, min(played(room), m.rounds)), m.rounds


def is_over(room: Room) -> bool:
    return bool(room.match and room.match.over)


def round_span(m: Match, upto: int) -> tuple[int, int]:
    """The room round numbers of a match's rounds played up to ``upto``."""
    return m.start + 1, min(upto, m.start + m.rounds)


def sync_option(room: Room) -> None:
    """The owner changed ``rounds`` between rounds: a match in progress takes
    the new length (never below the rounds it has played); "off" ends it
    without a 大结算."""
    n = int(room.options.rounds or 0)
    m = room.match
    if m is None or m.over:
        return
    if n == 0:
        room.match = None
        room.match_key = True
        return
    done = played(room)
    if n <= done:
        # The match would end by a settings change, not by playing: refuse.
        raise OptionError(
            f"this match has played {done} rounds already", "rounds_played", played=done
        )
    m.rounds = n


def before_deal(room: Room) -> None:
    """Called as a round is dealt: begin a match when the room has a length
    set and no match is running (the first round, or a rematch)."""
    n = int(room.options.rounds or 0)
    m = room.match
    if n and (m is None or m.over):
        seq = (m.seq if m else 0) + 1
        room.match = Match(seq=seq, start=room.round_no, rounds=n)


def after_pay(room: Room) -> bool:
    """Called when a round is paid: True when it was the match's last."""
    m = room.match
    if m is None or m.over:
        return False
    if room.round_no - m.start >= m.rounds:
        m.over = True
        return True
    return False
