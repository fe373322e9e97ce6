"""Showdown and settlement pictures: lanes revealed step by step as the
table reveals them, never a card of an unrevealed lane, winners marked,
specials shown only at their step, the settlement's numbers."""

from __future__ import annotations

import pytest

from bot.core.room import Room
from bot.core.showdown import Settlement
from bot.pictures import (
    ShowdownPicture,
    draw_showdown,
    judged_pictures,
    render_settlement,
    render_showdown,
    settlement_picture,
    showdown_picture,
)
from bot.pictures import cards as card_art
from bot.pictures.outcome import PictureRound, PictureSeat, showdown
from bot.rules import Arrangement, PlayerHand, detect_special, make_rules, parse_cards, settle
from bot.rules.cards import parse_card
from bot.rules.placing import placed_lanes
from bot.table.actions import Verb
from tests.table.helpers import make_manager, ok, open_table, press_arrangement, state_of

from .pixels import decode, gold, same_as_sprite, share_of

LANES = ("head", "middle", "tail")


def check_pixels(p: ShowdownPicture) -> None:
    """Every card place shows exactly what the input says: the back for a
    face-down lane, the card's face otherwise."""
    png = render_showdown(p)
    assert len(png) <= 200_000
    image = decode(png)
    assert image.size == draw_showdown.picture_size(p)
    for row, seat in enumerate(p.seats):
        for lane, show in enumerate(seat.lanes):
            spots = draw_showdown.card_spots(row, lane, show.size)
            for i, (x, y) in enumerate(spots):
                visible = draw_showdown.CARD_W if i == len(spots) - 1 else draw_showdown.STEP
                if show.cards is None:
                    sprite = card_art.back(draw_showdown.CARD_W)
                else:
                    sprite = card_art.face(
                        show.cards[i], draw_showdown.CARD_W, *p.marks.of(show.cards[i])
                    )
                assert same_as_sprite(image, sprite, x, y, visible), (seat.name, lane, i)
            x0, y0 = spots[0]
            frame = image.crop((x0 - 6, y0 + 10, x0 - 3, y0 + draw_showdown.CARD_H - 10))
            assert (share_of(frame, gold) > 0.5) == (show.winner and show.face_up), (row, lane)


def arrangement_of(hand) -> list[tuple]:
    lanes = placed_lanes(
        hand["order"], hand["head"], hand["middle"], hand["tail"], len(hand["cards"])
    )
    return [tuple(parse_card(hand["cards"][i]) for i in lane) for lane in lanes]


async def test_a_room_showdown_reveals_lane_by_lane(repo, clock):
    mgr, _ = make_manager(repo, clock)
    rid, actors = await open_table(mgr, 3, options=("language=zh-Hant",))
    await ok(mgr, actors[0], Verb.START)
    with pytest.raises(ValueError):
        showdown_picture(Room.from_json(await state_of(mgr, rid)))  # arranging: nothing to show
    for a in actors:
        await press_arrangement(mgr, rid, a)
    steps_seen = []
    while (st := await state_of(mgr, rid))["phase"] == "showdown":
        rnd = st["round"]
        shown = set(rnd["result"]["steps"][: rnd["step"] + 1])
        steps_seen.append(rnd["step"])
        p = showdown_picture(Room.from_json(st))
        assert p.language == "zh-Hant" and len(p.seats) == 3
        for key, seat in zip(rnd["seats"], p.seats, strict=True):
            assert seat.name == st["names"][key]
            real = arrangement_of(rnd["hands"][key])
            for lane, show in enumerate(seat.lanes):
                if LANES[lane] in shown:
                    assert show.cards == real[lane] and show.category is not None
                else:
                    assert show.cards is None and show.category is None and not show.winner
            assert (seat.total is not None) == (len(shown) == len(rnd["result"]["steps"]))
        check_pixels(p)
        await clock.advance(2)
    assert steps_seen == [0, 1, 2]
    # Settled: the whole showdown and the settlement with the room's totals.
    final = showdown_picture(Room.from_json(st))
    assert all(lane.face_up for seat in final.seats for lane in seat.lanes)
    result = st["round"]["result"]["settlement"]
    s = settlement_picture(Room.from_json(st))
    assert [x.name for x in s.seats] == [st["names"][k] for k in st["round"]["seats"]]
    assert [x.total for x in s.seats] == [result["totals"][k] for k in st["round"]["seats"]]
    assert [x.room_total for x in s.seats] == [st["totals"][k] for k in st["round"]["seats"]]
    assert len(s.pairs) == 3 and sum(x.total for x in s.seats) == 0
    assert len(render_settlement(s)) <= 200_000


def judged(revealed: frozenset[str]) -> ShowdownPicture:
    rules = make_rules("classic", 3)
    a = PlayerHand(
        "A",
        Arrangement.of(*(parse_cards(x) for x in ("As Ah Ad", "Ks Kh Kd 2c 2d", "Qs Js Ts 9s 8s"))),
    )
    dragon = parse_cards("2s 3s 4h 5d 6c 7s 8h 9d Tc Jd Qh Kc Ac")
    special = detect_special(dragon, rules)
    assert special is not None and special.arrangement is not None
    b = PlayerHand("B", special.arrangement, special)
    c = PlayerHand(
        "C",
        Arrangement.of(*(parse_cards(x) for x in ("3h 4c 6d", "5s 5h 7d 7c Jc", "2h 7h 9h Th Jh"))),
    )
    hands = [a, b, c]
    result = settle(hands, rules).to_json()
    seats = tuple(
        PictureSeat(
            h.id,
            h.id,
            (h.arrangement.head, h.arrangement.middle, h.arrangement.tail),
            h.special.points if h.special else 0,
        )
        for h in hands
    )
    return showdown(PictureRound("en", 1, seats, Settlement.from_json(result), revealed=revealed))


@pytest.mark.parametrize(
    "revealed",
    [
        (),
        ("head",),
        ("head", "middle"),
        ("head", "middle", "tail"),
        ("head", "middle", "tail", "specials"),
    ],
)
def test_a_declared_special_stays_face_down_until_its_step(revealed):
    p = judged(frozenset(revealed))
    b = p.seats[1]
    shown = "specials" in revealed
    assert all(lane.face_up == shown for lane in b.lanes)
    assert (b.special is not None) == shown and (b.special_points > 0) == shown
    for seat in (p.seats[0], p.seats[2]):
        assert [lane.face_up for lane in seat.lanes] == [name in revealed for name in LANES]
    # A sweeps C and meets only a special otherwise: all its revealed lanes win.
    assert [lane.winner for lane in p.seats[0].lanes] == [name in revealed for name in LANES]
    check_pixels(p)


def test_judged_pictures_name_scoops_and_banker_rounds():
    rules = make_rules("classic", 2)
    strong = PlayerHand(
        "win",
        Arrangement.of(*(parse_cards(x) for x in ("As Ah Ad", "Ks Kh Kd 2c 2d", "Qs Js Ts 9s 8s"))),
    )
    weak = PlayerHand(
        "lose",
        Arrangement.of(*(parse_cards(x) for x in ("3h 4c 6d", "5s 5h 7d 7c Jc", "2h 7h 9h Th Jh"))),
    )
    result = settle([strong, weak], rules).to_json()
    show, s = judged_pictures([strong, weak], result, rules, "zh-Hans")
    assert s.pairs[0].scoop == 0 and s.pairs[0].score > 0 and s.seats[0].total > 0
    assert s.seats[0].room_total is None and s.round_no is None
    check_pixels(show)


async def test_rendering_in_worker_threads_gives_the_same_pictures():
    import asyncio

    from bot.pictures import render_async

    pictures = [judged(frozenset(LANES[:k])) for k in range(4)]
    alone = [render_showdown(p) for p in pictures]
    together = await asyncio.gather(*(render_async(render_showdown, p) for p in pictures * 2))
    assert list(together) == alone * 2
