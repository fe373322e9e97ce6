"""Whole rounds through the manager, for every table size and mode."""

from __future__ import annotations

import pytest

from bot.table.actions import Verb
from bot.views.model import ViewKind

from .helpers import RiggedRandom, make_manager, ok, open_table, play_round, state_of

MODES = [
    # (humans, ais, preset, options)
    (2, 0, "classic", ()),
    (2, 1, "classic", ()),
    (3, 1, "extended", ()),
    (2, 3, "classic", ("added_suit=h",)),  # 5 players, the 65-card deck
    (4, 0, "classic", ("jokers=2",)),
    (3, 0, "extended", ("jokers=1",)),
    (3, 1, "classic", ("wild=random",)),
    (4, 0, "classic", ("banker=on",)),
    (2, 1, "classic", ("extra_three=on",)),  # 多三张: 16 cards, keep 13
    (2, 2, "classic", ("deal=three", "wheel=low", "scoop=off")),
]


@pytest.mark.parametrize("humans,ais,preset,options", MODES)
async def test_full_round(repo, clock, humans, ais, preset, options):
    mgr, sink = make_manager(repo, clock)
    await mgr.start()
    rid, actors = await open_table(mgr, humans, ais, preset, options)
    st = await play_round(mgr, clock, rid, actors)
    n = humans + ais
    rnd = st["round"]
    assert rnd["no"] == 1 and rnd["settled"]
    assert len(rnd["seats"]) == n
    per = 16 if "extra_three=on" in options else 13
    assert all(len(h["cards"]) == per for h in rnd["hands"].values())
    # every dealt card is distinct from the deck's point of view
    dealt = [c for h in rnd["hands"].values() for c in h["cards"]]
    assert sorted(dealt) == sorted(rnd["deck"][: n * per]) or len(set(dealt)) <= len(dealt)
    totals = rnd["result"]["settlement"]["totals"]
    assert sum(totals.values()) == 0  # no escape: every pair settles to zero
    assert st["totals"] == {k: v for k, v in totals.items()}
    assert await repo.has_settlement(rid, 1)
    # showdown pushed head, middle, tail (and the settlement) through the sink
    kinds = [v.kind for v in sink.views]
    assert ViewKind.SETTLEMENT in kinds
    group = [v for v in sink.views if v.kind is not ViewKind.HAND]
    assert group[-1].kind in (ViewKind.SETTLEMENT, ViewKind.TABLE)
    # with it, each person's private hand becomes their result
    people = {a.user_id for a in actors}
    last = sink.views[-len(people) :]
    assert {v.user_id for v in last} == people
    assert all(v.kind is ViewKind.HAND and "已结算" in v.text for v in last)
    if "banker=on" in options:
        assert rnd["banker"] == actors[0].key
        pairs = rnd["result"]["settlement"]["pairs"]
        assert all(actors[0].key in (p["a"], p["b"]) for p in pairs)
        assert all(abs(p["score"]) <= 7 for p in pairs)
    if "wild=random" in options:
        assert rnd["wild_rank"] is not None
        assert rnd["rules"]["wild_rank"] == rnd["wild_rank"]
    if "extra_three=on" in options:
        for hand in rnd["hands"].values():
            arr = [len(hand["head"]), len(hand["middle"])]
            assert arr == [3, 5]
            kept = set(hand["head"]) | set(hand["middle"]) | set(hand["tail"])
            assert len(kept) == 13  # the 3 left over are discarded


async def test_next_round_and_running_totals(repo, clock):
    mgr, _ = make_manager(repo, clock)
    rid, actors = await open_table(mgr, 2, 1)
    st1 = await play_round(mgr, clock, rid, actors)
    st2 = await play_round(mgr, clock, rid, actors)
    assert st2["round"]["no"] == 2
    r1 = st1["round"]["result"]["settlement"]["totals"]
    r2 = st2["round"]["result"]["settlement"]["totals"]
    for key in r1:
        assert st2["totals"][key] == r1[key] + r2[key]
    assert await repo.has_settlement(rid, 1) and await repo.has_settlement(rid, 2)


async def test_showdown_order_weakest_first_then_specials(repo, clock):
    # Seat 0 holds a dragon (declares), seats 1 and 2 play normal hands.
    dragon = ["As", "Kd", "Qh", "Jc", "Ts", "9d", "8h", "7c", "6s", "5d", "4h", "3c", "2s"]
    p1 = ["Ah", "Ad", "Ac", "Kh", "Ks", "Kc", "Qs", "Qd", "Qc", "Js", "Jh", "Jd", "2h"]
    p2 = ["3s", "3h", "4s", "4d", "5s", "5h", "6d", "6h", "7s", "7d", "8s", "8d", "9s"]
    mgr, sink = make_manager(repo, clock, RiggedRandom([dragon, p1, p2]))
    rid, actors = await open_table(mgr, 3)
    await ok(mgr, actors[0], Verb.START)
    st = await state_of(mgr, rid)
    assert st["round"]["hands"][actors[0].key]["special"]["hand"] == "dragon"
    out = await ok(mgr, actors[0], Verb.DECLARE, room_id=rid, round_no=1)
    hand_view = next(v for v in out.views if v.kind is ViewKind.HAND)
    # declared: nothing left to press but the review (复盘), open once the round is paid
    assert [b.action_id for row in hand_view.buttons for b in row] == [f"t1|{rid}|1|rv"]
    for a in actors[1:]:
        from .helpers import press_arrangement

        await press_arrangement(mgr, rid, a)
    st = await state_of(mgr, rid)
    assert st["phase"] == "showdown"
    result = st["round"]["result"]
    assert result["steps"] == ["head", "middle", "tail", "specials"]
    assert result["specials"] == [actors[0].key]
    from bot.core.round import rules_of
    from bot.rules.cards import parse_cards
    from bot.rules.lanes import evaluate_lane

    rules = rules_of(st["round"]["rules"])
    for lane in ("head", "middle", "tail"):
        keys = result["reveal"][lane]
        assert actors[0].key not in keys
        values = []
        for k in keys:
            h = st["round"]["hands"][k]
            from bot.core.hand import Hand

            values.append(
                evaluate_lane(parse_cards(Hand.from_json(h).arrangement_tokens()[lane]), rules)
            )
        assert values == sorted(values)
    before = len(sink.views)
    await clock.advance(2)
    await clock.advance(2)
    await clock.advance(2)
    # With pictures the showdown is a message of its own (text-only: the table's).
    steps = [v for v in sink.views[before:] if v.kind is ViewKind.SHOWDOWN]
    assert len(steps) == 3  # middle, tail, specials revealed one by one
    assert len({v.key for v in steps}) == 1 and all(v.picture for v in steps)
    assert any("dragon" in line or "一条龙" in line for line in steps[-1].lines)
    await clock.advance(2)
    st = await state_of(mgr, rid)
    assert st["phase"] == "lobby"
    totals = st["round"]["result"]["settlement"]["totals"]
    assert totals[actors[0].key] == 72  # dragon 36 from each of two players (classic)


async def test_ai_only_room_plays_itself(repo, clock):
    mgr, sink = make_manager(repo, clock)
    rid, actors = await open_table(mgr, 1, 3)
    await ok(mgr, actors[0], Verb.LEAVE)  # the owner watches; AI seats play
    st = await state_of(mgr, rid)
    assert st["owner"] == actors[0].key and len(st["players"]) == 3
    out = await ok(mgr, actors[0], Verb.START)
    st = await state_of(mgr, rid)
    assert st["phase"] == "showdown"  # AI seats arrange at once
    assert not any(v.kind is ViewKind.HAND for v in out.views)
    await clock.advance(10)
    assert (await state_of(mgr, rid))["phase"] == "lobby"
