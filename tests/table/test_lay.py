"""LAY: the arranging page's whole draft placed in one action, with the
same rules as taps (13 cards: the tail is the rest; 16: the tail is laid
and three cards are left out)."""

from __future__ import annotations

import pytest

from bot.table import hand as H
from bot.table.refused import Refused

TOKENS = ["As", "Ah", "Kd", "Kc", "Qs", "Js", "Ts", "9h", "8h", "7c", "5d", "4d", "2s"]
EXTRA = [*TOKENS, "3c", "3d", "6h"]


def test_a_full_draft_is_the_taps_result_in_one_action() -> None:
    hand = H.new_hand(TOKENS)
    rest = [i for i in hand["order"] if i not in range(8)]
    H.lay(hand, H.lay_arg([0, 1, 2], [3, 4, 5, 6, 7], rest))
    assert H.lanes(hand) == ([0, 1, 2], [3, 4, 5, 6, 7], rest)
    assert hand["tail"] == []  # 13 cards: the tail stays "the rest"
    H.undo(hand)
    assert H.lanes(hand) == ([], [], [])


def test_a_partial_draft_and_a_sixteen_card_tail() -> None:
    hand = H.new_hand(TOKENS)
    H.lay(hand, H.lay_arg([5], [0, 1], []))
    assert H.lanes(hand) == ([5], [0, 1], [])
    sixteen = H.new_hand(EXTRA)
    H.lay(sixteen, H.lay_arg([0, 1, 2], [3, 4, 5, 6, 7], [8, 9, 10, 11, 15]))
    assert H.lanes(sixteen)[2] == [8, 9, 10, 11, 15] and H.complete(sixteen)


@pytest.mark.parametrize(
    "arg",
    ["", "012", "01-2", "001-34567-", "0z1-34567-", "0123-4-", "012-345678-", "d12--"],
)
def test_a_malformed_draft_changes_nothing(arg: str) -> None:
    hand = H.new_hand(TOKENS)
    H.lay(hand, H.lay_arg([0], [], []))
    with pytest.raises(Refused):
        H.lay(hand, arg)
    assert H.lanes(hand) == ([0], [], [])


def test_with_thirteen_cards_a_tail_is_only_the_rest() -> None:
    hand = H.new_hand(TOKENS)
    with pytest.raises(Refused, match="err.tail_is_rest"):
        H.lay(hand, H.lay_arg([0, 1], [], [2, 3, 4]))
    with pytest.raises(Refused, match="err.tail_is_rest"):
        H.lay(hand, H.lay_arg([0, 1, 2], [3, 4, 5, 6, 7], [8, 9, 10, 11]))
    hand["done"] = True
    with pytest.raises(Refused, match="err.already_done"):
        H.lay(hand, H.lay_arg([0], [], []))
