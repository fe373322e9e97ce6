"""A room's match (局数) on the room's JSON state: the table's side of
``bot.core.match`` (the format and the option's values live there)."""

from __future__ import annotations

from typing import Any

from bot.core.match import MAX_ROUNDS, PRESETS, parse_rounds
from bot.rules.options import OptionError

__all__ = [
    "MAX_ROUNDS",
    "PRESETS",
    "after_pay",
    "before_deal",
    "current",
    "is_over",
    "parse_rounds",
    "played",
    "position",
    "round_span",
    "sync_option",
]


def current(state: dict[str, Any]) -> dict[str, Any] | None:
    """The match in progress or just finished, or None (open-ended room)."""
    m = state.get("match")
    return m if isinstance(m, dict) else None


def played(state: dict[str, Any]) -> int:
    """Rounds of the current match dealt so far (the one running included)."""
    m = current(state)
    return 0 if m is None else max(0, state["round_no"] - m["start"])


def position(state: dict[str, Any]) -> tuple[int, int] | None:
    """(k, n) for "第 k/n 局": the round being played, or the last one played."""
    m = current(state)
    if m is None:
        return None
    return max(1, min(played(state), m["rounds"])), m["rounds"]


def is_over(state: dict[str, Any]) -> bool:
    m = current(state)
    return bool(m and m["over"])


def sync_option(state: dict[str, Any]) -> None:
    """The owner changed ``rounds`` between rounds: a match in progress takes
    the new length (never below the rounds it has played); "off" ends it
    without a 大结算."""
    n = int(state["options"].get("rounds") or 0)
    m = current(state)
    if m is None or m["over"]:
        return
    if n == 0:
        state["match"] = None
        return
    done = played(state)
    if n <= done:
        # The match would end by a settings change, not by playing: refuse.
        raise OptionError(
            f"this match has played {done} rounds already", "rounds_played", played=done
        )
    m["rounds"] = n


def before_deal(state: dict[str, Any]) -> None:
    """Called as a round is dealt: begin a match when the room has a length
    set and no match is running (the first round, or a rematch)."""
    n = int(state["options"].get("rounds") or 0)
    m = current(state)
    if n and (m is None or m["over"]):
        seq = (m or {}).get("seq", 0) + 1
        state["match"] = {"seq": seq, "start": state["round_no"], "rounds": n, "over": False}


def after_pay(state: dict[str, Any]) -> bool:
    """Called when a round is paid: True when it was the match's last."""
    m = current(state)
    if m is None or m["over"]:
        return False
    if state["round_no"] - m["start"] >= m["rounds"]:
        m["over"] = True
        return True
    return False


def round_span(m: dict[str, Any], upto: int) -> tuple[int, int]:
    """The room round numbers of a match's rounds played up to ``upto``."""
    return m["start"] + 1, min(upto, m["start"] + m["rounds"])
