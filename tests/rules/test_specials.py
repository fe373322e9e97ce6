import pytest

from bot.rules import SpecialHand, detect_special, make_rules, parse_cards
from bot.rules.foul import check_foul
from bot.rules.specials import special_beats, special_points

S = SpecialHand
CLASSIC = make_rules("classic", 4)
CLASSIC_J = make_rules("classic", 4, {"jokers": 2})
EXTENDED = make_rules("extended", 4)
EXTENDED_J = make_rules("extended", 4, {"jokers": 2})


def special(text, rules):
    return detect_special(parse_cards(text), rules)


CASES = [
    # (cards, rules, expected special or None, natural)
    ("As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s", CLASSIC, S.SUPREME_DRAGON, True),
    ("As Kh Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s", CLASSIC, S.DRAGON, True),
    ("As Kh Qs Js Ts 9s 8s 7s 6s 5s 4s 3s BJ", CLASSIC_J, None, None),  # classic: a joker blocks
    ("As Kh Qs Js Ts 9s 8s 7s 6s 5s 4s 3s BJ", EXTENDED_J, S.DRAGON, False),
    ("As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s BJ", EXTENDED_J, S.SUPREME_DRAGON, False),
    # six pairs, with a four of a kind counted as two pairs
    ("2s 2h 2d 2c 3s 3h 4s 4h 5s 5h 6s 6h 8c", CLASSIC, S.SIX_PAIRS, True),
    ("2s 2h 3d 3c 4s 4h 5s 5h 6s 6h 8c 9c Jd", CLASSIC, None, None),  # five pairs only
    ("2s 2h 3d 3c 4s 4h 5s 5h 6s 6h 8c 9c BJ", CLASSIC_J, None, None),  # joker in classic
    ("2s 2h 3d 3c 4s 4h 5s 5h 6s 6h 8c 9c BJ", EXTENDED_J, S.SIX_PAIRS, False),
    # four trips (+1), and one short of it
    ("2s 2h 2d 3c 3s 3h 4s 4h 4d 5s 5h 5d Ac", CLASSIC, S.FOUR_TRIPS, True),
    ("2s 2h 2d 3c 3s 3h 4s 4h 4d 7s 7h 9d Kc", CLASSIC, None, None),
    ("2s 2h 2d 3c 3s 3h 4s 4h 4d 5s 5h 6d Ac", CLASSIC, S.THREE_STRAIGHTS, True),  # A23 2-6 A-5
    # six of a kind: only with jokers, allowed in classic
    ("As Ah Ad Ac BJ SJ 2s 4h 6d 8c Tc Qd 3h", CLASSIC_J, S.SIX_OF_A_KIND, False),
    ("As Ah Ad Ac BJ 2s 2h 6d 8c Tc Qd 3h 5c", CLASSIC_J, None, None),
    # one colour
    ("2h 2d 5h 7d 8h 9d Th Jd Qh Kd Ah 4h 6d", CLASSIC, S.ONE_COLOR, True),
    ("2s 2c 5s 7c 8s 9c Ts Jc Qs Kc As 4s 6h", CLASSIC, None, None),
    # three flushes / three straights
    ("2h 4h 9h 3s 6s 8s Ts Qs 4c 7c 9c Jc Kc", CLASSIC, S.THREE_FLUSHES, True),
    ("Qh Kd As 3c 4c 5h 6d 7s 3d 4s 5c 6h 7h", CLASSIC, S.THREE_STRAIGHTS, True),
    ("Ah 2d 3s 3c 4c 5h 6d 7s 3d 4s 5c 6h 7h", CLASSIC, S.THREE_STRAIGHTS, True),
    ("Kh Ad 2s 3c 4c 5h 6d 7s 3d 4s 5c 6h 7h", CLASSIC, None, None),  # K-A-2 does not wrap
    # extended-only specials
    ("Js Jh Jd Jc Qs Qh Qd Qc Ks Kh Kd As Ah", EXTENDED, S.TWELVE_ROYALS, True),
    ("Js Jh Jd Jc Qs Qh Qd Qc Ks Kh Kd As Ah", CLASSIC, S.SIX_PAIRS, True),  # JJ JJ QQ QQ KK AA
    ("Ts Jh Jd Jc Qs Qh Qd Qc Ks Kh Kd As Ah", EXTENDED, S.ALL_HIGH, True),  # a 10 breaks royals
    ("2s 2h 2d 2c 5s 5h 5d 5c 9s 9h 9d 9c Ac", EXTENDED, S.THREE_QUADS, True),
    ("8s 9h Td Jc Qs Kh Ad 8c 9s Th Jd Qc Ks", EXTENDED, S.ALL_HIGH, True),
    (
        "8s 9h Td Jc Qs Kh Ad 8c 9s Th Jd Qc Ks",
        CLASSIC,
        S.SIX_PAIRS,
        True,
    ),  # no all-high in classic
    ("2s 3h 4d 5c 6s 7h 8d 2c 3s 4h 5d 6c 7s", EXTENDED, S.ALL_LOW, True),
    ("2s 2h 2d 3c 3s 3h 4s 4h 5d 5s 6h 6d Ac", EXTENDED, S.DOUBLE_FULL_HOUSE, True),
    ("2s 2h 2d 2c 3s 4h 4s 5h 5d 6s 6h 9d 9c", EXTENDED, S.SIX_PAIRS, True),
    ("2s 2h 2d 3c 3s 4h 4s 5h 5d 6s 6h 9d Ac", EXTENDED, None, None),  # trips + 4 pairs
    ("2s 2h 2d 3c 3s 4h 4s 5h 5d 6s 6h 9d 9c", EXTENDED, S.FIVE_PAIRS_TRIPS, True),
    ("2s 3s 4s 6h 7h 8h 9h Th 5d 6d 7d 8d 9d", EXTENDED, S.THREE_STRAIGHT_FLUSHES, True),
    ("2s 3s 4s 6h 7h 8h 9h Th 5d 6d 7d 8d 9d", CLASSIC, S.THREE_STRAIGHTS, True),
    ("2s 3s BJ 6h 7h 8h 9h Th 5d 6d 7d 8d 9d", EXTENDED_J, S.THREE_STRAIGHT_FLUSHES, False),
    # one card short of each special
    (
        "2s 3s 4s 6h 7h 8h 9h Th 5d 6d 7d 8d 9c",
        EXTENDED,
        S.THREE_STRAIGHTS,
        True,
    ),  # 9c breaks the flush
    ("2s 2h 2d 2c 5s 5h 5d 5c 9s 9h 9d Kc Ac", EXTENDED, None, None),  # two quads + trips
    ("2h 4h 9h 3s 6s 8s Ts Qs 4c 7c 9c Jc Kd", CLASSIC, None, None),  # Kd breaks three flushes
    ("2s 3h 4d 5c 6s 7h 8d 2c 3s 4h 5d 6c Ts", EXTENDED, None, None),  # a 10 breaks all low
    (
        "2s 3h 4d 5c 6s 7h 8d 2c 3s 4h 5d 6c 9s",
        EXTENDED,
        S.THREE_STRAIGHTS,
        True,
    ),  # 789 23456 23456
    ("2s 2h 2d 3c 3s 3h 4s 4h 5d 5s 6h 7d Ac", EXTENDED, None, None),  # two trips + two pairs
    ("As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 3h", CLASSIC, None, None),  # no 2: no dragon
]


@pytest.mark.parametrize(("text", "rules", "expected", "natural"), CASES)
def test_special_detected_at_its_boundary(text, rules, expected, natural):
    found = special(text, rules)
    if expected is None:
        assert found is None
    else:
        assert found is not None and found.hand is expected and found.natural is natural
        assert found.points == special_points(expected, rules)
        shown = found.arrangement
        assert sorted(shown.cards) == sorted(parse_cards(text))
        assert (len(shown.head), len(shown.middle), len(shown.tail)) == (3, 5, 5)


def test_split_specials_show_their_split():
    found = special("Qh Kd As 3c 4c 5h 6d 7s 3d 4s 5c 6h 7h", CLASSIC)
    ranks = [
        sorted(c.rank for c in lane)
        for lane in (found.arrangement.head, found.arrangement.middle, found.arrangement.tail)
    ]
    assert ranks[0] == [12, 13, 14] and ranks[1] == ranks[2] == [3, 4, 5, 6, 7]


def test_all_added_suit_in_five_players():
    five = make_rules("classic", 5, {"added_suit": "h"})
    hand = "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh 2h 3h"
    assert special(hand, five).hand is S.ALL_ADDED_SUIT
    assert special(hand, five).points == 30
    assert (
        special("2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs 2h 3h", five) is None
        or special("2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs 2h 3h", five).hand is not S.ALL_ADDED_SUIT
    )


def test_wild_rank_standing_for_itself_is_natural():
    wild6 = make_rules("classic", 4, {"wild_rank": "6"})
    dragon = special("As Kh Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s", wild6)
    assert dragon.hand is S.DRAGON and dragon.natural
    # a wild 6 standing for the missing king: not declarable in classic ...
    assert special("Ah 6h Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s", wild6) is None
    # ... but a (non-natural) dragon in extended
    ext6 = make_rules("extended", 4, {"wild_rank": "6"})
    found = special("Ah 6h Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s", ext6)
    assert found.hand is S.DRAGON and not found.natural


def test_special_points_override_and_order():
    r = make_rules("extended", 4, {"special_points": {"all_low": 12}})
    assert special("2s 3h 4d 5c 6s 7h 8d 2c 3s 4h 5d 6c 7s", r).points == 12
    a = special("2h 2d 5h 7d 8h 9d Th Jd Qh Kd Ah 4h 6d", CLASSIC)  # one colour, 5
    b = special("2s 2h 2d 2c 3s 3h 4s 4h 5s 5h 6s 6h 8c", CLASSIC)  # six pairs, 5
    assert a.points == b.points and special_beats(a, b) == 1 and special_beats(b, a) == -1
    assert special_beats(a, a) == 0


def test_declared_specials_need_not_be_legal_arrangements():
    found = special("As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s", CLASSIC)
    assert found.arrangement is not None
    assert check_foul(found.arrangement, CLASSIC) is None  # the dragon is shown low to high
