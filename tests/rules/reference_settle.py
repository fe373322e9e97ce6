"""An independent reference of docs/rules.md §4 + §6 settlement, for tests only.

Written without reading bot/rules/settlement.py. Produces the docs/judge.md output
object (without "ok") so it can be compared with both `python -m bot judge`
and `bot.rules.settle(...).to_json()`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.rules.cards import Card
from bot.rules.options import Preset, Rules

from .reference import CATEGORY_SLUGS, cmp, lane_key, lane_points
from .reference_specials import ORDER


@dataclass(frozen=True)
class Seat:
    id: str
    lanes: tuple[Sequence[Card], Sequence[Card], Sequence[Card]] | None = None
    special: tuple[str, int, bool] | None = None  # (name, points, natural) when declared


def _special_vs_special(sa: tuple[str, int, bool], sb: tuple[str, int, bool]) -> int:
    """a's score against b when both declared (docs/rules.md §4, not banker mode)."""
    (na, pa, nat_a), (nb, pb, nat_b) = sa, sb
    if pa != pb:
        return pa if pa > pb else -pb
    if na != nb:  # equal points: higher in the special order wins
        return pa if ORDER.index(na) < ORDER.index(nb) else -pb
    if nat_a != nat_b:  # natural beats the same special made with jokers
        return pa if nat_a else -pb
    return 0


def _pair(
    a: Seat, b: Seat, keys: dict[str, list], rules: Rules, banker: str | None
) -> tuple[list[int] | None, str | None, int]:
    """(lanes from a's view, scoop, score before home run / special doubling / cap)."""
    if a.special or b.special:
        if a.special and b.special:
            if banker is not None and a.special[1] == b.special[1]:
                # Banker mode: both special with equal points -> the player wins.
                return None, None, (-b.special[1] if a.id == banker else a.special[1])
            return None, None, _special_vs_special(a.special, b.special)
        return None, None, (a.special[1] if a.special else -b.special[1])  # type: ignore[index]
    lanes = []
    raw = 0
    for i in range(3):
        ka, kb = keys[a.id][i], keys[b.id][i]
        s = cmp(ka, kb)
        if banker is not None and ka[0] == kb[0] and ka[1] == kb[1]:
            s = 1 if a.id == banker else -1  # a tie on category and ranks goes to the banker
        lanes.append(s)
        if s:
            winner = ka if s > 0 else kb
            raw += s * lane_points(i, winner[0])
    scoop = None
    if banker is None:
        for who, sign in ((a.id, 1), (b.id, -1)):
            wins = sum(1 for s in lanes if s == sign)
            losses = sum(1 for s in lanes if s == -sign)
            if wins == 3 or (rules.draw_counts_as_scoop and wins >= 1 and losses == 0):
                scoop = who
    if scoop is not None and rules.scoop_double:
        raw *= 2
    return lanes, scoop, raw


def settle_ref(
    seats: Sequence[Seat], rules: Rules, banker: str | None = None, escaped: Sequence[str] = ()
) -> dict:
    """The docs/judge.md output object for these seats (lanes already legal)."""
    if not rules.banker:
        banker = None
    keys = {s.id: [lane_key(c, rules) for c in s.lanes] for s in seats if s.special is None}
    n = len(seats)
    pairs: list[dict] = []
    for i in range(n):
        for j in range(i + 1, n):
            a, b = seats[i], seats[j]
            if banker is not None and banker not in (a.id, b.id):
                continue  # players compare only with the banker
            lanes, scoop, score = _pair(a, b, keys, rules, banker)
            pairs.append({"a": a.id, "b": b.id, "lanes": lanes, "scoop": scoop, "score": score})

    home_run = None
    if banker is None and n >= 3:
        for s in seats:
            mine = [p for p in pairs if s.id in (p["a"], p["b"])]
            if all(
                p["lanes"] is not None
                and all(x == (1 if p["a"] == s.id else -1) for x in p["lanes"])
                for p in mine
            ):
                home_run = s.id
                for p in mine:
                    p["score"] *= 2
    # Extended: with 3+ players a special that beats every other player is doubled.
    if rules.preset is Preset.EXTENDED and n >= 3 and banker is None:
        for s in seats:
            if s.special is None:
                continue
            mine = [p for p in pairs if s.id in (p["a"], p["b"])]
            if all((p["score"] if p["a"] == s.id else -p["score"]) > 0 for p in mine):
                for p in mine:
                    p["score"] *= 2
    if banker is not None:
        for p in pairs:
            p["score"] = max(-7, min(7, p["score"]))

    totals = {s.id: 0 for s in seats}
    for p in pairs:
        totals[p["a"]] += p["score"]
        totals[p["b"]] -= p["score"]
    if escaped and rules.escape_penalty:
        leavers = list(escaped)
        for leaver in leavers:
            for s in seats:
                if s.id not in leavers and totals[s.id] < 0:
                    totals[leaver] += totals[s.id]  # the leaver pays the stayer's loss
                    totals[s.id] = 0
            totals[leaver] -= 10 * rules.base

    players = []
    for s in seats:
        if s.special is not None:
            players.append(
                {"id": s.id, "special": s.special[0], "lanes": None, "total": totals[s.id]}
            )
        else:
            lanes_out = [
                {"category": CATEGORY_SLUGS[k[0]], "points": lane_points(i, k[0])}
                for i, k in enumerate(keys[s.id])
            ]
            players.append({"id": s.id, "special": None, "lanes": lanes_out, "total": totals[s.id]})
    return {"players": players, "pairs": pairs, "home_run": home_run, "totals": totals}
