"""The expected-points algebra agrees with bot.rules.settle on certain outcomes.

With opponents modelled as always holding one fixed arrangement, the model's
expectation has no randomness left and must equal the settlement of the
round (scoop doubling, home run, banker cap and ties included).
"""

from __future__ import annotations

import numpy as np
import pytest

from bot.rules import Arrangement, Lane, PlayerHand, make_rules, parse_cards, settle
from bot.solver.codes import lane_code
from bot.solver.model import LaneDist, OpponentModel, full_value, lane_values, table_of
from bot.solver.search import Rows, evaluate_hand

OPPONENT = ("2c 3d 5h", "7s 7h 9d Jc Kd", "Ts Th Td 4c 6s")  # high card, pair, trips
OPPONENT_SUITS = [
    ("2d 3h 5s", "7d 7c 9h Js Kh", "Tc Th Td 4d 6h"),
    ("2h 3s 5d", "7d 7s 9c Jh Kc", "Ts Tc Td 4h 6d"),
]

SCOOP = ("Qs Qh 4d", "8s 8h 8d 2s 3c", "9s 9h 9c 9d 2d")  # beats every lane, tail quads
SPLIT = ("Qs 4h 5d", "6s 6h 8d 2s 3c", "Ks Kh Kc 9d 2d")  # wins head and tail, loses middle
TIE_HEAD = ("2s 3h 5d", "8s 8h 8d 2h 3c", "9s 9h 9c 9d 2d")  # ties head, wins the rest


def _arr(lanes) -> Arrangement:
    return Arrangement.of(*(parse_cards(x) for x in lanes))


def _model(rules) -> OpponentModel:
    opp = _arr(OPPONENT)
    lanes = tuple(LaneDist.of(lane, np.array([lane_code(opp.lane(lane), rules)])) for lane in Lane)
    # Opponents with identical lanes tie each other: they never sweep the table.
    return OpponentModel(lanes, np.array([0]), np.array([0]), 0.0)


def _expected(mine, rules, players: int, banker_seat: bool = False) -> float:
    arr = _arr(mine)
    cards = list(arr.head + arr.middle + arr.tail)
    he = evaluate_hand(cards, rules)
    five = [tuple(r) for r in he.sp.five.tolist()]
    three = [tuple(r) for r in he.sp.three.tolist()]
    rows = Rows(
        np.array([five.index((8, 9, 10, 11, 12))]),
        np.array([five.index((3, 4, 5, 6, 7))]),
        np.array([three.index((0, 1, 2))]),
        np.zeros(1),
    )
    table = table_of(rules, players, banker_seat)
    return float(full_value(he, rows, _model(rules), table)[0])


def _settled(mine, rules, players: int, banker: str | None = None) -> int:
    opps = [OPPONENT, *OPPONENT_SUITS][: players - 1]
    hands = [PlayerHand("me", _arr(mine))] + [
        PlayerHand(f"o{i}", _arr(o)) for i, o in enumerate(opps)
    ]
    return settle(hands, rules, banker=banker).totals["me"]


@pytest.mark.parametrize("mine", [SCOOP, SPLIT, TIE_HEAD])
@pytest.mark.parametrize(
    "preset, players, options",
    [
        ("classic", 4, {}),
        ("classic", 3, {"scoop_double": False}),
        ("classic", 2, {}),
        ("extended", 4, {}),
        ("extended", 3, {"scoop_double": False}),
    ],
)
def test_certain_outcomes_match_settlement(mine, preset, players, options) -> None:
    rules = make_rules(preset, players, options)
    assert _expected(mine, rules, players) == pytest.approx(_settled(mine, rules, players))


@pytest.mark.parametrize("mine", [SCOOP, SPLIT, TIE_HEAD])
def test_banker_mode_matches_settlement(mine) -> None:
    rules = make_rules("classic", 4, {"banker": True})
    # As a player against the banker (the banker holds the opponent hand).
    hands = [PlayerHand("me", _arr(mine)), PlayerHand("b", _arr(OPPONENT))]
    hands += [PlayerHand(f"x{i}", _arr(o)) for i, o in enumerate(OPPONENT_SUITS)]
    want = settle(hands, rules, banker="b").totals["me"]
    assert _expected(mine, rules, 4) == pytest.approx(want)
    # As the banker against three players holding the opponent hand.
    hands = [PlayerHand("me", _arr(mine)), PlayerHand("p", _arr(OPPONENT))]
    hands += [PlayerHand(f"x{i}", _arr(o)) for i, o in enumerate(OPPONENT_SUITS)]
    want = settle(hands, rules, banker="me").totals["me"]
    assert _expected(mine, rules, 4, banker_seat=True) == pytest.approx(want)


def test_lane_values_are_the_separable_part() -> None:
    rules = make_rules("classic", 2, {"scoop_double": False})
    arr = _arr(SPLIT)
    he = evaluate_hand(list(arr.head + arr.middle + arr.tail), rules)
    v_tail, v_mid, v_head = lane_values(he, _model(rules), table_of(rules, 2))
    # Without scoops or home runs the expectation is the sum of the lane parts.
    five = [tuple(r) for r in he.sp.five.tolist()]
    three = [tuple(r) for r in he.sp.three.tolist()]
    t, m, h = five.index((8, 9, 10, 11, 12)), five.index((3, 4, 5, 6, 7)), three.index((0, 1, 2))
    assert v_tail[t] + v_mid[m] + v_head[h] == pytest.approx(_settled(SPLIT, rules, 2))
