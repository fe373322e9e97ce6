"""The showdown's moments (bot/core/moments.py) read from real settlements:
which step decides each, what a scoop did to its pair's score, the home
run holding its own scoops, and the sentences every surface says."""

from __future__ import annotations

import pytest

from bot.core.moments import SCOOP_STEP, Moment, MomentKind, moments
from bot.core.showdown import SPECIALS_STEP, Settlement
from bot.i18n import t
from bot.pictures.stamps import moment_text
from bot.rules import Arrangement, PlayerHand, detect_special, make_rules, settle
from bot.rules.cards import parse_cards
from bot.rules.types import SpecialHand
from tests.table.helpers import SCOOPING_DEAL

SCOOPER = Arrangement(
    parse_cards("Kh Kd Kc"), parse_cards("As Ah Ad Ac 2c"), parse_cards("9s Ts Js Qs Ks")
)
SCOOPED = Arrangement(
    parse_cards("Jh 7c 4s"), parse_cards("6h 6c 3s 3c 2h"), parse_cards("Qd 9d 7d 4d 2d")
)
THIRD = Arrangement(
    parse_cards("Th Tc Qc"), parse_cards("Jd Jc 9h 3d 2s"), parse_cards("8h 8d 5d 5c 4h")
)
DRAGON = parse_cards("2s 3h 4d 5c 6s 7h 8d 9c Th Jd Qc Ks Ac")


def settled(arrangements: list[Arrangement], **options: object) -> Settlement:
    rules = make_rules("classic", len(arrangements), options)
    hands = [PlayerHand(f"P{i}", a) for i, a in enumerate(arrangements)]
    return Settlement.from_json(settle(hands, rules).to_json())


def test_the_deal_the_e2e_tests_rig_scoops() -> None:
    """tests.table.helpers.SCOOPING_DEAL is these three splits' cards."""
    for cards, arr in zip(SCOOPING_DEAL, (SCOOPER, SCOOPED, THIRD), strict=True):
        assert sorted(cards) == sorted(c.token for c in (*arr.head, *arr.middle, *arr.tail))


@pytest.mark.parametrize(("double", "times"), [(True, 2), (False, 1)])
def test_a_scoop_is_decided_by_the_tail(double: bool, times: int) -> None:
    st = settled([SCOOPER, SCOOPED], scoop_double=double)
    scoop = Moment(MomentKind.SCOOP, "P0", "P1", times)
    assert moments(st) == (scoop,)
    assert moments(st, ("head", "middle")) == ()
    assert moments(st, ("head", "middle", SCOOP_STEP)) == (scoop,)


def test_a_home_run_holds_its_scoops_and_doubles_them_again() -> None:
    st = settled([SCOOPER, SCOOPED, THIRD])
    assert st.home_run == "P0"
    # P1 beat P2 in two lanes and lost the head: no scoop between them
    assert moments(st) == (Moment(MomentKind.HOME_RUN, "P0", times=4),)


def test_a_special_comes_with_its_step() -> None:
    rules = make_rules("classic", 2)
    dragon = detect_special(DRAGON, rules)
    assert dragon is not None
    hands = [PlayerHand("P0", SCOOPED), PlayerHand("P1", dragon.arrangement, special=dragon)]
    st = Settlement.from_json(settle(hands, rules).to_json())
    shown = Moment(MomentKind.SPECIAL, "P1", special="dragon")
    assert moments(st, ("head", "middle", "tail")) == ()
    assert moments(st, ("head", "middle", "tail", SPECIALS_STEP)) == (shown,)


@pytest.mark.parametrize(
    ("lang", "scoop", "home_run", "special"),
    [
        ("zh-Hans", "卡萝 打枪 阿丽 ×2", "卡萝 打枪全场 ×4", "卡萝 报道 一条龙"),
        ("zh-Hant", "卡萝 打槍 阿丽 ×2", "卡萝 打槍全場 ×4", "卡萝 報道 一條龍"),
        ("en", "卡萝 scoops 阿丽 ×2", "卡萝 scoops everyone ×4", "卡萝 declares dragon"),
    ],
)
def test_the_sentences(lang: str, scoop: str, home_run: str, special: str) -> None:
    assert moment_text(lang, MomentKind.SCOOP, "卡萝", "阿丽", 2) == scoop
    assert moment_text(lang, MomentKind.SCOOP, "卡萝", "阿丽", 1) == scoop.removesuffix(" ×2")
    assert moment_text(lang, MomentKind.HOME_RUN, "卡萝", times=4) == home_run
    said = moment_text(lang, MomentKind.SPECIAL, "卡萝", special=SpecialHand.DRAGON)
    assert said == special
    assert t(lang, "moment.home_run_line", text=home_run).endswith(home_run)
