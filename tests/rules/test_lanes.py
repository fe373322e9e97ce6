from collections import Counter
from itertools import combinations

import pytest

from bot.rules import Category, evaluate_lane, lane_points, make_rules, parse_cards
from bot.rules.cards import DeckSpec
from bot.rules.types import Lane

C = Category
CLASSIC = make_rules("classic", 4)
JOKERS = make_rules("classic", 4, {"jokers": 2})


def ev(text, rules=CLASSIC):
    return evaluate_lane(parse_cards(text), rules)


@pytest.mark.slow
def test_all_five_card_hands_fall_into_the_standard_counts():
    counts = Counter(
        evaluate_lane(h, CLASSIC).category for h in combinations(DeckSpec().cards(), 5)
    )
    assert sum(counts.values()) == 2_598_960
    assert counts == {
        C.STRAIGHT_FLUSH: 40,
        C.FOUR_OF_A_KIND: 624,
        C.FULL_HOUSE: 3_744,
        C.FLUSH: 5_108,
        C.STRAIGHT: 10_200,
        C.THREE_OF_A_KIND: 54_912,
        C.TWO_PAIR: 123_552,
        C.ONE_PAIR: 1_098_240,
        C.HIGH_CARD: 1_302_540,
    }


def test_all_three_card_hands_fall_into_the_standard_counts():
    counts = Counter(
        evaluate_lane(h, CLASSIC).category for h in combinations(DeckSpec().cards(), 3)
    )
    assert counts == {C.THREE_OF_A_KIND: 52, C.ONE_PAIR: 3_744, C.HIGH_CARD: 18_304}


def test_head_never_makes_a_straight_or_flush():
    assert ev("Qs Ks As").category is C.HIGH_CARD
    assert ev("2h 3h 4h").category is C.HIGH_CARD


def test_category_ladder_and_tie_breaks():
    ladder = [
        "As Ks Qs Js 9d",  # high card
        "2s 2h 3d 4c 5s",  # pair
        "2s 2h 3d 3c 4s",  # two pair
        "2s 2h 2d 3c 4s",  # trips
        "6s 5h 4d 3c 2s",  # straight
        "2h 4h 6h 8h Th",  # flush
        "2s 2h 2d 3c 3s",  # full house
        "2s 2h 2d 2c 3s",  # quads
        "6h 5h 4h 3h 2h",  # straight flush
    ]
    values = [ev(h) for h in ladder]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert ev("Ks Kh Qd Qc 2s") > ev("Ks Kh Jd Jc As")  # high pair then low pair
    assert ev("Ks Kh Qd Qc 3s") > ev("Kd Kc Qs Qh 2s")  # then kicker
    assert ev("3s 3h 3d Ac Ks") < ev("4s 4h 4d 2c 3s")  # trips rank first
    assert ev("As Kh 9d 7c 5s") > ev("Ad Kc 9s 7h 4s")  # high to low
    assert ev("As Kh 9d 7c 5s") == ev("Ad Kc 9s 7h 5d")  # suits never break a tie


def test_full_house_compares_trips_then_pair():
    assert ev("3s 3h 3d 2c 2s") > ev("2d 2h 2c As Ah")
    assert ev("3s 3h 3d Ac As") > ev("3s 3h 3d Kc Ks")


def test_wheel_is_second_highest_by_default():
    broadway, wheel, king = ev("As Kh Qd Jc Ts"), ev("As 2h 3d 4c 5s"), ev("Ks Qh Jd Tc 9s")
    assert broadway > wheel > king > ev("6s 5h 4d 3c 2s")
    sf_wheel = ev("Ah 2h 3h 4h 5h")
    assert ev("Ah Kh Qh Jh Th") > sf_wheel > ev("Kh Qh Jh Th 9h")
    assert ev("Ks As 2h 3d 4c").category is C.HIGH_CARD  # no wrap-around


def test_wheel_low_option():
    low = make_rules("classic", 4, {"wheel": "low"})
    assert ev("As 2h 3d 4c 5s", low) < ev("6s 5h 4d 3c 2s", low)
    assert ev("Ah 2h 3h 4h 5h", low) < ev("6h 5h 4h 3h 2h", low)


def test_joker_chains_of_rules_section_2():
    chain = [
        "As Ah Ad Ac 2s",
        "As Ah Ad BJ 2s",
        "3s 3h 3d 3c 2s",
        "3s 3h 3d BJ 2s",
        "3s 3h BJ SJ 2s",
    ]
    values = [ev(h, JOKERS) for h in chain]
    assert all(v.category is C.FOUR_OF_A_KIND for v in values)
    assert values == sorted(values, reverse=True) and len(set(values)) == 5
    flushes = [ev(h, JOKERS) for h in ("Ts Js Qs Ks As", "Ts Js Qs Ks BJ", "7s 8s 9s Ts Js")]
    assert all(v.category is C.STRAIGHT_FLUSH for v in flushes)
    assert flushes[0] > flushes[1] > flushes[2]
    five, five2 = ev("4s 4h 4d 4c BJ", JOKERS), ev("4s 4h 4d BJ SJ", JOKERS)
    assert five.category is five2.category is C.FIVE_OF_A_KIND and five > five2


def test_jokers_make_the_best_hand():
    assert ev("Ks Kh 5d 5c BJ", JOKERS).category is C.FULL_HOUSE
    assert ev("Ks Kh 5d 5c BJ", JOKERS).ranks == (13, 5)
    assert ev("As Ks Qs Js BJ", JOKERS).category is C.STRAIGHT_FLUSH
    assert ev("2h 7h 9h Jh BJ", JOKERS).ranks == (0, 14, 11, 9, 7, 2)  # joker takes the ace
    assert ev("Ah 7h 9h Jh BJ", JOKERS).ranks == (0, 14, 13, 11, 9, 7)  # then the king
    assert ev("As Ah Ad Ac BJ", JOKERS).category is C.FIVE_OF_A_KIND
    assert ev("BJ SJ 7c", JOKERS).category is C.THREE_OF_A_KIND
    assert ev("BJ Ks 7c", JOKERS).ranks == (13, 7)
    assert ev("Ks Qh BJ", JOKERS) < ev("Kd Kc Qs", JOKERS)  # natural beats wild on a tie
    assert ev("Ks Qh BJ", JOKERS) > ev("Kd Kc Js", JOKERS)


def test_wild_rank_stands_for_itself_naturally():
    wild6 = make_rules("classic", 4, {"wild_rank": "6"})
    natural = ev("6s 6h Ad Kc 2s", wild6)
    assert natural.category is C.THREE_OF_A_KIND and natural.ranks[0] == 14  # 6 6 as A A
    straight = ev("3s 4h 5d 6c 7s", wild6)
    assert straight.category is C.STRAIGHT and straight.wilds == 0  # the 6 as itself
    wheel = ev("2s 3h 4d 5c 6s", wild6)  # the 6 as an ace makes the (second best) wheel
    assert wheel.category is C.STRAIGHT and wheel.ranks == (14,) and wheel.wilds == 1
    assert ev("As Ah 6d 9c 2s", wild6).category is C.THREE_OF_A_KIND
    assert ev("As Ah Ad 6c 6s", wild6).category is C.FIVE_OF_A_KIND


def test_added_suit_loses_ties_of_flushes_and_straight_flushes():
    spades = make_rules("classic", 5, {"added_suit": "s"})
    assert ev("2h 3h 4h 5h 6h", spades) > ev("2s 3s 4s 5s 6s", spades)
    assert ev("2h 5h 7h 9h Jh", spades) > ev("2s 5s 7s 9s Js", spades)
    assert ev("3s 5s 7s 9s Js", spades) > ev("2h 5h 7h 9h Jh", spades)  # only ties


def test_65_card_flushes_rank_pairs_first():
    spades = make_rules("classic", 5, {"added_suit": "s"})
    two_pair = ev("As As Ks Ks 2s", spades)
    one_pair = ev("3s 3s Ks Qs Js", spades)
    no_pair = ev("As Qs Js 9s 8s", spades)
    assert two_pair.category is one_pair.category is no_pair.category is C.FLUSH
    assert two_pair > one_pair > no_pair
    assert ev("4s 4s 2s 3s 5s", spades) > ev("3s 3s As Ks Qs", spades)  # pair rank first
    assert ev("As As As Ah Ad", spades).category is C.FIVE_OF_A_KIND


def test_lane_points_table():
    assert lane_points(Lane.HEAD, ev("As Ah Ad")) == 3
    assert lane_points(Lane.HEAD, ev("As Ah Kd")) == 1
    assert lane_points(Lane.MIDDLE, ev("As Ah Ad Ks Kh")) == 2
    assert lane_points(Lane.TAIL, ev("As Ah Ad Ks Kh")) == 1
    assert lane_points(Lane.MIDDLE, ev("As Ah Ad Ac Kh")) == 8
    assert lane_points(Lane.TAIL, ev("As Ah Ad Ac Kh")) == 4
    assert lane_points(Lane.MIDDLE, ev("6h 5h 4h 3h 2h")) == 10
    assert lane_points(Lane.TAIL, ev("6h 5h 4h 3h 2h")) == 5
    assert lane_points(Lane.MIDDLE, ev("As Ah Ad Ac BJ", JOKERS)) == 20
    assert lane_points(Lane.TAIL, ev("As Ah Ad Ac BJ", JOKERS)) == 10
    assert lane_points(Lane.TAIL, ev("2h 4h 6h 8h Th")) == 1
