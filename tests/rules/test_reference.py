"""The reference itself against the statements of docs/rules.md (so the differential
tests compare the engine with something that is right on the documented cases)."""

from __future__ import annotations

import random

import pytest

from bot.rules import make_rules, parse_cards

from .deals import deck
from .reference import FIVE, FLUSH, HIGH, STRAIGHT_FLUSH, TRIPS, is_fouled, lane_key
from .reference_specials import detect

CLASSIC = make_rules("classic", 4)
JOKERS = make_rules("classic", 4, {"jokers": 2})
EXT_JOKERS = make_rules("extended", 4, {"jokers": 2})
LOW_WHEEL = make_rules("classic", 4, {"wheel": "low"})
WILD6 = make_rules("classic", 4, {"wild_rank": "6"})
FIVE_SPADES = make_rules("classic", 5, {"added_suit": "s"})


def key(cards: str, rules=CLASSIC):
    return lane_key(parse_cards(cards), rules)


def strictly_descending(lanes: list[str], rules) -> bool:
    keys = [key(c, rules) for c in lanes]
    return all(a > b for a, b in zip(keys, keys[1:], strict=False))


def test_seed_002_joker_chains() -> None:
    assert strictly_descending(
        ["As Ah Ad Ac 2s", "As Ah Ad BJ 2s", "3s 3h 3d 3c 2s", "3s 3h 3d BJ 2s", "3s 3h BJ SJ 2s"],
        JOKERS,
    )
    assert strictly_descending(["Ts Js Qs Ks As", "Ts Js Qs Ks BJ", "7s 8s 9s Ts Js"], JOKERS)
    assert key("4s 4h 4d 4c BJ", JOKERS)[0] == FIVE
    assert key("4s 4h 4d 4c BJ", JOKERS) > key("4s 4h 4d BJ SJ", JOKERS)


def test_joker_flush_takes_the_best_missing_rank() -> None:
    # 2 7 9 10 of hearts + joker: A-high flush (a flush has five different ranks).
    assert key("2h 7h 9h Th BJ", JOKERS)[:2] == (FLUSH, (14, 10, 9, 7, 2))
    # A joker may copy a card held elsewhere: A A A A + joker is five of a kind.
    assert key("As Ah Ad Ac BJ", JOKERS)[:2] == (FIVE, (14,))


def test_equal_hands_tie_and_same_joker_count_ties() -> None:
    assert key("As Kh Qd 9c 7s") == key("Ah Kd Qc 9s 7h")
    assert key("Qs Qh Qd BJ 2s", JOKERS) == key("Qc Qh Qd SJ 2h", JOKERS)


def test_straight_order() -> None:
    broadway, wheel, king = key("Ts Jh Qd Kc As"), key("As 2h 3d 4c 5s"), key("9s Th Jd Qc Ks")
    assert broadway > wheel > king > key("2s 3h 4d 5c 6s")
    assert key("As 2h 3d 4c 5s", LOW_WHEEL) < key("2s 3h 4d 5c 6s", LOW_WHEEL)
    assert key("Ks As 2h 3d 4c")[0] == HIGH  # no wrap-around
    assert key("As 2s 3s 4s 5s")[0] == STRAIGHT_FLUSH
    assert key("As 2s 3s 4s 5s") > key("9s Ts Js Qs Ks")


def test_head_is_never_straight_or_flush_and_compares_with_middle() -> None:
    assert key("Qs Ks As")[0] == HIGH
    assert key("Ah Ad As")[0] == TRIPS
    # Trips head vs trips middle of the same rank: a longer rank list wins.
    assert key("Ah Ad BJ", JOKERS) < key("As Ac SJ 3c 2d", JOKERS)
    assert key("9s 8h 7d") < key("9c 8d 7h 3s 2s")
    assert key("9s 9h 7d") < key("9c 9d 7h 3s 2s")


def test_foul_check() -> None:
    assert not is_fouled(
        *(parse_cards(x) for x in ("2s 3h 5d", "Ks Kh 7d 8c 9s", "As Ah Ad 4c 6s")), CLASSIC
    )
    assert is_fouled(
        *(parse_cards(x) for x in ("Ks Kh 5d", "Qs Qh 7d 8c 9s", "As Ah Ad 4c 6s")), CLASSIC
    )
    # Equal is allowed; the joker tie-break counts in the foul check.
    assert not is_fouled(
        *(parse_cards(x) for x in ("2s 3h 5d", "Ks Kh 7d 8c 9s", "Kd Kc 7h 8d 9c")), CLASSIC
    )
    lanes = [parse_cards(x) for x in ("2s 3h 5d", "Ks Kh Kd 8c 9s", "Qs Qh BJ 8d 9c")]
    assert is_fouled(*lanes, JOKERS)  # natural K trips middle above joker K trips tail


def test_sixty_five_card_deck_flushes_and_added_suit() -> None:
    two_pair, one_pair, no_pair = "Kh Kh 9h 9h 2h", "Ah Ah Kh Qh Jh", "Ah Kh Qh Jh 9h"
    plain = make_rules("classic", 5, {"added_suit": "h"})
    assert key(two_pair, plain) > key(one_pair, plain) > key(no_pair, plain)
    assert key("2h 3h 4h 5h 6h", FIVE_SPADES) > key("2s 3s 4s 5s 6s", FIVE_SPADES)
    assert key("Ah 9h 7h 5h 3h", FIVE_SPADES) > key("As 9s 7s 5s 3s", FIVE_SPADES)
    assert key("As As Ah Ad Ac", FIVE_SPADES)[0] == FIVE


def test_wild_rank_cards() -> None:
    assert key("6s 6h As Ad Ac", WILD6) == (FIVE, (14,), 1, -2)
    # Wild cards count against naturalness only when they stand for another card.
    assert key("6s 7s 8s 9s Ts", WILD6) < key("7h 8h 9h Th Jh", WILD6)
    assert key("6s 7s 8s 9s Ts", WILD6)[:2] == key("7h 8h 9h Th Jh", WILD6)[:2]


@pytest.mark.parametrize("seed", range(12))
def test_substitution_reduction_matches_all_52_cards(seed: int) -> None:
    """The reference's suit reduction for wild cards changes no key."""
    rng = random.Random(seed)
    rules = [JOKERS, WILD6, EXT_JOKERS][seed % 3]
    pool = deck(rules)
    wilds = [c for c in pool if c.rank > 14 or c.rank == rules.wild_rank]
    others = [c for c in pool if c not in wilds]
    size = rng.choice([3, 5])
    n_wild = min(len(wilds), rng.choice([1, 2, 2, 3]))
    lane = rng.sample(wilds, n_wild) + rng.sample(others, size - n_wild)
    assert lane_key(lane, rules) == lane_key(lane, rules, full_52=True)


def spec(cards: str, rules):
    return detect(parse_cards(cards), rules)


def test_specials_of_rules_md() -> None:
    dragon = "2s 3h 4s 5h 6s 7h 8s 9h Ts Jh Qs Kh As"
    assert spec(dragon, CLASSIC) == ("dragon", 36, True)
    assert spec("2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As", CLASSIC) == ("supreme_dragon", 72, True)
    # classic: a hand holding a joker cannot declare, except six of a kind.
    assert spec("2s 3h 4s 5h 6s 7h 8s 9h Ts Jh Qs Kh BJ", JOKERS) is None
    assert spec("As Ah Ad Ac BJ SJ 2s 3h 5d 7c 8s 9h Jd", JOKERS) == ("six_of_a_kind", 5, False)
    # extended: jokers may complete a special, which is then not natural.
    assert spec("2s 3h 4s 5h 6s 7h 8s 9h Ts Jh Qs Kh BJ", EXT_JOKERS) == ("dragon", 26, False)
    # A wild 6 standing as the dragon's 6 is natural.
    assert spec("2s 3h 4s 5h 6s 7h 8s 9h Ts Jh Qs Kh As", WILD6) == ("dragon", 36, True)
    ext = make_rules("extended", 4)
    assert spec("Js Jh Jd Qs Qh Qd Ks Kh Kd As Ah Ad Jc", ext) == ("twelve_royals", 24, True)
    assert spec("2s 2h 2d 2c 3s 3h 3d 3c 4s 4h 4d 4c 9s", ext) == ("three_quads", 16, True)
    # A four of a kind counts as two pairs: six pairs in classic.
    assert spec("As Ah Ad Ac Ks Kh Qs Qh Js Jh Ts Th 9d", CLASSIC) == ("six_pairs", 5, True)
    # Five pairs + trips in extended (above six pairs); six pairs in classic.
    fpt = "As Ah Ad Ks Kh Qs Qh Js Jh Ts Th 2d 2c"
    assert spec(fpt, ext) == ("five_pairs_trips", 5, True)
    assert spec(fpt, CLASSIC) == ("six_pairs", 5, True)
    # Three straights need a 3-5-5 split: A-2-3 head, straights in middle and tail.
    assert spec("As 2h 3d 4c 5s 6h 7d 8c 9s Th Jd Qc Kc", CLASSIC)[0] == "dragon"
    assert spec("As 2h 3d 4c 5s 6h 7d 8c 9s Qh Jd Tc Kc", CLASSIC)[0] == "dragon"
    assert spec("Qs Kh Ad 4c 5s 6h 7d 8c 9s Th Jd Qc Kc", CLASSIC) == ("three_straights", 5, True)
    assert spec("2h 3h Ah 2c 3c 6c 8c Tc 2d 3d 6d 8d Td", CLASSIC) == ("three_flushes", 5, True)
    assert spec("2h 3h 4h 3c 4c 5c 6c 7c 9d Td Jd Qd Kd", ext) == (
        "three_straight_flushes",
        18,
        True,
    )
    assert spec("8s 9h Ts Jh Qs Kh As 8d 9c Td Jc Qd Kc", ext) == ("all_high", 10, True)
    assert spec("2s 3h 4s 5h 6s 7h 8s 2d 3c 4d 5c 6d 7c", ext) == ("all_low", 10, True)
