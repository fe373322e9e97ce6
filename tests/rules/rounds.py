"""Random rounds for the differential tests, in three shapes: reference seats,
engine PlayerHands and a docs/judge.md input line, all describing the same round."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.rules import Arrangement, PlayerHand, detect_special
from bot.rules.cards import Card

from .deals import (
    Lanes,
    Table,
    deal_hands,
    fouled_arrangement,
    legal_arrangement,
    mirrored_round,
    random_split,
    random_table,
)
from .reference_settle import Seat
from .reference_specials import detect

REPO_ROOT = Path(__file__).resolve().parents[2]

IDS = ("A", "B", "C", "D", "E")


@dataclass
class Round:
    table: Table
    seats: list[Seat]
    hands: list[PlayerHand]
    banker: str | None
    escaped: tuple[str, ...]
    line: dict  # the judge input
    fouled_id: str | None = None  # the seat given a fouled arrangement, if any

    def describe(self) -> str:
        return json.dumps(self.line, separators=(",", ":"))


def tokens(cards: Sequence[Card]) -> list[str]:
    return [c.token for c in cards]


def engine_special(cards: Sequence[Card], rules) -> tuple[str, bool] | None:
    s = detect_special(cards, rules)
    return None if s is None else (s.hand.value, s.natural)


def make_round(
    rng: random.Random, *, fouled: bool = False, special_rate: float = 0.3
) -> Round | None:
    """A random round, or None when the dice produced nothing usable.

    Specials are declared only where engine and reference agree on the special
    (disagreements are the specials test's business); with ``fouled`` one seat
    gets a fouled arrangement (the judge must refuse the line)."""
    table = random_table(rng)
    rules = table.rules
    ids = IDS[: rules.players]
    per_seat: list[tuple[Lanes | None, list[Card] | None]] = []
    if not fouled and rng.random() < 0.25:
        mirrored = mirrored_round(rng, rules)
        if mirrored is None:
            return None
        per_seat = [(lanes, None) for lanes in mirrored]
    else:
        for cards in deal_hands(rng, rules, special_rate=special_rate):
            ref = detect(cards, rules)
            if ref is not None and rng.random() < 0.7:
                if engine_special(cards, rules) != (ref[0], ref[2]):
                    return None
                per_seat.append((None, cards))
                continue
            lanes = legal_arrangement(cards, rng, rules)
            if lanes is None:
                return None
            per_seat.append((lanes, None))
    fouled_id = None
    if fouled:
        k = rng.randrange(len(per_seat))
        fouled_id = ids[k]
        lanes, cards = per_seat[k]
        all_cards = cards if cards is not None else [c for lane in lanes for c in lane]
        bad = fouled_arrangement(all_cards, rng, rules)
        if bad is None:
            return None
        per_seat[k] = (bad, None)

    seats, hands, players = [], [], []
    for pid, (lanes, cards) in zip(ids, per_seat, strict=True):
        if cards is not None:
            ref = detect(cards, rules)
            eng = detect_special(cards, rules)
            seats.append(Seat(pid, special=ref))
            arr = eng.arrangement or Arrangement.of(*random_split(cards, rng, rules))
            hands.append(PlayerHand(pid, arr, special=eng))
            if eng.arrangement is not None and rng.random() < 0.3:
                # The lanes form of a declaration: the arrangement the player shows.
                players.append({"id": pid, **eng.arrangement.to_tokens(), "declare": True})
            else:
                players.append({"id": pid, "cards": tokens(cards), "declare": True})
        else:
            seats.append(Seat(pid, lanes=lanes))
            hands.append(PlayerHand(pid, Arrangement.of(*lanes)))
            players.append(
                {
                    "id": pid,
                    "head": tokens(lanes[0]),
                    "middle": tokens(lanes[1]),
                    "tail": tokens(lanes[2]),
                }
            )
    banker = rng.choice(ids) if rules.banker else None
    escaped: tuple[str, ...] = ()
    if rng.random() < 0.35:
        escaped = tuple(rng.sample(ids, rng.choice([1, 1, 2]) if len(ids) > 2 else 1))
    line = {
        "preset": table.preset,
        "options": table.options,
        "players": players,
        "banker": banker,
        "escaped": list(escaped),
    }
    return Round(table, seats, hands, banker, escaped, line, fouled_id)


def rounds(
    seed: int, count: int, *, fouled: bool = False, special_rate: float = 0.3
) -> list[Round]:
    out = []
    rng = random.Random(seed)
    while len(out) < count:
        r = make_round(rng, fouled=fouled, special_rate=special_rate)
        if r is not None:
            out.append(r)
    return out


def json_diff(want, got, path: str = "") -> list[str]:
    """Paths where two JSON values differ (short, for failure messages)."""
    if isinstance(want, dict) and isinstance(got, dict):
        out = []
        for k in sorted(set(want) | set(got), key=str):
            if k not in got or k not in want:
                out.append(f"{path}.{k}: want {want.get(k)!r} got {got.get(k)!r}")
            else:
                out += json_diff(want[k], got[k], f"{path}.{k}")
        return out
    if isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
        out = []
        for i, (a, b) in enumerate(zip(want, got, strict=True)):
            out += json_diff(a, b, f"{path}[{i}]")
        return out
    return [] if want == got else [f"{path}: want {want!r} got {got!r}"]


def seats_from_line(line: dict):
    """(rules, seats, banker, escaped) of a docs/judge.md input line, for the reference."""
    from bot.rules import make_rules, parse_cards

    rules = make_rules(line["preset"], len(line["players"]), line.get("options") or {})
    seats = []
    for p in line["players"]:
        if p.get("declare"):
            cards = (
                parse_cards(p["cards"])
                if "cards" in p
                else parse_cards(p["head"] + p["middle"] + p["tail"])
            )
            seats.append(Seat(p["id"], special=detect(cards, rules)))
        else:
            lanes = (parse_cards(p["head"]), parse_cards(p["middle"]), parse_cards(p["tail"]))
            seats.append(Seat(p["id"], lanes=lanes))
    return rules, seats, line.get("banker"), tuple(line.get("escaped") or ())


def run_judge(lines: list[dict]) -> tuple[int, list[dict]]:
    """Every line through one `thirteen judge` process: its exit status and answers."""
    text = "".join(json.dumps(line) + "\n" for line in lines)
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "judge"],
        input=text,
        capture_output=True,
        text=True,
        timeout=600,
        cwd=REPO_ROOT,  # `python -m bot` from the checkout, wherever pytest was started
    )
    out = [json.loads(x) for x in proc.stdout.splitlines() if x.strip()]
    assert len(out) == len(lines), proc.stderr[-2000:]
    return proc.returncode, out
