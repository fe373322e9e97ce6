"""The round's showdown and this player's review (复盘), as the arranging
page shows them once its round has been shown.

Everything comes from the table's own results, never computed again here:
while the room is in the round's showdown, the result the table stored as
the showdown began (``round["result"]``: the settlement and the order of
the reveal) with only the lanes revealed so far, step by step as the group
sees them; once the round is paid, the same from the round's state or,
after the room dealt again, from the round's stored settlement (its
``detail``: the settlement, the hands as played, the names and the
reviews). The review is the one the table computed, in a worker thread,
when it paid the round (``bot.table.review``): until then it is pending.
Only words (categories, specials) are added, in the room's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.core.breakdown import Item, Result, item_text, result
from bot.core.moments import moments
from bot.core.replay import ReplayDetail
from bot.core.review import LaneTokens, SeatReview
from bot.core.room import Room
from bot.core.round import rules_of
from bot.core.showdown import Settlement
from bot.core.state import LANE_NAMES, Phase
from bot.i18n import t
from bot.rules.cards import parse_card
from bot.rules.lanes import evaluate_lane
from bot.rules.options import Rules
from bot.views.render_common import category

# The review's "your split was the best": what the chat's review says too.
BEST_EPSILON = 0.005


@dataclass(frozen=True, slots=True)
class Source:
    """One round's result as the table stored it."""

    settlement: Settlement  # players, pairs, home run, totals, escapes
    info: ReplayDetail  # seats, names, hands, declared, rules (ReplayDetail.of)
    reviews: Mapping[str, SeatReview]  # per person; empty until the round is paid
    revealed: tuple[str, ...]  # the showdown's steps shown so far
    reveal: dict[str, list[str]]  # who each step shows
    settled: bool

    @property
    def seats(self) -> list[str]:
        return list(self.info.seats)


def from_state(room: Room) -> Source | None:
    """The current round's result, once it is being shown (None before the
    showdown, and for a round the room closed before showing it)."""
    rnd = room.round
    if rnd is None or rnd.result is None:
        return None
    settled = rnd.settled
    if not settled and room.phase != Phase.SHOWDOWN:
        return None
    result = rnd.result
    steps = list(result.steps)
    shown = steps if settled else steps[: max(0, rnd.step) + 1]
    reviews = dict(rnd.review or {})
    return Source(
        settlement=result.settlement,
        info=ReplayDetail.of(room),
        reviews=reviews if settled else {},
        revealed=tuple(shown),
        reveal={
            **{lane: list(keys) for lane, keys in result.reveal.items()},
            "specials": list(result.specials),
        },
        settled=settled,
    )


def from_record(detail: dict[str, Any] | None) -> Source | None:
    """A paid round's result from its stored settlement (None: a record
    too old to hold the hands)."""
    if not detail or "round" not in detail:
        return None
    settlement = Settlement.from_json({**detail, "escape": detail.get("escape") or []})
    specials = any(p.special for p in settlement.players)
    reviews = {k: SeatReview.from_json(v) for k, v in (detail.get("review") or {}).items() if v}
    return Source(
        settlement=settlement,
        info=ReplayDetail.from_json(detail["round"]),
        reviews=reviews,
        revealed=(*LANE_NAMES, "specials") if specials else LANE_NAMES,
        reveal={},
        settled=True,
    )


def showdown_json(source: Source, me: str, round_no: int, language: str) -> dict[str, Any]:
    """What the page shows: every seat (``me`` first), its lanes as far as
    they were revealed, their categories, the pair results against ``me``,
    the round's totals once paid, and ``me``'s review."""
    info = source.info
    rules = info.rules or {}
    players = source.settlement.by_id()
    seats = sorted(source.seats, key=lambda k: k != me)
    mine = result(source.settlement, me) if source.settled else None
    out_seats = []
    for key in seats:
        p = players[key]
        special = p.special
        lanes: dict[str, list[str] | None] = {}
        labels: dict[str, str | None] = {}
        points: dict[str, int | None] = {}
        for lane, row in zip(LANE_NAMES, p.lanes or (None,) * 3, strict=True):
            seen = _shown(source, key, me, lane, special is not None)
            lanes[lane] = list(info.hands[key][lane]) if seen else None
            labels[lane] = category(language, row.category) if seen and row else None
            points[lane] = int(row.points) if seen and row else None
        shown_special = special is not None and (
            key == me or source.settled or _in_step(source, key, "specials")
        )
        out_seats.append(
            {
                "key": key,
                "name": info.names.get(key, key),
                "me": key == me,
                "banker": info.banker == key,
                "lanes": lanes,
                "labels": labels,
                "points": points,
                "special": t(language, f"special.{special}") if shown_special else None,
                "total": int(p.total) if source.settled else None,
                "versus": _versus(source, me, key, mine, language) if key != me else None,
                "escape": _items(mine.escape, language, info.names) if mine and key == me else [],
            }
        )
    home_run = source.settlement.home_run if source.settled else None
    return {
        "round": round_no,
        "language": language,
        "wild_rank": rules.get("wild_rank"),
        "added_suit": rules.get("added_suit"),
        "complete": source.settled,
        "revealed": list(source.revealed),
        "seats": out_seats,
        "home_run": info.names.get(home_run, home_run) if home_run else None,
        "moments": _moments(source, language),
        "review": _review(source, me, language),
    }


def _moments(source: Source, language: str) -> list[dict[str, Any]]:
    """The moments (打枪, 全垒打, 报道) of the steps shown so far, named, as
    the group's showdown stamps them."""
    names = source.info.names
    return [
        {
            "kind": m.kind.value,
            "by": names.get(m.by, m.by),
            "of": names.get(m.of, m.of) if m.of else None,
            "times": m.times,
            "special": t(language, f"special.{m.special}") if m.special else None,
        }
        for m in moments(source.settlement, source.revealed)
    ]


def _in_step(source: Source, key: str, step: str) -> bool:
    return step in source.revealed and key in source.reveal.get(step, ())


def _shown(source: Source, key: str, me: str, lane: str, declared: bool) -> bool:
    """Whether ``key``'s ``lane`` is shown to ``me``: their own always; the
    others' as the showdown reveals them (a declared special with the
    specials)."""
    if key == me or source.settled:
        return True
    return _in_step(source, key, "specials" if declared else lane)


def _items(
    items: tuple[Item, ...], language: str, names: Mapping[str, str]
) -> list[dict[str, Any]]:
    """Written parts (bot/core/breakdown.py): each one's words and points."""
    return [{"text": item_text(language, x, names, "−"), "points": x.points} for x in items]


def _versus(
    source: Source, me: str, key: str, mine: Result | None, language: str
) -> dict[str, Any] | None:
    """``me`` against ``key`` once the round is paid: the points ``me`` won
    (negative: lost), each lane (+1 won, -1 lost, 0 tied; None against a
    special), who scooped, and the parts the points are made of, from
    ``me``'s side (they add up to the points)."""
    if mine is None:
        return None
    parts = next((v.items for v in mine.versus if v.opponent == key), ())
    for pair in source.settlement.pairs:
        if {pair.a, pair.b} != {me, key}:
            continue
        sign = pair.side(me)
        lanes, scoop = pair.lanes, pair.scoop
        return {
            "score": sign * int(pair.score),
            "lanes": None
            if lanes is None
            else dict(zip(LANE_NAMES, [sign * x for x in lanes], strict=True)),
            "scoop": None if scoop is None else ("me" if scoop == me else "them"),
            "parts": _items(parts, language, source.info.names),
        }
    return None


def _review(source: Source, me: str, language: str) -> dict[str, Any]:
    """``me``'s review: pending until the round is paid; none where the
    table has none (its computation failed)."""
    if not source.settled:
        return {"status": "pending"}
    data = source.reviews.get(me)
    if data is None:
        return {"status": "none"}
    rules = rules_of(source.info.rules) if source.info.rules else None
    given = float(data.given_up)
    return {
        "status": "ready",
        "mine": _split(data.mine, data.declared, rules, language),
        "best": _split(data.best, data.best_declare, rules, language),
        "auto": data.auto,
        "mine_ev": float(data.mine_ev),
        "best_ev": float(data.best_ev),
        "actual": int(data.actual),
        "best_actual": int(data.best_actual),
        "given_up": given,
        "best_is_mine": given <= BEST_EPSILON,
    }


def _split(
    lanes: LaneTokens, declared: str | None, rules: Rules | None, language: str
) -> dict[str, Any]:
    labels: dict[str, str | None] = {}
    for lane in LANE_NAMES:
        value = None
        if rules is not None and not declared:
            value = evaluate_lane([parse_card(x) for x in lanes[lane]], rules)
        labels[lane] = category(language, value.category.slug) if value else None
    return {
        "lanes": {lane: list(lanes[lane]) for lane in LANE_NAMES},
        "labels": labels,
        "special": t(language, f"special.{declared}") if declared else None,
    }
