"""suggest / auto_arrange / ai_arrange: legal, exactly the hand's cards, specials as the rules say."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.rules import check_foul, detect_special, evaluate_lane, make_rules, parse_cards
from bot.solver import STRENGTHS, ai_arrange, auto_arrange, prepare, suggest
from bot.solver.codes import lane_code
from bot.solver.search import shape_signature

from .helpers import CONFIGS, deal, rules_of

SETTINGS = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _uses_hand(arr, hand) -> bool:
    used, held = Counter(arr.cards), Counter(hand)
    if len(hand) == 13:
        return used == held
    return len(arr.cards) == 13 and all(used[c] <= held[c] for c in used)


def _idea(item, rules) -> tuple[int, ...]:
    """Per lane: category and group ranks (or top card), kickers left out."""
    lanes = (item.arrangement.head, item.arrangement.middle, item.arrangement.tail)
    return tuple(int(shape_signature(np.array([lane_code(x, rules)]))[0]) for x in lanes)


@pytest.mark.parametrize("name", sorted(CONFIGS))
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_suggestions_are_legal_and_use_the_hand(name: str, seed: int) -> None:
    rules = rules_of(name)
    hand = deal(rules, random.Random(seed))
    result = suggest(hand, rules, top=3)
    assert 1 <= len(result.items) <= 3
    scores = [s.score for s in result.items]
    assert scores == sorted(scores, reverse=True)
    for item in result.items:
        assert check_foul(item.arrangement, rules) is None
        assert _uses_hand(item.arrangement, hand)
        lanes = (item.arrangement.head, item.arrangement.middle, item.arrangement.tail)
        assert item.lanes == tuple(evaluate_lane(x, rules).category for x in lanes)
    # The special is offered exactly when the rules engine finds one.
    assert result.special == (detect_special(hand, rules) if len(hand) == 13 else None)
    if result.special is None:
        assert not result.declare_recommended
    else:
        assert result.declare_recommended == (result.special_score >= result.items[0].score)


@pytest.mark.parametrize("name", sorted(CONFIGS))
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_auto_and_ai_arrangements_are_legal(name: str, seed: int) -> None:
    rules = rules_of(name)
    hand = deal(rules, random.Random(seed))
    arr = auto_arrange(hand, rules)
    assert check_foul(arr, rules) is None and _uses_hand(arr, hand)
    special = detect_special(hand, rules) if len(hand) == 13 else None
    for strength in STRENGTHS:
        arr, declare = ai_arrange(hand, rules, strength)
        assert check_foul(arr, rules) is None and _uses_hand(arr, hand)
        assert not declare or special is not None


def test_suggestions_differ_meaningfully() -> None:
    rules = make_rules("classic", 4)
    rng = random.Random(11)
    for _ in range(20):
        hand = rng.sample(list(rules.deck.cards()), 13)
        items = suggest(hand, rules, top=5).items
        ideas = [_idea(s, rules) for s in items]
        assert len(set(ideas)) == len(ideas)


def test_obvious_hand_is_played_as_a_strong_player_would() -> None:
    rules = make_rules("classic", 4)
    hand = parse_cards("As Ah Ad Ks Kh Kd 2c 2d Qs Js Ts 9s 8s")
    best = suggest(hand, rules).items[0]
    assert [c.slug for c in best.lanes] == ["three_of_a_kind", "full_house", "straight_flush"]
    assert best.score > 20


@pytest.mark.parametrize(
    "preset, tokens, special",
    [
        ("classic", "2s 3s 4h 5d 6c 7s 8h 9d Tc Jd Qh Kc Ac", "dragon"),
        ("classic", "2s 2h 4h 4d 6c 6s 8h 8d Tc Td Qh Qc Ac", "six_pairs"),
        ("extended", "Js Jh Jd Qs Qh Qd Kc Kh Ks Ac Ah As Jc", "twelve_royals"),
        ("classic", "2h 3h 5h 5d 6d 7d 9d 9h Th Jh Qd Kd Ad", "one_color"),
    ],
)
def test_specials_are_offered(preset: str, tokens: str, special: str) -> None:
    rules = make_rules(preset, 4)
    hand = parse_cards(tokens)
    result = suggest(hand, rules)
    assert result.special is not None and result.special.hand.value == special
    assert result.special == detect_special(hand, rules)
    assert all(check_foul(s.arrangement, rules) is None for s in result.items)
    if special == "dragon":  # 36 from each of 3 players beats any arrangement
        assert result.declare_recommended
        assert ai_arrange(hand, rules, "strong")[1] and ai_arrange(hand, rules, "normal")[1]


def test_banker_seat_and_players_override() -> None:
    rules = rules_of("banker")
    hand = deal(rules, random.Random(3), wild_bias=False)
    player = suggest(hand, rules).items[0].score
    banker = suggest(hand, rules, banker=True).items[0].score
    # The banker meets 3 players and wins their ties; a player meets the banker only.
    assert banker / 3 >= player - 1e-9
    classic = rules_of("classic")
    two = suggest(hand, classic, players=2).items[0].score
    four = suggest(hand, classic, players=4).items[0].score
    assert two != four


def test_wrong_hand_size_and_strength_are_refused() -> None:
    rules = make_rules("classic", 4)
    with pytest.raises(ValueError, match="13 cards"):
        suggest(parse_cards("As Ks Qs"), rules)
    hand = random.Random(1).sample(list(rules.deck.cards()), 13)
    with pytest.raises(ValueError, match="strength"):
        ai_arrange(hand, rules, "godlike")


@pytest.mark.parametrize("wild", ["2", "A", "T"])
def test_every_wild_rank_is_handled_with_one_model(wild: str) -> None:
    from bot.solver.model import opponent_model

    rules = make_rules("classic", 4, {"wild_rank": wild})
    assert opponent_model(rules) is opponent_model(rules_of("wild6"))
    rng = random.Random(f"wild-{wild}")
    for _ in range(3):
        hand = deal(rules, rng)
        for item in suggest(hand, rules).items:
            assert check_foul(item.arrangement, rules) is None
            assert _uses_hand(item.arrangement, hand)


def test_suggestions_know_who_sits_at_the_table() -> None:
    rules = make_rules("classic", 4)
    hand = parse_cards("Ah Jh Th Ts 6d 7c 3c Ac 8d 9d Kh 5s Td")
    tables = [None, ("strong",) * 3, ("normal",) * 3, ("easy", None, "strong")]
    scores = []
    for opponents in tables:
        items = suggest(hand, rules, opponents=opponents).items
        assert all(check_foul(s.arrangement, rules) is None for s in items)
        scores.append(items[0].score)
        arr, _ = ai_arrange(hand, rules, "strong", opponents=opponents)
        assert check_foul(arr, rules) is None and _uses_hand(arr, hand)
    # A suggestion answers strong seats as they play (the seat pool); each
    # table is another expectation.
    assert len(set(scores)) == 4
    # A strong seat itself answers the whole pool, as people are taken to.
    people_first = suggest(hand, rules).items[0].arrangement
    assert ai_arrange(hand, rules, "strong", opponents=tables[1])[0] == people_first
    with pytest.raises(ValueError, match="strength"):
        suggest(hand, rules, opponents=("godlike",))


def test_table_weights_mix_the_pool_by_seat() -> None:
    from bot.solver.opponents import opponent_pool
    from bot.solver.pool import POLICIES, removal_weights, table_weights

    rules = make_rules("classic", 4)
    pool = opponent_pool(rules)
    hand = random.Random(4).sample(list(rules.deck.cards()), 13)

    def shares(opponents) -> np.ndarray:
        w = table_weights(pool, hand, rules, opponents)
        assert w.sum() == pytest.approx(1.0)
        return np.bincount(pool.policy, weights=w, minlength=len(POLICIES))

    whole = np.bincount(pool.policy, weights=removal_weights(pool, hand, rules), minlength=3)
    person = np.bincount(pool.policy, minlength=3) / len(pool)
    assert shares(("normal",) * 3) == pytest.approx([0.0, 1.0, 0.0])
    assert shares(None) == pytest.approx(whole)  # people: the whole pool
    assert shares(("strong", None)) == pytest.approx(whole)
    assert shares(("strong", "easy", None)) == pytest.approx(
        (2 * person + np.array([0.0, 0.0, 1.0])) / 3
    )


def test_strong_seats_are_answered_as_they_play() -> None:
    """The seat pool holds hands arranged exactly as a strong AI seat plays
    them; a suggestion at a table of strong seats is priced against it."""
    from bot.solver.model import table_of
    from bot.solver.opponents import (
        SEED,
        _deal,
        _seat_entries,
        deep_seat_pool,
        opponent_pool,
        seat_pool,
    )
    from bot.solver.pool import removal_weights
    from bot.solver.response import expected_points
    from bot.solver.review import expected_of

    rules = make_rules("classic", 4)
    prepare(rules)  # the deep seat pool too: a pool used lazily never builds it
    seats = seat_pool(rules)
    assert seats is not None and 0 < len(seats) < len(opponent_pool(rules))
    # (The pool of a deck setting is built for the first table that asks;
    # these entries are built here for this table.)
    played = _seat_entries(rules, opponent_pool(rules), 12)
    hands = _deal(rules, np.random.default_rng(SEED + 1), 12)
    for i, hand in enumerate(hands):
        arr, declare = ai_arrange(hand, rules, "strong", opponents=("strong",) * 3)
        codes = [lane_code(lane, rules) for lane in (arr.head, arr.middle, arr.tail)]
        found = detect_special(hand, rules)
        assert played.special[i] == (found.points if declare and found else 0)
        if not declare:
            assert played.codes[i].tolist() == codes
    hand = parse_cards("Ah Jh Th Ts 6d 7c 3c Ac 8d 9d Kh 5s Td")
    best = suggest(hand, rules, top=1, opponents=("strong",) * 3).items[0]
    arr = best.arrangement
    mine = np.array([[lane_code(x, rules) for x in (arr.head, arr.middle, arr.tail)]])
    table = table_of(rules, None)
    # The score is the second stage's: the seat pool and its deeper sequel.
    deep = deep_seat_pool(rules)
    assert deep is not None and len(deep) > len(seats)
    assert (deep.codes[: len(seats)] == seats.codes).all()
    want = expected_points(mine, deep, removal_weights(deep, hand, rules), table)[0]
    assert best.score == pytest.approx(want)
    assert expected_of(hand, arr, rules, opponents=("strong",) * 3) == pytest.approx(want)
    # A person beside two strong seats: the person's third of the table is
    # the whole pool, the strong seats' two thirds the seat pool.
    pool = opponent_pool(rules)
    top = suggest(hand, rules, top=1, opponents=(None, "strong", "strong")).items[0]
    arr = top.arrangement
    mine = np.array([[lane_code(x, rules) for x in (arr.head, arr.middle, arr.tail)]])
    people = expected_points(mine, pool, removal_weights(pool, hand, rules), table)[0]
    strong = expected_points(mine, deep, removal_weights(deep, hand, rules), table)[0]
    assert top.score == pytest.approx((people + 2 * strong) / 3)
    # 多三张 has no seat pool: its strong seats are answered as people.
    assert seat_pool(rules_of("extra_three")) is None
    assert deep_seat_pool(rules_of("extra_three")) is None


def test_the_rerank_picks_a_legal_split_priced_by_the_deep_pool() -> None:
    """At a table with strong seats the best splits are re-ranked against the
    deep seat pool: the first stage's best split is among them, every
    suggestion is a legal split of the hand, and the scores are the deep
    pool's expectations (the first stage's rows elsewhere)."""
    from bot.solver.api import deepened, ideas, scored, scored_shares
    from bot.solver.best import RERANK, RERANK_IDEAS, codes_of, table_value
    from bot.solver.model import table_of
    from bot.solver.opponents import deep_seat_pool, opponent_pool
    from bot.solver.search import evaluate_hand

    rules = make_rules("classic", 4)
    prepare(rules)
    deep, pool = deep_seat_pool(rules), opponent_pool(rules)
    assert deep is not None
    table = table_of(rules, None)
    rng = random.Random("rerank")
    for opponents in [("strong",) * 3, (None, "strong", "normal")]:
        for _ in range(5):
            hand = rng.sample(list(rules.deck.cards()), 13)
            he = evaluate_hand(hand, rules)
            rows, first = scored(he, rules, table, opponents)
            kept, score = deepened(he, rules, table, rows, first, opponents, 3)
            assert len(kept) <= min(len(rows), RERANK + RERANK_IDEAS)
            key = set(
                zip(kept.tail.tolist(), kept.middle.tolist(), kept.head.tolist(), strict=True)
            )
            top = int(np.argmax(first))
            assert (int(rows.tail[top]), int(rows.middle[top]), int(rows.head[top])) in key
            # The best row of each of the first stage's best ideas is re-ranked.
            for i in ideas(he, rows, first, RERANK_IDEAS):
                assert (int(rows.tail[i]), int(rows.middle[i]), int(rows.head[i])) in key
            want = table_value(codes_of(he, kept), hand, rules, table, pool, opponents, deep)
            assert score == pytest.approx(want)
            # The other seats' share as the first stage priced it, reused: the same values.
            _, again, people = scored_shares(he, rules, table, opponents)
            assert (people is None) is (opponents == ("strong",) * 3)
            _, reused = deepened(he, rules, table, rows, again, opponents, 3, people)
            assert reused == pytest.approx(want)
            items = suggest(hand, rules, top=3, opponents=opponents).items
            assert items[0].score == pytest.approx(float(score.max()))
            for item in items:
                assert check_foul(item.arrangement, rules) is None
                assert _uses_hand(item.arrangement, hand)
            # No strong seat: no second stage.
            same = deepened(he, rules, table, rows, first, ("normal",) * 3, 3)
            assert same[0] is rows and same[1] is first
