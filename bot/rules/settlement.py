"""SettlementResult (比牌与计分), docs/rules.md §4: pairwise lanes, scoops (打枪),
home runs (全垒打), special hands, banker mode and the escape penalty."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .foul import check_foul, check_lane_sizes, lane_values
from .lanes import lane_points
from .options import Preset, Rules
from .settlement_types import (
    EscapePayment,
    LaneResult,
    PairPart,
    PairResult,
    PartKind,
    PlayerHand,
    PlayerResult,
    SettlementResult,
)
from .specials import special_beats
from .types import Lane, LaneValue

BANKER_CAP = 7
ESCAPE_STAKES = 10


class SettlementError(ValueError):
    """A round that cannot be settled (bad seats, fouled hands, unknown ids)."""


@dataclass(frozen=True, slots=True)
class _Seat:
    hand: PlayerHand
    values: tuple[LaneValue, LaneValue, LaneValue] | None  # None for a declared special
    points: tuple[int, int, int] | None


def _seat(hand: PlayerHand, rules: Rules) -> _Seat:
    if hand.special is not None:
        return _Seat(hand, None, None)
    problem = check_lane_sizes(hand.arrangement)
    if problem:
        raise SettlementError(f"player {hand.id}: {problem}")
    foul = check_foul(hand.arrangement, rules)
    if foul:
        raise SettlementError(f"player {hand.id}: {foul.message}")
    values = lane_values(hand.arrangement, rules)
    points = tuple(lane_points(lane, v) for lane, v in zip(Lane, values, strict=True))
    return _Seat(hand, values, points)  # type: ignore[arg-type]


def _lane_signs(a: _Seat, b: _Seat, banker_id: str | None) -> tuple[int, int, int]:
    signs = []
    for va, vb in zip(a.values, b.values, strict=True):  # type: ignore[arg-type]
        if banker_id is not None and va.ties_on_ranks(vb):
            # Banker mode: a lane tied on category and ranks goes to the banker.
            signs.append(1 if a.hand.id == banker_id else -1)
        else:
            signs.append((va > vb) - (va < vb))
    return signs[0], signs[1], signs[2]


def _lane_parts(a: _Seat, b: _Seat, signs: tuple[int, int, int]) -> list[PairPart]:
    """Each lane's part: its winner's points and category, or 0 for a tie."""
    parts = []
    for lane, s in zip(Lane, signs, strict=True):
        name = lane.name.lower()
        if s == 0:
            parts.append(PairPart(PartKind.LANE, 0, None, name))
            continue
        win = a if s > 0 else b
        value = win.values[lane]  # type: ignore[index]
        pts = win.points[lane]  # type: ignore[index]
        parts.append(PairPart(PartKind.LANE, s * pts, win.hand.id, name, value.category.slug))
    return parts


def _pair(a: _Seat, b: _Seat, rules: Rules, banker_id: str | None) -> tuple[PairResult, bool, bool]:
    """The pair's result from a's view, and whether a / b strictly won all lanes."""
    sa, sb = a.hand.special, b.hand.special
    if sa is None and sb is None:
        signs = _lane_signs(a, b, banker_id)
        parts = _lane_parts(a, b, signs)
        score = sum(x.points for x in parts)
        a_sweep, b_sweep = all(s > 0 for s in signs), all(s < 0 for s in signs)
        scoop = None
        if banker_id is None:
            if rules.draw_counts_as_scoop:
                a_scoop = any(s > 0 for s in signs) and all(s >= 0 for s in signs)
                b_scoop = any(s < 0 for s in signs) and all(s <= 0 for s in signs)
            else:
                a_scoop, b_scoop = a_sweep, b_sweep
            scoop = a.hand.id if a_scoop else b.hand.id if b_scoop else None
            if scoop:
                # reported even when it doubles nothing (scoop_double off)
                factor = 2 if rules.scoop_double else 1
                parts.append(PairPart(PartKind.SCOOP, score * (factor - 1), scoop, factor=factor))
                score *= factor
        result = PairResult(a.hand.id, b.hand.id, signs, scoop, score, tuple(parts))
        return result, a_sweep, b_sweep
    winner: _Seat | None
    if sa is not None and sb is not None:
        if banker_id is not None and sa.points == sb.points:
            # Banker mode: both special with equal points, the player wins.
            winner = b if a.hand.id == banker_id else a
        else:
            win = special_beats(sa, sb)
            winner = a if win > 0 else b if win < 0 else None
    else:
        winner = a if sa is not None else b
    if winner is None:
        part = PairPart(PartKind.SPECIAL, 0)
    else:
        won = winner.hand.special
        assert won is not None
        sign = 1 if winner is a else -1
        part = PairPart(PartKind.SPECIAL, sign * won.points, winner.hand.id, special=won.hand.value)
    return PairResult(a.hand.id, b.hand.id, None, None, part.points, (part,)), False, False


def settle(
    hands: Sequence[PlayerHand],
    rules: Rules,
    banker: str | None = None,
    escaped: Sequence[str] = (),
) -> SettlementResult:
    """Settle one round. Raises :class:`SettlementError` for a round that
    cannot be settled (a fouled or malformed arrangement, unknown ids)."""
    ids = [h.id for h in hands]
    for n, pid in enumerate(ids):
        if pid in ids[:n]:
            raise SettlementError(f"two players have the same id {pid!r}")
    if len(hands) != rules.players:
        raise SettlementError(f"the rules are for {rules.players} players, not {len(hands)}")
    if rules.banker:
        if banker is None:
            raise SettlementError("banker mode needs the banker's id")
        if banker not in ids:
            raise SettlementError(f"the banker {banker!r} is not a player")
    elif banker is not None:
        raise SettlementError("a banker is named but banker mode is off")
    for e in escaped:
        if e not in ids:
            raise SettlementError(f"the escaped player {e!r} is not a player")
    for n, e in enumerate(escaped):
        if e in escaped[:n]:
            raise SettlementError(f"the player {e!r} is listed as escaped twice")
    seats = [_seat(h, rules) for h in hands]

    pairs: list[PairResult] = []
    sweeps: dict[str, int] = dict.fromkeys(ids, 0)
    for i, a in enumerate(seats):
        for b in seats[i + 1 :]:
            if banker is not None and banker not in (a.hand.id, b.hand.id):
                continue
            result, a_sweep, b_sweep = _pair(a, b, rules, banker)
            sweeps[a.hand.id] += a_sweep
            sweeps[b.hand.id] += b_sweep
            pairs.append(result)

    home_run = None
    if banker is None and len(hands) >= 3:
        for pid in ids:
            if sweeps[pid] == len(hands) - 1:
                home_run = pid
        if home_run:
            pairs = [
                _double(p, PartKind.HOME_RUN, home_run) if home_run in (p.a, p.b) else p
                for p in pairs
            ]

    if rules.preset is Preset.EXTENDED and banker is None and len(hands) >= 3:
        by_id = {s.hand.id: s for s in seats}
        for pid in ids:
            if by_id[pid].hand.special is None:
                continue
            mine = [p for p in pairs if pid in (p.a, p.b)]
            if all((p.score > 0) if p.a == pid else (p.score < 0) for p in mine):
                pairs = [
                    _double(p, PartKind.SPECIAL_SWEEP, pid) if pid in (p.a, p.b) else p
                    for p in pairs
                ]

    if banker is not None:
        pairs = [_cap(p) for p in pairs]

    totals = dict.fromkeys(ids, 0)
    for p in pairs:
        totals[p.a] += p.score
        totals[p.b] -= p.score

    escape: list[EscapePayment] = []
    if rules.escape_penalty and escaped:
        stayed = [pid for pid in ids if pid not in escaped]
        for leaver in escaped:
            for pid in stayed:
                if totals[pid] < 0:
                    escape.append(EscapePayment(leaver, pid, -totals[pid]))
                    totals[leaver] += totals[pid]
                    totals[pid] = 0
            escape.append(EscapePayment(leaver, None, ESCAPE_STAKES * rules.base))
            totals[leaver] -= ESCAPE_STAKES * rules.base

    players = tuple(
        PlayerResult(
            s.hand.id,
            s.hand.special.hand if s.hand.special else None,
            _lane_results(s),
            totals[s.hand.id],
        )
        for s in seats
    )
    return SettlementResult(players, tuple(pairs), home_run, totals, tuple(escape))


def _double(p: PairResult, kind: PartKind, winner: str) -> PairResult:
    part = PairPart(kind, p.score, winner, factor=2)
    return PairResult(p.a, p.b, p.lanes, p.scoop, p.score * 2, (*p.parts, part))


def _cap(p: PairResult) -> PairResult:
    capped = max(-BANKER_CAP, min(BANKER_CAP, p.score))
    if capped == p.score:
        return p
    part = PairPart(PartKind.BANKER_CAP, capped - p.score)
    return PairResult(p.a, p.b, p.lanes, p.scoop, capped, (*p.parts, part))


def _lane_results(seat: _Seat) -> tuple[LaneResult, LaneResult, LaneResult] | None:
    """Head, middle and tail of a compared seat; None for a declared special."""
    if seat.values is None or seat.points is None:
        return None
    (head, middle, tail), (head_pts, middle_pts, tail_pts) = seat.values, seat.points
    return (
        LaneResult(head.category, head_pts),
        LaneResult(middle.category, middle_pts),
        LaneResult(tail.category, tail_pts),
    )
