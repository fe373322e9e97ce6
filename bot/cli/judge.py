"""``thirteen judge``: settle rounds given as JSON Lines (docs/judge.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.core.state import LANE_NAMES
from bot.rules import (
    Arrangement,
    CardError,
    PlayerHand,
    detect_special,
    parse_card,
    settle,
)
from bot.rules.cards import Card, check_deck
from bot.rules.foul import check_foul
from bot.rules.options import Rules

from .jsonl import InputError, main_loop, rules_from, shown

MAX_ID_CHARS = 64


def _cards(pid: str, tokens: Any, what: str) -> tuple[Card, ...]:
    if not isinstance(tokens, list):
        raise InputError(f"player {pid}: {what} must be a list of card tokens, not {shown(tokens)}")
    out = []
    for t in tokens:
        try:
            out.append(parse_card(t))
        except CardError:
            raise InputError(f"player {pid}: unknown card token {shown(t)}") from None
    return tuple(out)


def _nth(number: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` (a line holds at most 5 players)."""
    return f"{number}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(number, 'th') }"


def _hand(p: Any, rules: Rules, number: int) -> PlayerHand:
    """The hand of ``p``, the ``number``-th player of the line (from 1)."""
    if not isinstance(p, dict):
        raise InputError(f"the {_nth(number)} player must be an object, not {shown(p)}")
    if "id" not in p:
        raise InputError(f"the {_nth(number)} player has no id")
    if not isinstance(p["id"], (str, int)) or isinstance(p["id"], bool):
        raise InputError(
            f"the {_nth(number)} player's id must be text or a whole number, not {shown(p['id'])}"
        )
    pid = str(p["id"])
    if len(pid) > MAX_ID_CHARS:
        raise InputError(f"the {_nth(number)} player's id is longer than {MAX_ID_CHARS} characters")
    declare = p.get("declare", False)
    if not isinstance(declare, bool):
        raise InputError(f"player {pid}: declare must be true or false")
    has_lanes = any(k in p for k in LANE_NAMES)
    if has_lanes and "cards" in p:
        raise InputError(f"player {pid}: give either head/middle/tail or cards, not both")
    if has_lanes:
        missing = [k for k in LANE_NAMES if k not in p]
        if missing:
            raise InputError(
                f"player {pid}: {' and '.join(missing)} {'is' if len(missing) == 1 else 'are'} "
                "missing; give head, middle and tail (3, 5 and 5 card tokens)"
            )
        head, middle, tail = (_cards(pid, p.get(k), k) for k in LANE_NAMES)
        if (len(head), len(middle), len(tail)) != (3, 5, 5):
            raise InputError(
                f"player {pid}: wrong lane sizes: head, middle and tail need 3, 5 and 5 cards, "
                f"not {len(head)}, {len(middle)} and {len(tail)}"
            )
        arrangement = Arrangement.of(head, middle, tail)
    elif "cards" in p:
        if not declare:
            raise InputError(
                f'player {pid}: cards without "declare": true; give head, middle and tail to compare normally'
            )
        cards = _cards(pid, p["cards"], "cards")
        if len(cards) != 13:
            raise InputError(f"player {pid}: cards must hold 13 cards, not {len(cards)}")
        arrangement = Arrangement.of(cards[:3], cards[3:8], cards[8:])
    else:
        raise InputError(f'player {pid}: give head, middle and tail, or cards with "declare": true')
    if declare:
        special = detect_special(arrangement.cards, rules)
        if special is None:
            raise InputError(
                f"player {pid}: declares a special hand, but the cards make none under the {rules.preset.value} preset"
            )
        return PlayerHand(pid, arrangement, special)
    foul = check_foul(arrangement, rules)
    if foul:
        raise InputError(f"player {pid}: {foul.message}")
    return PlayerHand(pid, arrangement)


def judge(obj: dict[str, Any]) -> dict[str, Any]:
    players = obj.get("players")
    if not isinstance(players, list):
        raise InputError("players must be a list of 2 to 5 players")
    rules = rules_from(obj, len(players))
    hands = [_hand(p, rules, n) for n, p in enumerate(players, 1)]
    ids = [h.id for h in hands]
    for n, pid in enumerate(ids):
        if pid in ids[:n]:
            first = ids.index(pid) + 1
            raise InputError(
                f"the {_nth(first)} and {_nth(n + 1)} players have the same id {shown(pid)}"
            )
    problem = check_deck([c for h in hands for c in h.arrangement.cards], rules.deck)
    if problem:
        raise InputError(f"cards: {problem}")
    banker = obj.get("banker")
    if rules.banker:
        if banker is None:
            raise InputError("banker mode is on: name the banker's id in banker")
        if str(banker) not in ids:
            raise InputError(f"the banker {shown(banker)} is not one of the players")
        banker = str(banker)
    elif banker is not None:
        raise InputError("a banker is named but the banker option is off")
    escaped = obj.get("escaped") or []
    if not isinstance(escaped, list):
        raise InputError("escaped must be a list of player ids")
    escaped = [str(e) for e in escaped]
    for e in escaped:
        if e not in ids:
            raise InputError(f"the escaped player {shown(e)} is not one of the players")
    for n, e in enumerate(escaped):
        if e in escaped[:n]:
            raise InputError(f"the player {shown(e)} is listed as escaped twice")
    return settle(hands, rules, banker=banker, escaped=escaped).to_json()


DESCRIPTION = """Settle rounds of Thirteen Water: one JSON object per input line (the
preset, the options and each player's head, middle and tail, or 13 cards
declared as a special hand), one JSON object per output line with each
player's lanes, every pair's score and the totals. A line that cannot be
settled gets {"ok": false, "error": "..."} and the rest still run; the exit
status is 0 when every line was ok, else 2. The format, with worked
examples, is in docs/judge.md of the source tree."""

EPILOG = """example (A's three lanes all beat B's: a scoop, doubled):
  echo '{"preset": "classic", "players": [{"id": "A", "head": ["As","Ah","Ad"], \
"middle": ["Ks","Kh","Kd","2c","2d"], "tail": ["Qs","Js","Ts","9s","8s"]}, {"id": "B", \
"head": ["3h","4c","6d"], "middle": ["5s","5h","7d","7c","Jc"], \
"tail": ["2h","7h","9h","Th","Jh"]}]}' | thirteen judge"""


def main(argv: Sequence[str] | None = None) -> int:
    return main_loop(judge, argv, "thirteen judge", DESCRIPTION, EPILOG)
