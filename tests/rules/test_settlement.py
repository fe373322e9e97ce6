"""Settlement: worked examples of docs/rules.md §4 and invariants (hypothesis)."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules import Arrangement, PlayerHand, detect_special, make_rules, parse_cards, settle
from bot.rules.cards import DeckSpec
from bot.rules.foul import check_foul


def hand(pid, head, middle, tail):
    return PlayerHand(
        pid, Arrangement.of(parse_cards(head), parse_cards(middle), parse_cards(tail))
    )


def declared(pid, cards, rules):
    cs = parse_cards(cards)
    sp = detect_special(cs, rules)
    assert sp is not None
    return PlayerHand(pid, Arrangement.of(cs[:3], cs[3:8], cs[8:]), sp)


STRONG = ("As Ah Kd", "Qs Qh Qd 2c 3c", "Js Jh Jd Jc 4s")  # pair, trips, quads
WEAK = ("2s 3h 5d", "4s 4h 6d 7c 8c", "9s 9h Td Tc 6s")  # high, pair, two pair
WEAK2 = ("2h 3s 5c", "4d 4c 6s 7h 8d", "9d 9c Ts Th 6h")  # the same ranks as WEAK


def test_scoop_doubles_only_with_scoop_double():
    on = settle([hand("A", *STRONG), hand("B", *WEAK)], make_rules("classic", 2))
    off = settle(
        [hand("A", *STRONG), hand("B", *WEAK)], make_rules("classic", 2, {"scoop_double": False})
    )
    assert on.pairs[0].lanes == (1, 1, 1) and on.pairs[0].scoop == "A"
    assert on.pairs[0].score == (1 + 1 + 4) * 2 and off.pairs[0].score == 6
    assert off.pairs[0].scoop == "A"  # still reported
    assert on.home_run is None  # never with 2 players


def test_draw_counts_as_scoop_in_extended():
    one_win_two_ties = [hand("A", "As Kh 5d", *WEAK[1:]), hand("B", *WEAK2)]
    ext = settle(one_win_two_ties, make_rules("extended", 2))
    cls = settle(one_win_two_ties, make_rules("classic", 2))
    assert ext.pairs[0].lanes == (1, 0, 0)
    assert ext.pairs[0].scoop == "A" and ext.pairs[0].score == 2
    assert cls.pairs[0].scoop is None and cls.pairs[0].score == 1


def test_home_run_doubles_again_12_from_each():
    weak_lanes = [
        ("2s 3h 5d", "4s 4h 6d 7c 8c", "9s 9h Td Tc 6s"),
        ("2h 3s 6c", "4d 4c 6s 7h 9d", "9d 9c Ts Th 7h"),
        ("2d 3d 7c", "5d 5c 6h 8h Td", "Qs Qh Kd Kc 7s"),
    ]
    plain = ("Ac Ad Kc", "5s 6h 7d 8c 9s", "2h 4h 6h 8h Th")  # 1 point a lane
    rules = make_rules("classic", 4)
    hands = [PlayerHand("A", Arrangement.of(*(parse_cards(x) for x in plain)))] + [
        hand(p, *lanes) for p, lanes in zip("BCD", weak_lanes, strict=True)
    ]
    s = settle(hands, rules)
    assert s.home_run == "A"
    assert [p.score for p in s.pairs if p.a == "A"] == [12, 12, 12]  # 3 lanes x 1 x 2 x 2
    off = settle(hands, make_rules("classic", 4, {"scoop_double": False}))
    assert off.home_run == "A" and [p.score for p in off.pairs if p.a == "A"] == [6, 6, 6]
    assert all(p.scoop == "A" for p in off.pairs if p.a == "A")


def test_a_special_opponent_blocks_the_home_run():
    rules = make_rules("classic", 3)
    s = settle(
        [
            hand("A", "As Ah Ad", "Ks Kh Kd 2c 2d", "Qc Jc Tc 9c 8c"),
            hand("B", "2s 3h 5c", "4d 4c 6s 7h 9d", "9h 9s Ts Th 7h"),
            declared("C", "2h 2d 5h 7d 8h 9d Th Jd Qh Kd Ah 4h 6d", rules),  # one colour
        ],
        rules,
    )
    assert s.home_run is None
    assert s.pairs[0].scoop == "A" and s.pairs[0].score == 20
    assert s.totals == {"A": 20 - 5, "B": -20 - 5, "C": 10}


def test_banker_ties_go_to_the_banker_and_results_are_capped():
    rules = make_rules("classic", 4, {"banker": True})
    s = settle(
        [
            hand("P1", *WEAK),
            hand("BK", *WEAK2),
            hand("P2", *STRONG),
            hand("P3", "As Ah Ad", "Ks Kh Kd 2c 2d", "Qc Jc Tc 9c 8c"),
        ],
        rules,
        banker="BK",
    )
    by = {(p.a, p.b): p for p in s.pairs}
    assert set(by) == {("P1", "BK"), ("BK", "P2"), ("BK", "P3")}
    assert by[("P1", "BK")].lanes == (-1, -1, -1) and by[("P1", "BK")].score == -3
    assert by[("P1", "BK")].scoop is None  # no scoop in banker mode
    assert by[("BK", "P2")].score == -6
    assert by[("BK", "P3")].score == -7  # 3 + 2 + 5 = 10, capped
    assert s.totals["BK"] == 3 - 6 - 7 + 0 and s.home_run is None


def test_banker_both_special_equal_points_player_wins():
    rules = make_rules("classic", 4, {"banker": True})
    one_colour = "2h 2d 5h 7d 8h 9d Th Jd Qh Kd Ah 4h 6d"
    six_pairs = "2s 2c 3s 3c 4s 4c 5s 5c 6s 6c 8s Js Qc"
    s = settle(
        [
            declared("BK", one_colour, rules),
            declared("P", six_pairs, rules),
            hand("Q", "3h 3d 9c", "7h 7s 7c Ks Kc", "Tc Th Td Tc 8h"),
            hand("R", "As Ah Kd", "Qs Qh Qd 2c 3c", "Js Jh Jd Jc 4s"),
        ],
        rules,
        banker="BK",
    )
    assert s.pairs[0].a == "BK" and s.pairs[0].b == "P"
    assert s.pairs[0].score == -5  # equal points: the player wins, although one colour ranks higher


def test_special_against_special_points_then_order_then_natural():
    rules = make_rules("extended", 3, {"jokers": 2})
    natural = declared("A", "As Kh Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2h", rules)  # dragon 26
    wild = declared("B", "Ac Kd Qd Jd Td 9d 8d 7d 6d 5d 4d BJ 2d", rules)  # dragon with a joker
    low = declared(
        "C", "2c 2d 3c 3d 4h 4c 5s 5c 6s 6c 8s 8c SJ", rules
    )  # six pairs (3) with a joker
    s = settle([natural, wild, low], rules)
    by = {(p.a, p.b): p.score for p in s.pairs}
    assert by[("A", "B")] == 26 * 2  # natural beats wild; A beats everyone: doubled (extended)
    assert by[("A", "C")] == 26 * 2
    assert by[("B", "C")] == 26  # B lost to A: not doubled
    assert s.totals == {"A": 104, "B": -52 + 26, "C": -52 - 26}


def test_classic_specials_are_never_doubled():
    rules = make_rules("classic", 3)
    s = settle(
        [
            declared("A", "As Kh Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2h", rules),
            hand("B", *WEAK),
            hand("C", *STRONG),
        ],
        rules,
    )
    assert s.totals["A"] == 72


def test_escape_example_of_rules_and_two_leavers():
    # Build a round whose normal totals are A 5, B 8, C -7, D -6 is fiddly; the
    # escape step is checked directly through settle on a constructed round below
    # and through the seed example's arithmetic with the same function.
    from bot.rules.settlement import ESCAPE_STAKES

    def escape(totals, escaped, base=1):
        totals = dict(totals)
        stayed = [p for p in totals if p not in escaped]
        for leaver in escaped:
            for p in stayed:
                if totals[p] < 0:
                    totals[leaver] += totals[p]
                    totals[p] = 0
            totals[leaver] -= ESCAPE_STAKES * base
        return totals

    assert escape({"A": 5, "B": 8, "C": -7, "D": -6}, ["C"]) == {"A": 5, "B": 8, "C": -23, "D": 0}
    rules = make_rules("extended", 4)
    hands = [
        hand("A", *STRONG),
        hand("B", *WEAK),
        hand("C", *WEAK2),
        hand("D", "As Ah Ad", "Ks Kh Kd 2c 2d", "Qc Jc Tc 9c 8c"),
    ]
    plain = settle(hands, make_rules("extended", 4, {"escape_penalty": False}), escaped=["B"])
    one = settle(hands, rules, escaped=["B"])
    two = settle(hands, rules, escaped=["B", "A"])
    assert one.totals == escape(plain.totals, ["B"])
    assert two.totals == escape(plain.totals, ["B", "A"])
    assert sum(one.totals.values()) == -10 and sum(two.totals.values()) == -20
    base3 = settle(hands, make_rules("extended", 4, {"base": 3}), escaped=["C"])
    assert sum(base3.totals.values()) == -30


# -- invariants ---------------------------------------------------------------------

PRESETS = st.sampled_from(
    [
        ("classic", {}),
        ("classic", {"jokers": 2}),
        ("classic", {"wild_rank": "7"}),
        ("classic", {"scoop_double": False}),
        ("extended", {}),
        ("extended", {"jokers": 1}),
        ("extended", {"wheel": "low"}),
    ]
)


def _legal_arrangement(cards, rules):
    """Sort by strength greedily: best 5 of 13 as tail is costly; a simple
    legal split: try random splits until one is legal (always ends: a sorted
    split by rank is legal with high probability), falling back to sorting."""
    rng = random.Random(hash(tuple(cards)))
    cards = list(cards)
    for _ in range(200):
        rng.shuffle(cards)
        arr = Arrangement.of(cards[:3], cards[3:8], cards[8:])
        if check_foul(arr, rules) is None:
            return arr
    return None


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32), preset=PRESETS, players=st.integers(2, 4), escapes=st.integers(0, 2)
)
def test_every_pair_settles_to_zero_and_totals_are_pair_sums(seed, preset, players, escapes):
    name, opts = preset
    rules = make_rules(name, players, opts)
    rng = random.Random(seed)
    deck = list(DeckSpec(jokers=rules.jokers).cards())
    rng.shuffle(deck)
    hands = []
    for i in range(players):
        cards = deck[i * 13 : (i + 1) * 13]
        sp = detect_special(cards, rules)
        if sp is not None and rng.random() < 0.5:
            hands.append(PlayerHand(f"P{i}", sp.arrangement, sp))
            continue
        arr = _legal_arrangement(cards, rules)
        if arr is None:
            return
        hands.append(PlayerHand(f"P{i}", arr))
    escaped = [h.id for h in hands[:escapes]] if escapes < players else []
    s = settle(hands, rules, escaped=escaped)
    sums = dict.fromkeys(s.totals, 0)
    for p in s.pairs:
        sums[p.a] += p.score
        sums[p.b] -= p.score
    assert sum(sums.values()) == 0
    if not (rules.escape_penalty and escaped):
        assert sums == s.totals
    else:
        assert sum(s.totals.values()) == -10 * rules.base * len(escaped)
        for pid in s.totals:
            if pid not in escaped:
                assert s.totals[pid] == max(0, sums[pid])
    assert len(s.pairs) == players * (players - 1) // 2
