"""Arranging as button presses: head, middle, the tail by itself; take-back,
undo, reset, sort, suggestions, and the deck-hash check."""

from __future__ import annotations

import random

from bot.core.hand import Hand
from bot.core.room import Room
from bot.table.actions import Verb, decode
from bot.table.deal import deal_order, deck_hash, make_deal, verify
from bot.views.model import ButtonStyle, ViewKind
from bot.views.render_lobby import options_lines

from .helpers import RiggedRandom, act, make_manager, ok, open_table, state_of

HAND0 = ["As", "Ah", "Ad", "2c", "4d", "6h", "8s", "Tc", "Qd", "3h", "5c", "7d", "9h"]
HAND1 = ["Ks", "Kh", "Kd", "Kc", "Qs", "Qh", "Js", "Jh", "Jd", "9s", "9c", "8d", "8h"]


async def hand_of(mgr, rid, actor):
    return (await state_of(mgr, rid))["round"]["hands"][actor.key]


async def test_taps_fill_head_then_middle_then_tail_is_the_rest(repo, clock):
    mgr, _ = make_manager(repo, clock, RiggedRandom([HAND0, HAND1]))
    rid, (p0, _) = await open_table(mgr, 2)
    await ok(mgr, p0, Verb.START)
    kw = {"room_id": rid, "round_no": 1}
    for i in range(3):
        await ok(mgr, p0, Verb.PICK, str(i), **kw)
    h = await hand_of(mgr, rid, p0)
    assert h["head"] == [0, 1, 2] and h["middle"] == []
    for i in range(3, 7):
        await ok(mgr, p0, Verb.PICK, str(i), **kw)
    head, middle, tail = Hand.from_json(await hand_of(mgr, rid, p0)).lanes()
    assert len(middle) == 4 and tail == []
    out = await ok(mgr, p0, Verb.PICK, "7", **kw)  # the 8th card: the tail fills itself
    head, middle, tail = Hand.from_json(await hand_of(mgr, rid, p0)).lanes()
    assert (len(head), len(middle), len(tail)) == (3, 5, 5)
    assert set(tail) == set(range(8, 13))
    view = next(v for v in out.views if v.kind is ViewKind.HAND)
    confirm = next(
        b for r in view.buttons for b in r if b.action_id and decode(b.action_id)[2] is Verb.CONFIRM
    )
    # AAA over 2-4-6-8-10 is fouled (倒水): the button says so before it
    # is pressed (pressed, it answers why)
    assert "倒水" in confirm.label and confirm.style is ButtonStyle.DANGER
    # tapping a head card takes it back; the tail is "the rest" again only when full
    await ok(mgr, p0, Verb.PICK, "1", **kw)
    head, middle, tail = Hand.from_json(await hand_of(mgr, rid, p0)).lanes()
    assert head == [0, 2] and tail == []
    await ok(mgr, p0, Verb.PICK, "12", **kw)  # the next tap goes to the head again
    head, middle, tail = Hand.from_json(await hand_of(mgr, rid, p0)).lanes()
    assert head == [0, 2, 12] and len(tail) == 5
    # undo twice: back to the full first arrangement
    await ok(mgr, p0, Verb.UNDO, **kw)
    await ok(mgr, p0, Verb.UNDO, **kw)
    h = await hand_of(mgr, rid, p0)
    assert h["head"] == [0, 1, 2] and h["middle"] == [3, 4, 5, 6, 7]
    await ok(mgr, p0, Verb.RESET, **kw)
    assert Hand.from_json(await hand_of(mgr, rid, p0)).lanes() == ([], [], [])
    await ok(mgr, p0, Verb.UNDO, **kw)  # a reset can be undone
    assert (await hand_of(mgr, rid, p0))["head"] == [0, 1, 2]


async def test_sort_changes_the_order_not_the_lanes(repo, clock):
    mgr, _ = make_manager(repo, clock, RiggedRandom([HAND0, HAND1]))
    rid, (p0, _) = await open_table(mgr, 2)
    await ok(mgr, p0, Verb.START)
    kw = {"room_id": rid, "round_no": 1}
    await ok(mgr, p0, Verb.PICK, "5", **kw)
    before = await hand_of(mgr, rid, p0)
    out = await ok(mgr, p0, Verb.SORT, "suit", **kw)
    after = await hand_of(mgr, rid, p0)
    assert after["head"] == before["head"] == [5]
    assert sorted(after["order"]) == list(range(13)) and after["order"] != before["order"]
    view = next(v for v in out.views if v.kind is ViewKind.HAND)
    labels = [b.label for r in view.buttons[:3] for b in r]
    suits = [next(ch for ch in lab if ch in "♠♥♦♣") for lab in labels]
    assert suits == sorted(suits, key="♠♥♦♣".index)  # grouped by suit
    await ok(mgr, p0, Verb.SORT, "count", **kw)
    h = await hand_of(mgr, rid, p0)
    assert [h["cards"][i] for i in h["order"][:3]] == ["As", "Ah", "Ad"]  # the trips first


async def test_suggestions_apply_and_confirm(repo, clock):
    mgr, _ = make_manager(repo, clock, RiggedRandom([HAND0, HAND1]))
    rid, (p0, p1) = await open_table(mgr, 2)
    await ok(mgr, p0, Verb.START)
    kw = {"room_id": rid, "round_no": 1}
    out = await ok(mgr, p1, Verb.SUGGEST, **kw)
    view = next(v for v in out.views if v.kind is ViewKind.HAND)
    # each suggestion says its expected points, labelled as such above the list
    assert any(line.startswith("💡") for line in view.lines)
    assert any(line.startswith("1. ") and "预计" in line and "分" in line for line in view.lines)
    h = await hand_of(mgr, rid, p1)
    assert 1 <= len(h["suggestions"]) <= 3
    await ok(mgr, p1, Verb.APPLY, "0", **kw)
    h = await hand_of(mgr, rid, p1)
    head, middle, tail = Hand.from_json(h).lanes()
    assert [h["cards"][i] for i in head] == h["suggestions"][0]["head"]
    out = await ok(mgr, p1, Verb.CONFIRM, **kw)
    table = next(v for v in out.views if v.kind is ViewKind.TABLE)
    assert any(line.startswith("✅") and "P1" in line for line in table.lines)


async def test_language_and_settings_panel(repo, clock):
    mgr, _ = make_manager(repo, clock)
    rid, (p0, p1) = await open_table(mgr, 2)
    out = await ok(mgr, p0, Verb.LANGUAGE, "en")
    assert out.views[0].language == "en" and "room" in out.views[0].title
    # another player reads the settings (with no button to change them)
    read = (await ok(mgr, p1, Verb.SETTINGS)).views[0]
    assert read.user_id == p1.user_id and not read.buttons
    assert options_lines(Room.from_json(await state_of(mgr, rid)))[0] in read.lines
    panel = (await ok(mgr, p0, Verb.SETTINGS)).views[0]
    # every settings button is an action the owner may press in the lobby
    pressed = 0
    for row in panel.buttons:
        for b in row:
            room, rnd, verb, arg = decode(b.action_id)
            if verb is Verb.SET_OPTION:
                out = await act(mgr, p0, verb, arg, room_id=room, round_no=rnd)
                pressed += out.ok
    assert pressed >= 10
    st = await state_of(mgr, rid)
    assert st["options"]["arrange_seconds"] == 180  # the last time button pressed


def test_deal_order_and_hash():
    assert deal_order(2, 3, 1, "one") == [1, 0, 1, 0, 1, 0]
    assert deal_order(2, 4, 0, "three") == [0, 0, 0, 1, 1, 1, 0, 1]
    from bot.rules.options import make_rules

    rules = make_rules("classic", 4)
    deal = make_deal(rules, 4, style="three", rng=random.Random(3))
    assert verify(deal.deck, deal.salt, deal.hash)
    assert not verify(deal.deck, deal.salt + "0", deal.hash)
    swapped = list(deal.deck)
    swapped[0], swapped[1] = swapped[1], swapped[0]
    assert not verify(swapped, deal.salt, deal.hash)
    assert deck_hash(deal.deck, deal.salt) == deal.hash
    assert sorted(c for h in deal.hands for c in h) == sorted(deal.deck)  # 4 x 13 = 52
    assert 2 <= sum(deal.dice) <= 12 and deal.first_seat == (sum(deal.dice) - 1) % 4


def test_system_random_deals_differ():
    from bot.rules.options import make_rules

    rules = make_rules("classic", 2)
    a, b = make_deal(rules, 2), make_deal(rules, 2)
    assert a.deck != b.deck and a.salt != b.salt and len(a.salt) == 32


async def test_extra_three_special_is_judged_on_the_13_kept(repo, clock):
    dragon = ["As", "Kd", "Qh", "Jc", "Ts", "9d", "8h", "7c", "6s", "5d", "4h", "3c", "2s"]
    hand0 = dragon + ["2h", "3h", "4d"]
    hand1 = [
        "Ah",
        "Ad",
        "Ac",
        "Kh",
        "Ks",
        "Kc",
        "Qs",
        "Qd",
        "Qc",
        "Js",
        "Jh",
        "Jd",
        "9s",
        "9c",
        "8d",
        "8s",
    ]
    mgr, _ = make_manager(repo, clock, RiggedRandom([hand0, hand1]))
    rid, (p0, p1) = await open_table(mgr, 2, options=("extra_three=on",))
    await ok(mgr, p0, Verb.START)
    kw = {"room_id": rid, "round_no": 1}
    h = await hand_of(mgr, rid, p0)
    assert len(h["cards"]) == 16 and h["special"] is None
    for tok in reversed(dragon):  # 2 3 4 to the head, 5..9 the middle, 10..A the tail
        await ok(mgr, p0, Verb.PICK, str(h["cards"].index(tok)), **kw)
    h = await hand_of(mgr, rid, p0)
    assert h["special"]["hand"] == "dragon"
    await ok(mgr, p0, Verb.UNDO, **kw)
    assert (await hand_of(mgr, rid, p0))["special"] is None  # 12 kept: no special
    await ok(mgr, p0, Verb.PICK, str(h["cards"].index("As")), **kw)
    await ok(mgr, p0, Verb.DECLARE, **kw)
    await ok(mgr, p1, Verb.SUGGEST, **kw)
    await ok(mgr, p1, Verb.APPLY, "0", **kw)
    await ok(mgr, p1, Verb.CONFIRM, **kw)
    await clock.advance(30)
    st = await state_of(mgr, rid)
    assert st["round"]["result"]["settlement"]["totals"] == {p0.key: 36, p1.key: -36}
