"""Views rendered from real rooms: every text comes from the catalogs, every
button fits Discord's grid and Telegram's 64-byte callback data."""

from __future__ import annotations

import pytest

from bot.core.hand import Suggestion
from bot.i18n import LANGUAGES
from bot.table.actions import Verb, decode
from bot.views.model import Audience, View, ViewKind
from bot.views.render_common import sym
from bot.views.render_hand import lane_gist
from bot.views.render_hand import suggestion_text as _suggestion_text
from tests.table.helpers import make_manager, ok, open_table, press_arrangement, state_of


def check_view(view: View) -> None:
    assert len(view.buttons) <= 5
    for row in view.buttons:
        assert 1 <= len(row) <= 5
        for b in row:
            assert b.label
            if b.action_id:
                assert len(b.action_id.encode()) <= 64
                decode(b.action_id)  # well-formed
    assert view.text.strip()
    assert "{" not in view.text  # no unfilled placeholder


def test_card_symbols():
    # the emoji forms (VS16), which phones draw red for hearts and diamonds
    assert sym("As") == "A\u2660\ufe0f" and sym("Td") == "10\u2666\ufe0f"
    assert sym("10d") == "10♦️" and sym("2c") == "2♣️" and sym("Kh") == "K♥️"
    # 大王 the coloured joker emoji, 小王 a symbol every phone font has (not 🂿)
    assert sym("BJ") == "🃏" and sym("SJ") == "★"
    assert "🂿" not in sym("SJ")


def suggestion_text(lang: str, s: dict) -> str:
    """The view reads a typed suggestion; the test writes it as stored."""
    return _suggestion_text(lang, Suggestion.from_json({"declare_better": False, **s}))


def test_suggestion_text():
    s = {
        "cats": ["one_pair", "flush", "full_house"],
        "score": 2.4,
        "head": ["Js", "Jh", "4c"],
        "middle": ["Ah", "Qh", "Th", "5h", "2h"],
        "tail": ["7s", "7h", "7d", "8c", "8d"],
    }
    assert suggestion_text("en", s) == (
        "Head pair (J J) / Middle flush (A Q 10 5 2) / Tail full house (7 7 7 + 8 8)"
        " → about +2.4 pts"
    )
    assert suggestion_text("zh-Hans", s) == (
        "头道一对（J J） / 中道同花（A Q 10 5 2） / 尾道葫芦（7 7 7 + 8 8） → 预计 +2.4 分"
    )
    # tens read apart: never "101010 99"
    tens = {**s, "tail": ["Ts", "Th", "Td", "9c", "9d"]}
    assert "10 10 10 + 9 9" in suggestion_text("en", tens)


def test_lane_gist_tells_suggestions_apart():
    assert lane_gist(["Ks", "Kh", "9d", "9c", "2s"]) == "K K + 9 9"
    assert lane_gist(["Ks", "Kh", "9d", "9c", "2s"]) != lane_gist(["Ks", "Kh", "8d", "8c", "2s"])
    assert lane_gist(["As", "BJ", "3d"]) == "A 3 🃏"


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_every_view_of_a_round_renders(repo, clock, lang):
    mgr, sink = make_manager(repo, clock)
    rid, actors = await open_table(mgr, 2, 1, options=(f"language={lang}",))
    owner = actors[0]
    views: list[View] = []
    for verb, arg in (
        (Verb.SETTINGS, None),
        (Verb.HELP, None),
        (Verb.RULES, None),
        (Verb.LEADERBOARD, "week"),
    ):
        views += (await ok(mgr, owner, verb, arg)).views
    out = await ok(mgr, owner, Verb.START)
    views += out.views
    table = out.views[0]
    assert table.kind is ViewKind.TABLE and table.fresh and table.language == lang
    hands = [v for v in out.views if v.kind is ViewKind.HAND]
    assert {v.user_id for v in hands} == {a.user_id for a in actors}
    assert all(v.audience is Audience.PLAYER for v in hands)
    hand = hands[0]
    assert sum(len(r) for r in hand.buttons[:3]) == 13  # 5/5/3 card rows, then controls
    views += (await ok(mgr, owner, Verb.SUGGEST, room_id=rid, round_no=1)).views
    views += (await ok(mgr, owner, Verb.SHOW_HAND, room_id=rid, round_no=1)).views
    for a in actors:
        await press_arrangement(mgr, rid, a)
    await clock.advance(30)
    views += sink.views
    views += (await ok(mgr, owner, Verb.VERIFY, "1")).views
    views += (await ok(mgr, owner, Verb.STATS)).views
    views += (await ok(mgr, owner, Verb.LEADERBOARD, "all")).views
    for v in views:
        check_view(v)
        assert v.language == lang
    settle = next(v for v in views if v.kind is ViewKind.SETTLEMENT)
    st = await state_of(mgr, rid)
    # Under its picture the settlement is short: the totals; the deck, the
    # salt and the hash are on "verify" (the text-only settlement: test_messages)
    assert st["round"]["salt"] not in settle.text and len(settle.lines) <= 2 + len(actors)
    verified = next(v for v in views if v.key.startswith("verify:"))
    assert st["round"]["hash"] in verified.text and st["round"]["salt"] in verified.text
    assert " ".join(st["round"]["deck"]) in verified.text
    assert any(
        b.action_id and decode(b.action_id)[2] is Verb.START for r in settle.buttons for b in r
    )
    assert settle.key == f"settle:{rid}:1" and settle.fresh
    verify_view = next(v for v in views if v.key.startswith("verify:"))
    assert "✅" in verify_view.text
    settings = next(v for v in views if v.key == f"settings:{rid}")
    assert settings.audience is Audience.PLAYER and settings.user_id == owner.user_id


async def test_sixteen_card_hand_fits(repo, clock):
    mgr, _ = make_manager(repo, clock)
    rid, actors = await open_table(mgr, 2, options=("extra_three=on",))
    out = await ok(mgr, actors[0], Verb.START)
    out = await ok(mgr, actors[0], Verb.SUGGEST, room_id=rid, round_no=1)
    hand = next(v for v in out.views if v.kind is ViewKind.HAND)
    check_view(hand)
    picks = [
        b for r in hand.buttons for b in r if b.action_id and decode(b.action_id)[2] is Verb.PICK
    ]
    assert len(picks) == 16
    verbs = {decode(b.action_id)[2] for r in hand.buttons for b in r if b.action_id}
    # The suggestions shown, their buttons stand in Suggest's place; the
    # lane buttons stand in confirm's while it could not be pressed.
    assert {Verb.LANE, Verb.UNDO, Verb.RESET, Verb.SORT, Verb.APPLY} <= verbs
    assert Verb.SUGGEST not in verbs


async def test_sixteen_cards_with_a_special_and_three_suggestions_fit():
    """多三张, three suggestions shown, and the 13 cards placed make 六对半:
    16 cards, Confirm, Undo, Reset, Sort, 报道, three suggestions and the
    page's button in Discord's 5 rows of 5, where Suggest stood before."""
    from bot.core.presses import lay_arg
    from tests.web.harness import HAND_16, SIX_PAIRS_16, SIX_PAIRS_SPLIT, stage

    hands = (SIX_PAIRS_16, HAND_16)
    async with stage(hands, options=["extra3=on"], serve=False) as st:
        kw = {"room_id": st.room, "round_no": st.round_no}
        await ok(st.manager, st.players[0], Verb.SUGGEST, **kw)
        cards = (await st.hand(0))["cards"]
        head, middle, tail = (
            [cards.index(x) for x in SIX_PAIRS_SPLIT[lane]] for lane in ("head", "middle", "tail")
        )
        out = await ok(st.manager, st.players[0], Verb.LAY, lay_arg(head, middle, tail), **kw)
        hand = next(v for v in out.views if v.kind is ViewKind.HAND)
        check_view(hand)
        verbs = [decode(b.action_id)[2] for r in hand.buttons for b in r if b.action_id]
        assert verbs.count(Verb.PICK) == 16 and verbs.count(Verb.APPLY) == 3
        assert Verb.DECLARE in verbs and Verb.SUGGEST not in verbs
        assert sum(b.web_app for r in hand.buttons for b in r) == 1
