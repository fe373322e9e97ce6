"""Seats only for members, forged action data, and removing a player: every
refusal says why and changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.table.actions import ActionIdError, Verb, decode, encode
from bot.views.model import ViewKind

from .helpers import CHAT, act, human, make_manager, ok, open_table, state_of
from .helpers import FORGED_ARGS as ARGS

OTHER_CHAT = "chat-2"
# An argument each verb could plausibly carry on a button.


async def unchanged(mgr, repo, rid, actor, verb, arg=None, **kw):
    before = await repo.load_room(rid)
    out = await act(mgr, actor, verb, arg, **kw)
    after = await repo.load_room(rid)
    assert not out.ok, (verb, arg)
    assert out.reply
    assert after.version == before.version and after.state == before.state
    return out


@pytest.mark.parametrize("dealt", [False, True], ids=["lobby", "arranging"])
async def test_forged_presses_of_every_kind_from_another_chat_change_nothing(
    repo, clock, dealt: bool
) -> None:
    mgr, _ = make_manager(repo, clock)
    rid, (owner, guest) = await open_table(mgr, 2, ais=1)
    if dealt:
        await ok(mgr, owner, Verb.START)
    st = await state_of(mgr, rid)
    # Someone of another group, holding the room's id and round (shown in every title).
    outsider = human(7)
    for verb in Verb:
        if verb is Verb.NEW:
            continue  # opens a room in the presser's own chat, never this one
        out = await unchanged(
            mgr,
            repo,
            rid,
            outsider,
            verb,
            ARGS.get(verb),
            room_id=rid,
            round_no=st["round_no"],
            chat_id=OTHER_CHAT,
        )
        assert out.reply == "这张牌桌属于另一个群：只有这个群的成员才能在这里玩。", verb
        assert not out.views
    # Even the owner and a seated player cannot act on it from another chat.
    for actor, verb in ((owner, Verb.CANCEL), (guest, Verb.LEAVE), (owner, Verb.SHOW_HAND)):
        await unchanged(mgr, repo, rid, actor, verb, room_id=rid, chat_id=OTHER_CHAT)


async def test_private_chat_only_for_who_is_at_the_table(repo, clock) -> None:
    mgr, _ = make_manager(repo, clock)
    rid, (owner, guest) = await open_table(mgr, 2)
    stranger = human(8)
    # A forged join button pressed in a private chat: the adapter could not vouch.
    out = await unchanged(mgr, repo, rid, stranger, Verb.JOIN, room_id=rid, chat_id="")
    assert "群" in out.reply
    for verb in (Verb.SETTINGS, Verb.LEAVE, Verb.RULES, Verb.LEADERBOARD, Verb.VERIFY):
        await unchanged(mgr, repo, rid, stranger, verb, ARGS.get(verb), room_id=rid, chat_id="")
    # The owner's private settings panel and a player's private hand still work.
    await ok(mgr, owner, Verb.SET_OPTION, "jokers=1", room_id=rid, round_no=0, chat_id="")
    await ok(mgr, owner, Verb.START, room_id=rid, round_no=0, chat_id="")
    await ok(mgr, guest, Verb.PICK, "0", room_id=rid, round_no=1, chat_id="")
    await unchanged(mgr, repo, rid, stranger, Verb.PICK, "0", room_id=rid, round_no=1, chat_id="")
    # Joining with the chat named (the adapter checked membership) is a join.
    out = await act(mgr, stranger, Verb.JOIN, room_id=rid, round_no=1, chat_id=CHAT)
    assert not out.ok and out.reply == "本局进行中，请等下一局。"


async def test_the_owner_removes_a_player_before_the_deal(repo, clock) -> None:
    mgr, sink = make_manager(repo, clock)
    rid, (owner, guest, third) = await open_table(mgr, 3, ais=1)
    out = await act(mgr, owner, Verb.SETTINGS)
    panel = out.views[0]
    removes = [b for row in panel.buttons for b in row if b.label.startswith("✖")]
    assert [decode(b.action_id)[2:] for b in removes] == [
        (Verb.REMOVE_PLAYER, guest.user_id),
        (Verb.REMOVE_PLAYER, third.user_id),
        (Verb.REMOVE_AI, "1"),
    ]
    assert sum(len(row) for row in panel.buttons) <= 25  # Discord's limit
    # Only the owner, only a seated person, never the owner, only in the lobby.
    await unchanged(mgr, repo, rid, guest, Verb.REMOVE_PLAYER, third.user_id, room_id=rid)
    await unchanged(mgr, repo, rid, owner, Verb.REMOVE_PLAYER, "999", room_id=rid)
    await unchanged(mgr, repo, rid, owner, Verb.REMOVE_PLAYER, owner.user_id, room_id=rid)
    await unchanged(mgr, repo, rid, owner, Verb.REMOVE_PLAYER, None, room_id=rid)
    done = await ok(mgr, owner, Verb.REMOVE_PLAYER, guest.user_id, room_id=rid, round_no=0)
    assert done.reply == f"已请 {guest.name} 离开牌桌。"
    kinds = {v.kind for v in done.views}
    assert ViewKind.TABLE in kinds and ViewKind.NOTICE in kinds  # the group sees it
    st = await state_of(mgr, rid)
    assert guest.key not in {p["key"] for p in st["players"]}
    # The removed player may join again (the owner decides again); after the deal, no removing.
    await ok(mgr, owner, Verb.START)
    await unchanged(mgr, repo, rid, owner, Verb.REMOVE_PLAYER, third.user_id, room_id=rid)


async def test_banker_mode_and_the_number_of_players_never_contradict(repo, clock) -> None:
    mgr, _ = make_manager(repo, clock)
    rid, (owner, *_) = await open_table(mgr, 5, options=["suit=s"])
    out = await unchanged(mgr, repo, rid, owner, Verb.SET_OPTION, "banker=on")
    assert "坐庄" in out.reply and "4" in out.reply
    await ok(mgr, owner, Verb.CANCEL)
    # With 4 seated banker mode is fine, and a fifth seat is refused with the reason.
    rid, (owner, *_) = await open_table(mgr, 4)
    await ok(mgr, owner, Verb.SET_OPTION, "banker=on")
    out = await unchanged(mgr, repo, rid, human(5), Verb.JOIN, room_id=rid)
    assert "坐庄" in out.reply and "4" in out.reply
    out = await unchanged(mgr, repo, rid, owner, Verb.ADD_AI, "easy", room_id=rid)
    assert "4" in out.reply
    await ok(mgr, owner, Verb.CANCEL)
    # 多三张 with 3 seated: a fourth seat is refused too.
    rid, (owner, *_) = await open_table(mgr, 3, options=["extra3=on"])
    out = await unchanged(mgr, repo, rid, owner, Verb.ADD_AI, "easy", room_id=rid)
    assert "多三张" in out.reply


@pytest.mark.parametrize(
    "data",
    [
        "t1|abc|1|v|²",  # int("²") fails; "²".isdigit() is True
        "t1|abc|²|p|1",
        "t1|abc|1|v|" + "9" * 30,  # a round of 10^30
        "t1|ＡＢＣ|0|j",  # full-width letters pass str.isalnum()
        "t1|abc|1|p|٣",  # an Arabic-Indic three
        "t1|abc|1|p|16",
        "t1|abc|1|o|a b",
        "t1|abc|1|o|jökers=1",
        "t1|abc|0|rp|" + "1" * 33,
    ],
)
def test_forged_action_ids_are_not_valid(data: str) -> None:
    with pytest.raises(ActionIdError):
        decode(data)


def test_every_button_the_table_makes_decodes() -> None:
    for verb, arg in ARGS.items():
        assert decode(encode("abc123", 7, verb, arg)) == ("abc123", 7, verb, arg)


@pytest.mark.parametrize("arg", ["²", "1" * 30, "-1", " 1", "٣"])
async def test_a_typed_verify_round_that_is_not_a_number_is_not_valid(repo, clock, arg) -> None:
    mgr, _ = make_manager(repo, clock)
    rid, _actors = await open_table(mgr, 2)
    out = await unchanged(mgr, repo, rid, human(0), Verb.VERIFY, arg)
    # the refusal says what a round number is
    assert out.reply == f"{arg[:24]} 不是局号：请写 1 或更大的整数。"


async def test_a_second_room_is_refused_in_the_open_rooms_language(repo, clock) -> None:
    mgr, _ = make_manager(repo, clock, default_language="zh-Hant")
    rid, (owner, guest) = await open_table(mgr, 2)
    await ok(mgr, owner, Verb.LANGUAGE, "en")
    out = await act(mgr, guest, Verb.NEW, "classic")
    assert not out.ok and out.reply == "This chat already has an open room."
    assert out.room_id == rid


def test_no_doubled_word_in_the_traditional_chinese_catalog() -> None:
    root = Path(__file__).resolve().parents[2] / "bot" / "i18n" / "locales" / "zh-Hant"
    for path in root.glob("*.json"):
        for text in json.loads(path.read_text(encoding="utf-8")).values():
            assert "群組組" not in text
