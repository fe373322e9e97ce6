"""The arranging presses' triad (bot.core.presses): for each press
``check_<press>`` raises the table's refusal, ``can_<press>`` answers the
same question, and the table refuses the press with that reason and
changes nothing; one judgement of a split, cached, answers them all."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot.core import presses
from bot.core.hand import Hand, Suggestion
from bot.core.refused import Refused
from bot.rules import make_rules
from bot.table import hand as hand_moves
from bot.table.actions import Verb

from .helpers import ANN_HAND, RiggedRandom, make_manager, ok, open_table, refused

RULES = make_rules("classic", 4)
# 六对半 (six pairs and a king): a special to declare.
SIX_PAIRS = ["2s", "2h", "3d", "3h", "4s", "4h", "5c", "5d", "7s", "7h", "9c", "9d", "Kc"]
EXTRA = [*ANN_HAND, "Tc", "Jc", "Qc"]  # 多三张: 16 cards


def at(hand: Hand, *tokens: str) -> list[int]:
    return [hand.cards.index(x) for x in tokens]


def laid(hand: Hand, head: list[str], middle: list[str], tail: list[str]) -> str:
    return presses.lay_arg(at(hand, *head), at(hand, *middle), at(hand, *tail))


def fresh() -> Hand:
    return hand_moves.new_hand(ANN_HAND)


def done() -> Hand:
    hand = fresh()
    hand.done = True
    return hand


def picked() -> Hand:
    hand = fresh()
    hand_moves.pick(hand, "0")
    return hand


def head_full() -> Hand:
    hand = fresh()
    for i in at(hand, "2c", "3s", "4d"):
        hand_moves.pick(hand, str(i))
    return hand


def sixteen_full() -> Hand:
    hand = hand_moves.new_hand(EXTRA)
    hand_moves.lay(hand, presses.lay_arg([0, 1, 2], [3, 4, 5, 6, 7], [8, 9, 10, 11, 12]))
    return hand


def with_suggestion() -> Hand:
    hand = fresh()
    hand.suggestions = [
        Suggestion(
            ("2c", "3s", "4d"),
            ("8h", "8d", "7c", "6c", "5h"),
            ("As", "Ks", "Qs", "Js", "9s"),
            1.0,
            ("high_card", "one_pair", "flush"),
            False,
        )
    ]
    return hand


def six_pairs() -> Hand:
    hand = hand_moves.new_hand(SIX_PAIRS)
    hand.special = presses.as_special(presses.special_of(sorted(SIX_PAIRS), RULES))
    return hand


def fouled() -> Hand:
    """A complete split whose middle (the flush) beats its tail (a pair)."""
    hand = fresh()
    hand_moves.lay(
        hand,
        laid(
            hand, ["2c", "3s", "4d"], ["As", "Ks", "Qs", "Js", "9s"], ["8h", "8d", "7c", "6c", "5h"]
        ),
    )
    return hand


def in_order() -> Hand:
    hand = fresh()
    hand_moves.lay(
        hand,
        laid(
            hand, ["2c", "3s", "4d"], ["8h", "8d", "7c", "6c", "5h"], ["As", "Ks", "Qs", "Js", "9s"]
        ),
    )
    return hand


Check = Callable[..., object]
# press, its check and answer, a hand, the arguments after it, the refusal (None: accepted)
CASES: list[tuple[str, Check, Check, Callable[[], Hand], tuple[Any, ...], str | None]] = [
    ("pick", presses.check_pick, presses.can_pick, fresh, ("0",), None),
    ("pick", presses.check_pick, presses.can_pick, done, ("0",), "err.already_done"),
    ("pick", presses.check_pick, presses.can_pick, fresh, ("13",), "err.bad_card"),
    ("pick", presses.check_pick, presses.can_pick, fresh, ("x",), "err.bad_card"),
    ("pick", presses.check_pick, presses.can_pick, sixteen_full, ("15",), "err.lane_full"),
    (
        "pick",
        presses.check_pick,
        presses.can_pick,
        sixteen_full,
        ("0",),
        None,
    ),  # a placed card comes back
    ("lane", presses.check_lane, presses.can_lane, fresh, ("2",), None),
    ("lane", presses.check_lane, presses.can_lane, done, ("2",), "err.already_done"),
    ("lane", presses.check_lane, presses.can_lane, fresh, ("3",), "err.bad_lane"),
    ("lane", presses.check_lane, presses.can_lane, head_full, ("0",), "err.lane_full"),
    ("lay", presses.check_lay, presses.can_lay, fresh, ("012--",), None),
    ("lay", presses.check_lay, presses.can_lay, done, ("012--",), "err.already_done"),
    ("lay", presses.check_lay, presses.can_lay, fresh, ("001--",), "err.bad_card"),
    ("lay", presses.check_lay, presses.can_lay, fresh, ("0123--",), "err.bad_card"),
    ("lay", presses.check_lay, presses.can_lay, fresh, ("0-1",), "err.bad_card"),
    ("lay", presses.check_lay, presses.can_lay, fresh, ("z--",), "err.bad_card"),
    ("undo", presses.check_undo, presses.can_undo, picked, (), None),
    ("undo", presses.check_undo, presses.can_undo, fresh, (), "err.nothing_to_undo"),
    ("undo", presses.check_undo, presses.can_undo, done, (), "err.already_done"),
    ("reset", presses.check_reset, presses.can_reset, picked, (), None),
    ("reset", presses.check_reset, presses.can_reset, fresh, (), "err.nothing_to_reset"),
    ("reset", presses.check_reset, presses.can_reset, done, (), "err.already_done"),
    ("sort", presses.check_sort, presses.can_sort, fresh, ("suit",), None),
    (
        "sort",
        presses.check_sort,
        presses.can_sort,
        done,
        ("count",),
        None,
    ),  # a confirmed hand is re-sorted
    ("sort", presses.check_sort, presses.can_sort, fresh, ("sideways",), "err.bad_sort"),
    ("suggest", presses.check_suggest, presses.can_suggest, fresh, (), None),
    ("suggest", presses.check_suggest, presses.can_suggest, done, (), "err.already_done"),
    ("apply", presses.check_apply, presses.can_apply, with_suggestion, ("0",), None),
    ("apply", presses.check_apply, presses.can_apply, with_suggestion, ("1",), "err.no_suggestion"),
    ("apply", presses.check_apply, presses.can_apply, fresh, ("0",), "err.no_suggestion"),
    ("apply", presses.check_apply, presses.can_apply, done, ("0",), "err.already_done"),
    ("declare", presses.check_declare, presses.can_declare, six_pairs, (RULES,), None),
    ("declare", presses.check_declare, presses.can_declare, fresh, (RULES,), "err.no_special"),
    (
        "declare",
        presses.check_declare,
        presses.can_declare,
        sixteen_full,
        (RULES,),
        "err.no_special",
    ),
    ("confirm", presses.check_confirm, presses.can_confirm, in_order, (RULES,), None),
    ("confirm", presses.check_confirm, presses.can_confirm, picked, (RULES,), "err.incomplete"),
    ("confirm", presses.check_confirm, presses.can_confirm, fouled, (RULES,), "err.foul"),
    ("confirm", presses.check_confirm, presses.can_confirm, done, (RULES,), "err.already_done"),
]


@pytest.mark.parametrize(
    ("check", "can", "make", "args", "reason"),
    [case[1:] for case in CASES],
    ids=[f"{case[0]}-{case[5] or 'ok'}-{n}" for n, case in enumerate(CASES)],
)
def test_each_check_raises_and_each_can_answers(
    check: Check, can: Check, make: Callable[[], Hand], args: tuple[Any, ...], reason: str | None
) -> None:
    hand = make()
    before = hand.to_json()
    if reason is None:
        check(hand, *args)
        assert can(hand, *args) is True
    else:
        with pytest.raises(Refused) as refusal:
            check(hand, *args)
        assert refusal.value.key == reason
        assert can(hand, *args) is False
    assert hand.to_json() == before  # asking changes nothing


def test_every_press_has_its_check_and_its_answer() -> None:
    verbs_covered = {case[0] for case in CASES}
    assert verbs_covered == {
        "pick",
        "lane",
        "lay",
        "undo",
        "reset",
        "sort",
        "suggest",
        "apply",
        "declare",
        "confirm",
    }
    for press in verbs_covered:
        assert callable(getattr(presses, f"check_{press}")) and callable(
            getattr(presses, f"can_{press}")
        )


def test_the_refusals_say_what_stops_the_confirm() -> None:
    with pytest.raises(Refused) as refusal:
        presses.check_confirm(picked(), RULES)
    assert refusal.value.params == {"placed": 1}
    with pytest.raises(Refused) as refusal:
        presses.check_confirm(fouled(), RULES)
    assert refusal.value.params == {"pairs": [["middle", "tail"]]}
    judged = presses.check_confirm(in_order(), RULES)
    assert judged.complete and judged.foul == () and judged.placed == 13


def test_a_confirm_with_a_split_is_judged_as_laid() -> None:
    """With the page's split the check judges what the split would store:
    a hand of loose taps is confirmed by a good split, refused by a foul one."""
    hand = picked()
    good = laid(
        hand, ["2c", "3s", "4d"], ["8h", "8d", "7c", "6c", "5h"], ["As", "Ks", "Qs", "Js", "9s"]
    )
    bad = laid(
        hand, ["2c", "3s", "4d"], ["As", "Ks", "Qs", "Js", "9s"], ["8h", "8d", "7c", "6c", "5h"]
    )
    assert presses.can_confirm(hand, RULES, good) and not presses.can_confirm(hand, RULES, bad)
    assert not presses.can_confirm(hand, RULES, "0z1-34567-")  # not the hand's cards


def test_sixteen_cards_declare_the_special_the_laid_split_keeps() -> None:
    hand = hand_moves.new_hand([*SIX_PAIRS, "Ac", "Jd", "8s"])
    split = laid(hand, SIX_PAIRS[:3], SIX_PAIRS[3:8], SIX_PAIRS[8:])
    assert not presses.can_declare(hand, RULES)  # nothing kept yet
    special = presses.check_declare(hand, RULES, split)
    assert special.hand == "six_pairs"
    other = laid(hand, ["Ac", "Jd", "8s"], SIX_PAIRS[3:8], SIX_PAIRS[8:])
    assert not presses.can_declare(hand, RULES, other)


def test_a_split_is_judged_once_whoever_asks(monkeypatch: pytest.MonkeyPatch) -> None:
    computed: list[object] = []
    judged = presses._judged

    def counted(*args: Any) -> presses.Judgement:
        computed.append(args)
        return judged(*args)

    monkeypatch.setattr(presses, "_judged", counted)
    monkeypatch.setattr(presses, "_JUDGED", presses._Cache(8))
    hand = in_order()
    first = presses.check_confirm(hand, RULES)
    assert presses.can_confirm(hand, RULES)
    assert presses.judge_hand(hand, RULES) is first
    # the same cards in another order are the same split
    reordered = tuple(tuple(reversed(lane)) for lane in presses.split_of(hand))
    assert presses.judge((reordered[0], reordered[1], reordered[2]), RULES) is first
    assert len(computed) == 1
    # other rules are another judgement
    presses.judge_hand(hand, make_rules("extended", 4))
    assert len(computed) == 2


@pytest.mark.parametrize(
    ("verb", "arg", "reason"),
    [
        (Verb.PICK, "13", "err.bad_card"),
        (Verb.LANE, "3", "err.bad_lane"),
        (Verb.LAY, "001--", "err.bad_card"),
        (Verb.UNDO, None, "err.nothing_to_undo"),
        (Verb.RESET, None, "err.nothing_to_reset"),
        (Verb.SORT, "sideways", "err.bad_sort"),
        (Verb.APPLY, "0", "err.no_suggestion"),
        (Verb.DECLARE, None, "err.no_special"),
        (Verb.CONFIRM, None, "err.incomplete"),
    ],
)
async def test_the_table_refuses_what_the_check_refuses(repo, clock, verb, arg, reason) -> None:  # type: ignore[no-untyped-def]
    """The transition asks the same check: the table's refusal is the check's
    reason, and nothing is stored."""
    mgr, _ = make_manager(repo, clock, RiggedRandom([ANN_HAND, SIX_PAIRS]))
    rid, actors = await open_table(mgr, 2)
    await ok(mgr, actors[0], Verb.START)
    hand = hand_moves.new_hand(ANN_HAND)
    with pytest.raises(Refused, match=reason):
        {
            Verb.PICK: lambda: presses.check_pick(hand, arg),
            Verb.LANE: lambda: presses.check_lane(hand, arg),
            Verb.LAY: lambda: presses.check_lay(hand, arg),
            Verb.UNDO: lambda: presses.check_undo(hand),
            Verb.RESET: lambda: presses.check_reset(hand),
            Verb.SORT: lambda: presses.check_sort(hand, arg),
            Verb.APPLY: lambda: presses.check_apply(hand, arg),
            Verb.DECLARE: lambda: presses.check_declare(hand, RULES),
            Verb.CONFIRM: lambda: presses.check_confirm(hand, RULES),
        }[verb]()
    out = await refused(mgr, repo, rid, actors[0], verb, arg, room_id=rid, round_no=1)
    assert out.refused == reason


async def test_a_confirm_and_a_declaration_are_recorded(repo, clock) -> None:  # type: ignore[no-untyped-def]
    """The transition returns what it did: ``Confirmed`` with the split as
    judged, ``Declared`` with the special; other presses record nothing."""
    import random

    from bot.table import arranging
    from bot.table.round import Ctx

    mgr, _ = make_manager(repo, clock, RiggedRandom([ANN_HAND, SIX_PAIRS]))
    rid, (p0, p1) = await open_table(mgr, 2)
    await ok(mgr, p0, Verb.START)
    room = await mgr.room(rid)
    assert room is not None
    ctx = Ctx(now=clock.now(), rng=random.Random(1))
    hand = room.rnd.hands[p0.key]
    split = laid(hand, *IN_ORDER_TOKENS)
    assert arranging.press(room, p0.key, Verb.LAY, split, ctx).pressed is None
    confirmed = arranging.press(room, p0.key, Verb.CONFIRM, None, ctx).pressed
    assert isinstance(confirmed, presses.Confirmed) and confirmed.player == p0.key
    assert confirmed.judgement.complete and not confirmed.judgement.foul
    assert [sorted(lane) for lane in confirmed.split] == [sorted(x) for x in IN_ORDER_TOKENS]
    declared = arranging.press(room, p1.key, Verb.DECLARE, None, ctx).pressed
    assert isinstance(declared, presses.Declared) and declared.player == p1.key
    assert declared.special.hand == "six_pairs" and room.rnd.hands[p1.key].declared == "six_pairs"


IN_ORDER_TOKENS = (
    ["2c", "3s", "4d"],
    ["8h", "8d", "7c", "6c", "5h"],
    ["As", "Ks", "Qs", "Js", "9s"],
)
