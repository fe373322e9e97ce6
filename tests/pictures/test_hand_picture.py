"""The private hand picture: every card at its place, red suits red, the
16-card hand, and the picture built from a real room."""

from __future__ import annotations

import pytest

from bot.core.room import Room
from bot.i18n import LANGUAGES
from bot.pictures import HandPicture, Marks, draw_hand, hand_picture, render_hand
from bot.pictures import cards as card_art
from bot.rules.cards import BIG, SMALL, parse_card, parse_cards
from bot.rules.types import Category, SpecialHand
from bot.table.actions import Verb
from tests.table.helpers import make_manager, ok, open_table, state_of

from .pixels import black, decode, red, same_as_sprite, share_of

HEAD = parse_cards("Qs Qh 4c")
MIDDLE = parse_cards("9h 9d 9s 3h 3d")
UNPLACED = parse_cards("As Ks Js Ts 2c")


def picture(**kw) -> HandPicture:
    base = dict(
        language="zh-Hans",
        round_no=3,
        lanes=(HEAD, MIDDLE, ()),
        unplaced=UNPLACED,
        categories=(Category.ONE_PAIR, Category.FULL_HOUSE, None),
    )
    base.update(kw)
    return HandPicture(**base)


def check_every_card(p: HandPicture) -> None:
    image = decode(render_hand(p))
    assert image.size == (draw_hand.WIDTH, draw_hand.HEIGHT)
    spots = draw_hand.layout(p)
    assert [s.card for s in spots] == [*p.lanes[0], *p.lanes[1], *p.lanes[2], *p.unplaced]
    for s in spots:
        wild, added = p.marks.of(s.card)
        sprite = card_art.face(s.card, draw_hand.CARD_W, wild, added)
        assert same_as_sprite(image, sprite, s.x, s.y, s.visible), s
        others = [c for c in parse_cards("2d 7c Kh") if c != s.card]
        assert not same_as_sprite(
            image, card_art.face(others[0], draw_hand.CARD_W), s.x, s.y, s.visible
        )
        assert s.x >= 0 and s.x + draw_hand.CARD_W <= image.width
        assert s.y >= 0 and s.y + draw_hand.CARD_H <= image.height


def test_every_card_is_drawn_at_its_place():
    check_every_card(picture())


def test_lanes_are_rows_top_down_and_cards_left_to_right():
    spots = draw_hand.layout(picture())
    rows = {s.lane: s.y for s in spots if s.lane is not None}
    assert rows[0] < rows[1]
    unplaced_y = {s.y for s in spots if s.lane is None}
    assert len(unplaced_y) == 1 and unplaced_y.pop() > rows[1] + draw_hand.CARD_H
    middle = [s.x for s in spots if s.lane == 1]
    assert middle == sorted(middle) and len(set(middle)) == 5


def test_red_suits_are_red_and_black_suits_black():
    image = decode(render_hand(picture()))
    for s in draw_hand.layout(picture()):
        if s.lane is None or s.card.rank in (11, 12, 13):
            continue
        w, h = draw_hand.CARD_W, draw_hand.CARD_H
        pip = image.crop((s.x + w // 3, s.y + h // 3, s.x + 2 * w // 3, s.y + 2 * h // 3))
        if s.card.suit in ("h", "d"):
            assert share_of(pip, red) > 0.3, s.card
            assert share_of(pip, black) == 0, s.card
        else:
            assert share_of(pip, black) > 0.3, s.card
            assert share_of(pip, red) == 0, s.card


def test_jokers_marks_and_a_sixteen_card_hand():
    cards = parse_cards("As Ah Ad Ks Kh Kd Qs Qh Qd Js Jh Jd 6c 6d") + (BIG, SMALL)
    p = picture(
        lanes=(cards[:3], cards[3:8], cards[8:11]),
        unplaced=cards[11:],
        categories=(Category.THREE_OF_A_KIND, None, None),
        discard=3,
        marks=Marks(wild_rank=6, added_suit="h"),
    )
    assert len(p.unplaced) == 5 and sum(map(len, p.lanes)) + len(p.unplaced) == 16
    check_every_card(p)
    # The big joker is the coloured one: red ink on its face, none on the small one.
    big, small = card_art.face(BIG, 96), card_art.face(SMALL, 96)
    assert share_of(big.convert("RGB"), red) > 0.02
    assert share_of(small.convert("RGB"), red) == 0
    # The wild rank and the added suit are marked; a plain card is not.
    plain = card_art.face(parse_card("6c"), 96)
    assert card_art.face(parse_card("6c"), 96, wild=True).tobytes() != plain.tobytes()
    assert (
        card_art.face(parse_card("5h"), 96, added=True).tobytes()
        != card_art.face(parse_card("5h"), 96).tobytes()
    )


def test_many_unplaced_cards_fan_out_inside_the_picture():
    cards = parse_cards("As Ah Ad Ac Ks Kh Kd Kc Qs Qh Qd Qc Js Jh Jd Jc")
    p = picture(lanes=((), (), ()), unplaced=cards, categories=(None, None, None), discard=3)
    check_every_card(p)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_special_and_confirmed_hands_render_in_every_language(lang):
    p = picture(language=lang, special=SpecialHand.SIX_PAIRS, declared=True, done=True)
    assert decode(render_hand(p)).size == (draw_hand.WIDTH, draw_hand.HEIGHT)


async def test_hand_picture_of_a_real_room_follows_the_taps(repo, clock):
    mgr, _ = make_manager(repo, clock)
    rid, actors = await open_table(mgr, 2)
    await ok(mgr, actors[0], Verb.START)
    key = actors[0].key
    st = await state_of(mgr, rid)
    dealt = st["round"]["hands"][key]["cards"]
    for i in (0, 1, 2, 3):
        await ok(mgr, actors[0], Verb.PICK, str(i), room_id=rid, round_no=1)
    st = await state_of(mgr, rid)
    p = hand_picture(Room.from_json(st), key)
    assert p.lanes[0] == tuple(parse_card(t) for t in dealt[:3])
    assert p.lanes[1] == (parse_card(dealt[3]),) and p.lanes[2] == ()
    assert sorted(p.unplaced) == sorted(parse_card(t) for t in dealt[4:])
    assert p.categories[0] is not None and p.categories[1] is None
    assert p.language == st["language"] and p.round_no == 1
    check_every_card(p)
