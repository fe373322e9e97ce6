"""The 大结算 of a match: final totals and ranking, the biggest single round,
scoops (打枪), home runs (全垒打), specials, fouls and each player's best
lane — all derived from the stored settlements of the match's rounds (the
ledger entries and the settlement detail), never from running counters.

Pure: the manager reads the records (``Repository.room_settlements``) and
renders the result (``bot.views.render_final``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.core.final import BestLane, Biggest, MatchSummary, PlayerSummary
from bot.core.room import Match, Room
from bot.core.state import LANE_NAMES
from bot.rules.types import Arrangement, Category
from storage.api import SettlementRecord

from .round import rules_of

_BY_SLUG = {c.slug: c for c in Category}


@dataclass(slots=True)
class _Tally:
    """One player's counts while the match's records are read."""

    key: str
    name: str
    total: int = 0
    rounds: int = 0
    wins: int = 0
    scoops: int = 0
    home_runs: int = 0
    specials: int = 0
    fouls: int = 0
    best_lane: BestLane | None = None


def summary(room: Room, m: Match, records: Sequence[SettlementRecord]) -> MatchSummary:
    """The 大结算 of match ``m`` from its rounds' records."""
    rows: dict[str, _Tally] = {}
    biggest: Biggest | None = None

    def row(key: str, name: str) -> _Tally:
        r = rows.get(key)
        if r is None:
            r = rows[key] = _Tally(key=key, name=room.names.get(key, name))
        return r

    for rec in records:
        k = rec.round_no - m.start
        detail = rec.detail or {}
        lanes_of = {p["id"]: p.get("lanes") for p in detail.get("players", [])}
        rules = _round_rules(detail)
        for e in rec.entries:
            r = row(e.player_key, e.name)
            r.total += e.points
            r.rounds += 1
            r.wins += int(e.points > 0)
            r.scoops += e.scoops
            r.home_runs += int(e.home_run)
            r.specials += int(e.special is not None)
            r.fouls += int(_fouled(e.arrangement, e.special, rules))
            if biggest is None or e.points > biggest.points:
                biggest = Biggest(key=e.player_key, name=r.name, points=e.points, round=k)
            best = _best_lane(lanes_of.get(e.player_key), k)
            if best is not None and (
                r.best_lane is None or _lane_key(best) > _lane_key(r.best_lane)
            ):
                r.best_lane = best
    ranked = sorted(rows.values(), key=lambda r: (-r.total, -r.wins, r.name, r.key))
    players: list[PlayerSummary] = []
    for i, r in enumerate(ranked):
        prev = players[i - 1] if i else None
        players.append(
            PlayerSummary(
                key=r.key,
                name=r.name,
                total=r.total,
                rounds=r.rounds,
                wins=r.wins,
                scoops=r.scoops,
                home_runs=r.home_runs,
                specials=r.specials,
                fouls=r.fouls,
                best_lane=r.best_lane,
                rank=prev.rank if prev and prev.total == r.total else i + 1,
            )
        )
    played = max((rec.round_no - m.start for rec in records), default=0)
    return MatchSummary(
        seq=m.seq,
        rounds=m.rounds,
        played=played,
        early=played < m.rounds,
        players=tuple(players),
        biggest=biggest if biggest and biggest.points > 0 else None,
    )


def _round_rules(detail: dict[str, Any]) -> Any:
    rules = (detail.get("round") or {}).get("rules")
    if not rules:
        return None
    try:
        return rules_of(rules)
    except Exception:  # an old or odd record: no foul check for it
        return None


def _fouled(lanes: dict[str, list[str]] | None, special: str | None, rules: Any) -> bool:
    """A shown (not declared) arrangement whose lanes do not rise (相公).
    The bot refuses such an arrangement at confirm, so this stays 0 unless a
    round was stored by other means; counted from the record all the same."""
    if rules is None or not lanes or special is not None:
        return False
    from bot.rules.cards import parse_card

    from .solving import foul_lanes

    try:
        arr = Arrangement.of(*([parse_card(t) for t in lanes[n]] for n in LANE_NAMES))
    except (KeyError, ValueError):
        return False
    return bool(foul_lanes(arr, rules))


def _best_lane(lanes: list[dict[str, Any]] | None, k: int) -> BestLane | None:
    """The strongest of a stored player's lanes (the settlement's JSON)."""
    if not lanes:
        return None
    best = None
    for i, lane in enumerate(lanes):
        cat = _BY_SLUG.get(lane.get("category", ""))
        if cat is None:
            continue
        item = BestLane(
            lane=LANE_NAMES[i], category=cat.slug, points=lane.get("points", 1), round=k
        )
        if best is None or _lane_key(item) > _lane_key(best):
            best = item
    return best


def _lane_key(item: BestLane) -> tuple[int, int]:
    return int(_BY_SLUG[item.category]), int(item.points)
