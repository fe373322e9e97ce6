"""The review (复盘): opens only after the showdown; its numbers are those
of ``suggest`` (expected points against this table) and of ``settle``
(against the hands really played); stored with the settlement once."""

from __future__ import annotations

import pytest

from bot.core.hand import Hand
from bot.core.room import Room
from bot.core.round import rules_of
from bot.core.showdown import Showdown
from bot.i18n import t
from bot.rules import Arrangement, PlayerHand, settle
from bot.rules.cards import parse_card
from bot.solver import suggest
from bot.solver.review import expected_of
from bot.table.actions import Verb
from bot.table.hand import set_arrangement
from bot.table.review import review_seat
from bot.table.round import opponents_of
from bot.views.model import Audience, ViewKind

from .helpers import act, make_manager, ok, open_table, press_arrangement, state_of

LANES = ("head", "middle", "tail")


def arr_of(tokens):
    return Arrangement.of(*([parse_card(t) for t in tokens[n]] for n in LANES))


async def test_no_review_before_the_showdown_then_one_per_person(repo, clock):
    mgr, sink = make_manager(repo, clock)
    rid, actors = await open_table(mgr, 2, 1)
    await ok(mgr, actors[0], Verb.START)
    # arranging: refused, nothing leaks
    out = await act(mgr, actors[0], Verb.REVIEW, room_id=rid, round_no=1)
    assert not out.ok and not out.views and "亮牌" in out.reply
    button = f"t1|{rid}|1|rv"
    confirmed = []
    for a in actors:
        out = await press_arrangement(mgr, rid, a)
        confirmed += [v for v in out.views if v.kind is ViewKind.HAND]
    # the first confirm's own edit of the hand (its keyboard closed) brings
    # the review button; the last confirm begins the showdown and is
    # answered with a toast, its hand not redrawn (the result redraws it)
    assert {v.user_id for v in confirmed if button in str(v.buttons)} == {"100"}
    assert out.reply == t("zh-Hans", "toast.showdown_on")
    assert not [v for v in out.views if v.kind is ViewKind.HAND]
    st = await state_of(mgr, rid)
    assert st["phase"] == "showdown"
    out = await act(mgr, actors[1], Verb.REVIEW, room_id=rid, round_no=1)
    assert not out.ok and not out.views and "亮牌" in (out.reply or "")  # showdown running
    # a round not played yet
    out = await act(mgr, actors[1], Verb.REVIEW, room_id=rid, round_no=2)
    assert not out.ok
    await clock.advance(30)
    st = await state_of(mgr, rid)
    assert st["phase"] == "lobby"
    # the settlement carries a review button (each presser gets their own);
    # each private hand becomes its player's result, with it too
    settle_view = next(v for v in sink.views if v.kind is ViewKind.SETTLEMENT)
    ids = [b.action_id for row in settle_view.buttons for b in row]
    assert button in ids
    results = [v for v in sink.views if v.kind is ViewKind.HAND]
    assert {v.user_id for v in results} == {"100", "101"}
    assert all(button in str(v.buttons) for v in results)
    # a hand drawn once the round is paid says what it won, not "waiting for the others"
    from bot.core.room import Room
    from bot.views import render
    from bot.views.render_common import signed

    totals = st["round"]["result"]["settlement"]["totals"]
    for a in actors:
        v = render.hand_view(Room.from_json(st), a.key)
        assert button in str(v.buttons)
        points = totals[a.key]
        assert f"第 1 局已结算：你 {signed(points)} 分" in "\n".join(v.lines)
        assert not any("等待其他玩家" in line for line in v.lines)
    for a in actors:
        out = await ok(mgr, a, Verb.REVIEW, room_id=rid, round_no=1)
        [view] = out.views
        assert view.audience is Audience.PLAYER and view.user_id == a.user_id
        assert view.chat_id == st["chat_id"]
    assert set(st["round"]["review"]) == {a.key for a in actors}  # no AI review
    # stored with the settlement, the same numbers
    [record] = await repo.room_settlements(rid, 1, 1)
    assert record.detail["review"] == st["round"]["review"]
    # the next round dealt: the old review is read from the stored settlement
    await ok(mgr, actors[0], Verb.START)
    out = await ok(mgr, actors[0], Verb.REVIEW, room_id=rid, round_no=1)
    assert out.views[0].lines
    # an outsider at the table's chat has no review
    from .helpers import human

    out = await act(mgr, human(9), Verb.REVIEW, room_id=rid, round_no=1)
    assert not out.ok


@pytest.mark.parametrize(
    ("humans", "options"), [(3, ()), (3, ("jokers=2",)), (2, ("extra_three=on",))]
)
async def test_review_numbers_equal_suggest_and_settle(repo, clock, humans, options):
    mgr, _ = make_manager(repo, clock)
    rid, actors = await open_table(mgr, humans, 1, options=list(options))
    await ok(mgr, actors[0], Verb.START)
    st = await state_of(mgr, rid)
    for a in actors:
        await press_arrangement(mgr, rid, a)
    await clock.advance(30)
    st = await state_of(mgr, rid)
    rnd = st["round"]
    rules = rules_of(rnd["rules"])
    n = len(rnd["seats"])
    for a in actors:
        rv = rnd["review"][a.key]
        hand = rnd["hands"][a.key]
        cards = Hand.from_json(hand).card_list()
        opps = opponents_of(Room.from_json(st), a.key)
        s = suggest(cards, rules, players=n, top=1, opponents=opps)
        best = s.items[0]
        declare = s.special is not None and s.declare_recommended
        assert rv["best_ev"] == pytest.approx(
            round(s.special_score if declare else best.score, 2), abs=1e-9
        )
        # the same model prices a given arrangement: the best one gets suggest's score
        assert expected_of(cards, best.arrangement, rules, players=n, opponents=opps) == (
            pytest.approx(best.score, abs=1e-9)
        )
        if not hand["declared"]:
            mine = expected_of(
                cards, Hand.from_json(hand).arrangement(), rules, players=n, opponents=opps
            )
            assert rv["mine_ev"] == pytest.approx(round(mine, 2), abs=1e-9)
            assert rv["given_up"] == pytest.approx(round(rv["best_ev"] - mine, 2), abs=0.011)
        # settle: the player's actual points, and the best's against the hands played
        assert rv["actual"] == rnd["result"]["settlement"]["totals"][a.key]
        shown = []
        for seat in rnd["seats"]:
            h = rnd["hands"][seat]
            arr = arr_of(rv["best"]) if seat == a.key else Hand.from_json(h).arrangement()
            shown.append(PlayerHand(seat, arr))
        if not any(rnd["hands"][k]["declared"] for k in rnd["seats"]) and not declare:
            expect = settle(shown, rules, banker=None, escaped=()).totals[a.key]
            assert rv["best_actual"] == expect


async def test_a_worse_arrangement_gives_up_points(repo, clock):
    """Reviewed directly on a dealt round: the weakest legal split (strongest
    tail first is never better than the best response) gives up >= 0."""
    from bot.solver import strongest_tail_first

    mgr, _ = make_manager(repo, clock)
    rid, actors = await open_table(mgr, 2, 2)
    await ok(mgr, actors[0], Verb.START)
    room = Room.from_json(await state_of(mgr, rid))
    rnd = room.rnd
    rules = rnd.game_rules()
    for a in actors:
        hand = rnd.hands[a.key]
        set_arrangement(hand, strongest_tail_first(hand.card_list(), rules), undoable=False)
        hand.done = True
    from bot.table.solving import settle_round

    settlement, reveal, specials = settle_round(rnd, rules)
    rnd.result = Showdown(settlement, reveal, tuple(specials), ())
    for a in actors:
        rv = review_seat(rnd, a.key, rules, opponents_of(room, a.key))
        assert rv["given_up"] >= -0.01
        assert rv["best_ev"] >= rv["mine_ev"] - 0.01


async def test_a_failing_review_never_stops_the_round(repo, clock, monkeypatch):
    from bot.table import review

    def broken(state):
        raise RuntimeError("solver down")

    monkeypatch.setattr(review, "review_round", broken)
    mgr, _ = make_manager(repo, clock)
    rid, actors = await open_table(mgr, 2)
    await ok(mgr, actors[0], Verb.START)
    for a in actors:
        await press_arrangement(mgr, rid, a)
    await clock.advance(30)
    st = await state_of(mgr, rid)
    assert st["phase"] == "lobby" and await repo.has_settlement(rid, 1)
    out = await act(mgr, actors[0], Verb.REVIEW, room_id=rid, round_no=1)
    assert not out.ok and not out.views
