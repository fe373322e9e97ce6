"""The review (复盘) of a settled round, per person at the table.

For each person: their arrangement (or the special they declared), the
solver's best for the same cards, the expected points of both against this
table (the model suggestions use: ``bot.solver.suggest`` and
``bot.solver.review``), and what each actually scored against the hands
really played (``bot.rules.settle`` with only that seat's hand changed).

Computed once, in a worker thread, when the round is paid; stored in the
round's state and with the settlement (``detail["review"]``), never
recomputed. AI seats get none. Numbers are rounded to 2 decimals.
"""

from __future__ import annotations

from typing import Any

from bot.core.review import SeatReview
from bot.core.room import Room
from bot.core.round import Round
from bot.rules.options import Rules
from bot.rules.settlement_types import SpecialResult
from bot.rules.types import Arrangement

from . import solving
from .round import opponents_of, round_rules


def review_round(room: Room) -> dict[str, SeatReview]:
    """The review of every person dealt into the current round (its hands
    all done: called at the end of the showdown)."""
    rnd = room.rnd
    rules = round_rules(rnd)
    return {
        key: SeatReview.from_json(review_seat(rnd, key, rules, opponents_of(room, key)))
        for key in rnd.seats
        if not key.startswith("ai:")
    }


def review_seat(rnd: Round, key: str, rules: Rules, opponents: list[str | None]) -> dict[str, Any]:
    """One person's review, as it is stored."""
    from bot.solver import suggest
    from bot.solver.review import expected_of, special_expected

    hand = rnd.hands[key]
    cards = hand.card_list()
    players = len(rnd.seats)
    banker = rnd.banker == key
    s = suggest(cards, rules, players=players, top=1, banker=banker, opponents=opponents or None)
    best = s.items[0]
    best_special = s.special if s.special is not None and s.declare_recommended else None
    best_ev = s.special_score if best_special is not None else best.score
    mine_special = solving.detect(hand.kept_cards(), rules) if hand.declared else None
    if mine_special is not None:
        mine_ev = special_expected(mine_special, rules, players=players, banker=banker)
    else:
        mine_ev = expected_of(
            cards, hand.arrangement(), rules, players=players, banker=banker, opponents=opponents
        )
    totals = rnd.showdown.settlement.totals
    best_tokens = best.arrangement.to_tokens()
    if best_special is not None and best_special.arrangement is not None:
        best_tokens = best_special.arrangement.to_tokens()
    return {
        "mine": hand.arrangement_tokens(),
        "declared": hand.declared,
        "auto": hand.auto,
        "mine_ev": round(mine_ev, 2),
        "best": {k: list(v) for k, v in best_tokens.items()},
        "best_declare": best_special.hand.value if best_special is not None else None,
        "best_ev": round(float(best_ev or 0.0), 2),
        "actual": int(totals.get(key, 0)),
        "best_actual": settle_instead(rnd, rules, key, best.arrangement, best_special),
        "given_up": round(float(best_ev or 0.0) - mine_ev, 2),
    }


def settle_instead(
    rnd: Round,
    rules: Rules,
    key: str,
    arrangement: Arrangement,
    special: SpecialResult | None,
) -> int:
    """What ``key`` would have scored with ``arrangement`` (or declaring
    ``special``) against the hands really played."""
    from bot.rules.settlement import settle
    from bot.rules.settlement_types import PlayerHand

    hands = []
    for seat in rnd.seats:
        if seat == key:
            shown = special.arrangement if special and special.arrangement else arrangement
            hands.append(PlayerHand(id=seat, arrangement=shown, special=special))
            continue
        hand = rnd.hands[seat]
        declared = solving.detect(hand.kept_cards(), rules) if hand.declared else None
        hands.append(PlayerHand(id=seat, arrangement=hand.arrangement(), special=declared))
    result = settle(hands, rules, banker=rnd.banker, escaped=tuple(rnd.escaped))
    return int(result.totals.get(key, 0))
