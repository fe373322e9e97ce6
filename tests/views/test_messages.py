"""Every message as a player would write it (docs/messages.md): what each
message says, driven through the table manager as a chat would drive it."""

from __future__ import annotations

import pytest

from bot.cli.judge import judge
from bot.core.showdown import Settlement
from bot.core.traits import PLAIN, Traits, register, traits_of
from bot.i18n import t
from bot.table.actions import Verb, decode
from bot.views.deadline import clock_text
from bot.views.model import Audience, Button, View, ViewKind
from bot.views.render_common import command, option_name, option_value, signed
from bot.views.render_lobby import options_lines
from bot.views.render_result import settlement_result_lines
from tests.printed import numbers, printed_points
from tests.table.helpers import (
    act,
    human,
    make_manager,
    ok,
    open_table,
    play_round,
    press_arrangement,
    state_of,
)


def _labels(view) -> list[str]:
    return [b.label for row in view.buttons for b in row]


def _hand(out, actor):
    return next(v for v in out.views if v.kind is ViewKind.HAND and v.user_id == actor.user_id)


# ---------------------------------------------------------------- deadlines


def test_a_deadline_is_a_clock_time_in_the_rooms_zone() -> None:
    # 0 s is 1970-01-01 00:00 UTC: 08:00 in Shanghai, 00:00 in London's winter.
    assert clock_text(120, "Asia/Shanghai") == "08:02:00 (UTC+8)"
    assert clock_text(120, "Europe/London") == "01:02:00 (UTC+1)"  # BST all of 1970
    assert clock_text(120, "UTC") == "00:02:00 (UTC)"
    assert clock_text(120, "Asia/Kolkata") == "05:32:00 (UTC+5:30)"
    assert clock_text(120, "No/Such_Zone") == "08:02:00 (UTC+8)"  # an old room: the default


async def test_telegram_table_shows_the_clock_and_the_hand_the_time_left(repo, clock) -> None:
    mgr, _ = make_manager(repo, clock, timezone="Asia/Taipei")
    rid, (p0, p1) = await open_table(mgr, 2)
    out = await ok(mgr, p0, Verb.START)
    line = f"⏱ 摆牌截止：{clock_text(clock.now() + 120, 'Asia/Taipei')}"
    assert line.endswith("(UTC+8)")
    table = next(v for v in out.views if v.kind is ViewKind.TABLE)
    assert line in table.lines  # the group's table: edited only when it changes
    # The private hand: how long is left, no clock time to subtract.
    assert "⏱ 还剩 2 分钟摆牌" in _hand(out, p1).lines
    await clock.advance(20)
    hand = await ok(mgr, p1, Verb.SHOW_HAND, room_id=rid, round_no=1)
    assert "⏱ 还剩不到 2 分钟摆牌" in _hand(hand, p1).lines
    assert not any("截止" in x for x in _hand(hand, p1).lines)
    # A confirmed hand has nothing left to do: no time line to keep true.
    await press_arrangement(mgr, rid, p1)
    again = await ok(mgr, p1, Verb.SHOW_HAND, room_id=rid, round_no=1)
    assert not any(x.startswith(("⏱", "⏰")) for x in _hand(again, p1).lines)


async def test_discord_shows_a_live_timestamp(repo, clock) -> None:
    mgr, _ = make_manager(repo, clock)
    alice, bob = human(0, "discord"), human(1, "discord")
    rid = (await ok(mgr, alice, Verb.NEW)).room_id
    await ok(mgr, bob, Verb.JOIN)
    await ok(mgr, alice, Verb.SET_OPTION, "lang=en")
    out = await ok(mgr, alice, Verb.START)
    line = f"⏱ Arranging ends <t:{int(clock.now()) + 120}:R>"
    table = next(v for v in out.views if v.kind is ViewKind.TABLE)
    assert line in table.lines
    hand = await ok(mgr, bob, Verb.SHOW_HAND, room_id=rid, round_no=1)
    assert line in _hand(hand, bob).lines


# A way to play the views have never heard of, declared as a platform
# declares itself: its commands and its deadlines are its own.
PAPER = register(
    Traits(name="paper", command=lambda name: f"!{name}", live_time=lambda s: f"[[{s}]]")
)


async def test_the_views_follow_the_platforms_declared_traits(repo, clock) -> None:
    mgr, _ = make_manager(repo, clock)
    alice, bob = human(0, PAPER.name), human(1, PAPER.name)
    help_text = (await ok(mgr, alice, Verb.HELP)).views[0].text
    assert "!new" in help_text and "!leaderboard" in help_text and "/newgame" not in help_text
    rid = (await ok(mgr, alice, Verb.NEW)).room_id
    await ok(mgr, bob, Verb.JOIN)
    await ok(mgr, alice, Verb.SET_OPTION, "lang=en")
    out = await ok(mgr, alice, Verb.START)
    line = f"⏱ Arranging ends [[{int(clock.now()) + 120}]]"
    table = next(v for v in out.views if v.kind is ViewKind.TABLE)
    assert line in table.lines
    # No time left redrawn on the hand: the markup keeps itself true.
    hand = await ok(mgr, bob, Verb.SHOW_HAND, room_id=rid, round_no=1)
    assert line in _hand(hand, bob).lines


def test_an_undeclared_platform_is_plain() -> None:
    assert traits_of("console") is PLAIN
    assert command("console", "new") == "new"


# ---------------------------------------------------------------- settings


@pytest.mark.parametrize(
    ("lang", "arg", "toast"),
    [
        ("zh-Hans", "time=60", "已设置 摆牌时间：60 秒"),
        ("zh-Hans", "jokers=1", "已设置 鬼牌：1"),
        ("zh-Hans", "extra3=on", "已设置 多三张：开"),
        ("zh-Hant", "scoop=off", "已設定 打槍翻倍：關"),
        ("en", "time=60", "Arranging time set to 60s"),
        ("en", "wild=random", "Wild rank set to random each round"),
        ("en", "preset=extended", "Preset set to " + t("en", "preset.extended")),
    ],
)
async def test_option_toasts_name_the_option_in_words(repo, clock, lang, arg, toast) -> None:
    mgr, _ = make_manager(repo, clock)
    rid, (p0,) = await open_table(mgr, 1, options=(f"language={lang}",))
    out = await ok(mgr, p0, Verb.SET_OPTION, arg, room_id=rid, round_no=0)
    assert out.reply == toast
    assert "_" not in out.reply and "=" not in out.reply


async def test_language_toast_names_the_language(repo, clock) -> None:
    mgr, _ = make_manager(repo, clock)
    rid, (p0,) = await open_table(mgr, 1)
    out = await ok(mgr, p0, Verb.LANGUAGE, "en", room_id=rid, round_no=0)
    assert out.reply == "Language set to English"


@pytest.mark.parametrize(
    ("verb", "arg", "values"),
    [
        (Verb.LANGUAGE, "fr", ("zh-Hans", "zh-Hant", "en")),
        (Verb.ADD_AI, "genius", ("easy", "normal", "strong")),
        (Verb.LEADERBOARD, "year", ("all", "week", "month")),
    ],
)
async def test_a_refusal_lists_the_valid_values(repo, clock, verb, arg, values) -> None:
    mgr, _ = make_manager(repo, clock)
    rid, (p0,) = await open_table(mgr, 1)
    out = await act(mgr, p0, verb, arg, room_id=rid, round_no=0)
    assert not out.ok and out.reply
    assert arg in out.reply and all(v in out.reply for v in values), out.reply


async def test_the_panel_shows_current_values(repo, clock) -> None:
    mgr, _ = make_manager(repo, clock)
    rid, (p0,) = await open_table(mgr, 1, options=("jokers=1", "time=60"))
    out = await ok(mgr, p0, Verb.SETTINGS, room_id=rid, round_no=0)
    panel = next(v for v in out.views if v.key == f"settings:{rid}")
    labels = _labels(panel)
    assert "鬼牌：1" in labels  # the current value, not the next one
    assert "玩法：经典" in labels and "坐庄：关" in labels
    assert "摆牌时间：60 秒" in labels and "图片：开" in labels
    assert "✓ 简体" in labels and "繁體" in labels  # the current language ticked
    assert len(labels) <= 25
    assert not any(label.startswith("−") or "→" in label for label in labels)
    # a tap moves jokers to the next value, and the panel then says so
    jokers = next(b for row in panel.buttons for b in row if b.label == "鬼牌：1")
    assert decode(jokers.action_id or "")[3] == "jokers=2"
    out = await ok(mgr, p0, Verb.SET_OPTION, "jokers=2", room_id=rid, round_no=0)
    panel = next(v for v in out.views if v.key == f"settings:{rid}")
    assert "鬼牌：2" in _labels(panel)


def test_option_words() -> None:
    assert option_name("en", "arrange_seconds") == "Arranging time"
    assert option_value("zh-Hans", "added_suit", "h") == "♥️"
    assert option_value("zh-Hant", "wheel", "low") == t("zh-Hant", "opt.wheel_low")
    assert option_value("en", "language", "zh-Hant") == "繁體中文"


# ---------------------------------------------------------------- scores


def test_scores_of_nothing_have_no_sign() -> None:
    assert signed(0) == "0" and signed(3) == "+3" and signed(-2) == "-2"
    assert signed(0.0) == "0" and signed(-0.04) == "0" and signed(2.44) == "+2.4"


def _judged(line: dict) -> Settlement:
    """The judge's answer to ``line``, as the table keeps it."""
    return Settlement.from_json(judge(line))


# The round: Carol's tail is four of a kind; she scoops Ann, not Bo.
ROUND = {
    "preset": "classic",
    "players": [
        {
            "id": "a",
            "head": ["2h", "3d", "5c"],
            "middle": ["4h", "4c", "7d", "8c", "Jd"],
            "tail": ["Th", "Tc", "Qd", "Qc", "Ac"],
        },
        {
            "id": "c",
            "head": ["Kh", "Qh", "6h"],
            "middle": ["8h", "8d", "Td", "Jc", "Kc"],
            "tail": ["9s", "9h", "9d", "9c", "2c"],
        },
        {
            "id": "b",
            "head": ["6d", "7c", "3c"],
            "middle": ["As", "Ah", "Ad", "5d", "6c"],
            "tail": ["2s", "3s", "4s", "5s", "7s"],
        },
    ],
}
NAMES = {"a": "阿丽", "b": "小波", "c": "卡萝"}


def test_a_result_against_each_opponent_adds_up() -> None:
    """The issue's two lines: 12 is (1 + 1 + 4 for the 铁支 tail) × 2, and a
    4 with a lane lost reads +1 -1 +4, each written."""
    st = _judged(ROUND)
    carol = settlement_result_lines("zh-Hans", st, "c", NAMES)
    assert carol == [
        "对 阿丽 +12：头道 +1 · 中道 +1 · 尾道 +4 铁支 · 打枪 ×2 +6",
        "对 小波 +4：头道 +1 · 中道 -1 · 尾道 +4 铁支",
    ]
    assert st.totals["c"] == 16
    ann = settlement_result_lines("en", st, "a", {"a": "Ann", "b": "Bo", "c": "Carol"})
    assert ann[0] == "vs Carol -12: Head -1 · Middle -1 · Tail -4 four of a kind · scoop ×2 -6"


def test_escape_payments_are_written_with_the_pairs() -> None:
    """docs/rules.md's example shape: the leaver pays a loser's loss and its own
    penalty; each is a line, so the totals add up."""
    line = {**ROUND, "preset": "extended", "escaped": ["a"]}
    st = _judged(line)
    ann = settlement_result_lines("zh-Hans", st, "a", NAMES)
    assert ann[-1] == "逃跑罚分 -10"
    assert [x for x in ann if x.startswith("替 ")] == [
        f"替 {NAMES[e.payee]} 付 -{e.points}" for e in st.escape if e.payee
    ]
    for key in NAMES:
        lines = settlement_result_lines("zh-Hant", st, key, NAMES)
        # a pair's line: its parts add up to its number; with the payments
        # those numbers make the player's total
        pair_totals = []
        for line in lines:
            if line.startswith("對 "):
                head, parts = line.split("：", 1)
                (total,) = numbers(head)
                assert sum(printed_points(x) for x in parts.split(" · ")) == total, line
                pair_totals.append(total)
            else:
                pair_totals.append(printed_points(line))
        assert sum(pair_totals) == st.totals[key], (key, lines)


async def test_the_settlement_explains_itself(repo, clock) -> None:
    mgr, sink = make_manager(repo, clock, pictures=False)
    rid, actors = await open_table(mgr, 2, options=("language=en",))
    await play_round(mgr, clock, rid, actors)
    settle = next(v for v in sink.views if v.kind is ViewKind.SETTLEMENT)
    text = settle.text
    assert "vs " in text and "[" not in text  # no bare [-1 -1 -1]
    assert "+0" not in text
    assert "Deck in dealing order:" in text and "♠️" in text
    assert "Head " in text and "Tail " in text  # each lane's part


# ---------------------------------------------------------------- the hand


def _confirm(view: View) -> Button:
    return next(
        b
        for row in view.buttons
        for b in row
        if b.action_id and decode(b.action_id)[2] is Verb.CONFIRM
    )


def _lane_labels(view: View) -> list[str]:
    return [
        b.label
        for row in view.buttons
        for b in row
        if b.action_id and decode(b.action_id)[2] is Verb.LANE
    ]


async def test_lane_buttons_stand_in_for_confirm_until_it_can_be_pressed(repo, clock) -> None:
    mgr, _ = make_manager(repo, clock)
    rid, (p0, p1) = await open_table(mgr, 2, options=("language=en",))
    await ok(mgr, p0, Verb.START)
    out = await ok(mgr, p1, Verb.PICK, "0", room_id=rid, round_no=1)
    hand = _hand(out, p1)
    assert not any("Confirm" in b.label for row in hand.buttons for b in row)
    assert _lane_labels(hand) == ["▶ Head", "Middle", "Tail"]
    assert hand.lines[0].startswith("▶ Head (1/3)")
    out = await ok(mgr, p1, Verb.LANE, "2", room_id=rid, round_no=1)
    assert _lane_labels(_hand(out, p1)) == ["Head", "Middle", "▶ Tail"]
    st = await state_of(mgr, rid)
    order = st["round"]["hands"][p1.key]["order"]
    for i in [x for x in order if x != 0][:5]:  # the tail, then the aim moves on
        out = await ok(mgr, p1, Verb.PICK, str(i), room_id=rid, round_no=1)
    assert _lane_labels(_hand(out, p1)) == ["Head", "▶ Middle"]
    for i in [x for x in order if x != 0][5:10]:  # the middle: the head takes the rest
        out = await ok(mgr, p1, Verb.PICK, str(i), room_id=rid, round_no=1)
    hand = _hand(out, p1)
    st = await state_of(mgr, rid)
    assert len(st["round"]["hands"][p1.key]["head"]) == 3  # its own card and the rest
    confirm = _confirm(hand)
    assert confirm.label in ("Confirm", "⚠️ Fouled · can't confirm")
    assert not confirm.disabled  # a fouled one answers why when pressed
    # one card taken back: one lane open, nothing to choose, confirm says what is missing
    out = await ok(mgr, p1, Verb.PICK, "0", room_id=rid, round_no=1)
    hand = _hand(out, p1)
    confirm = _confirm(hand)
    assert confirm.disabled and confirm.label == "Confirm (1 to place)"
    assert _lane_labels(hand) == []


async def test_extra_three_has_one_hint(repo, clock) -> None:
    mgr, _ = make_manager(repo, clock)
    rid, (p0, p1) = await open_table(mgr, 2, options=("extra3=on",))
    await ok(mgr, p0, Verb.START)
    hand = _hand(await ok(mgr, p1, Verb.SHOW_HAND, room_id=rid, round_no=1), p1)
    assert t("zh-Hans", "hand.hint") not in hand.lines  # not "the rest is the tail"
    hints = [line for line in hand.lines if "弃掉" in line or "剩下" in line]
    assert hints == [t("zh-Hans", "hand.hint_extra", count=3)]


async def test_suggestions_are_labelled_and_read_apart(repo, clock) -> None:
    mgr, _ = make_manager(repo, clock)
    rid, (p0, p1) = await open_table(mgr, 2, options=("language=en",))
    await ok(mgr, p0, Verb.START)
    hand = _hand(await ok(mgr, p1, Verb.SUGGEST, room_id=rid, round_no=1), p1)
    heading = next(line for line in hand.lines if line.startswith("💡"))
    assert "expected points" in heading and "this table" in heading
    first = next(line for line in hand.lines if line.startswith("1. "))
    assert first.endswith(" pts") and "about " in first


# ---------------------------------------------------------------- commands and privacy


@pytest.mark.parametrize(
    ("platform", "new", "absent"),
    [("telegram", "/newgame", "/thirteen"), ("discord", "/thirteen new", "/newgame")],
)
async def test_help_and_errors_name_the_platforms_commands(
    repo, clock, platform, new, absent
) -> None:
    mgr, _ = make_manager(repo, clock)
    someone = human(0, platform)
    out = await ok(mgr, someone, Verb.HELP)
    text = out.views[0].text
    assert new in text and absent not in text
    assert command(platform, "leaderboard") in text
    out = await act(mgr, someone, Verb.JOIN)  # no room in this chat
    assert not out.ok and new in (out.reply or "") and absent not in (out.reply or "")


@pytest.mark.parametrize("verb", [Verb.HELP, Verb.RULES])
async def test_information_goes_to_the_asker_alone(repo, clock, verb) -> None:
    mgr, _ = make_manager(repo, clock)
    rid, (p0, p1) = await open_table(mgr, 2)
    out = await ok(mgr, p1, verb, room_id=rid, round_no=0)
    assert [v.audience for v in out.views] == [Audience.PLAYER]
    assert out.views[0].user_id == p1.user_id


@pytest.mark.parametrize("verb", [Verb.LEADERBOARD, Verb.STATS])
async def test_the_groups_board_goes_to_the_group(repo, clock, verb) -> None:
    """The leaderboard and a person's record answer in the group asked in,
    one message per chat (per person for the record), keyed so that asking
    again edits it."""
    mgr, _ = make_manager(repo, clock)
    rid, (p0, p1) = await open_table(mgr, 2)
    out = await ok(mgr, p1, verb, room_id=rid, round_no=0)
    (view,) = out.views
    assert view.audience is Audience.GROUP and view.user_id is None
    room = await mgr.room(rid)
    assert room is not None and view.chat_id == room.chat_id and view.platform == room.platform
    expected = f"leaderboard:{room.chat_id}" if verb is Verb.LEADERBOARD else f"stats:{p1.key}"
    assert view.key == expected


async def test_verify_goes_to_the_asker_alone(repo, clock) -> None:
    mgr, _ = make_manager(repo, clock)
    rid, actors = await open_table(mgr, 2)
    await play_round(mgr, clock, rid, actors)
    out = await ok(mgr, actors[1], Verb.VERIFY, "1", room_id=rid, round_no=1)
    assert out.views[0].audience is Audience.PLAYER
    assert out.views[0].user_id == actors[1].user_id and "✅" in out.views[0].text


# ---------------------------------------------------------------- closing


async def test_closing_mid_round_asks_first(repo, clock) -> None:
    mgr, _ = make_manager(repo, clock)
    rid, (p0, p1) = await open_table(mgr, 2)
    await ok(mgr, p0, Verb.START)
    out = await ok(mgr, p0, Verb.CANCEL)
    assert (await state_of(mgr, rid))["phase"] == "arranging"  # not closed yet
    ask = next(v for v in out.views if v.key == f"close:{rid}")
    assert ask.audience is Audience.PLAYER and ask.user_id == p0.user_id
    (yes,) = [b for row in ask.buttons for b in row]
    assert decode(yes.action_id or "")[2:] == (Verb.CANCEL, "yes")
    refused = await act(mgr, p1, Verb.CANCEL, "yes", room_id=rid, round_no=1)
    assert not refused.ok  # only the owner
    out = await ok(mgr, p0, Verb.CANCEL, "yes", room_id=rid, round_no=1)
    table = next(v for v in out.views if v.kind is ViewKind.TABLE)
    assert "第 1 局没有打完，作废（不计分）。" in table.lines
    assert "没有打完任何一局，没有分数。" in table.lines
    # the private hands lose their buttons and say why
    hands = [v for v in out.views if v.kind is ViewKind.HAND]
    assert {v.user_id for v in hands} == {p0.user_id, p1.user_id}
    assert all(v.buttons == () and "房间已关闭，本局作废。" in v.lines for v in hands)


async def test_the_closing_post_has_the_final_totals(repo, clock) -> None:
    mgr, _ = make_manager(repo, clock)
    rid, actors = await open_table(mgr, 2, options=("language=en",))
    await play_round(mgr, clock, rid, actors)
    out = await ok(mgr, actors[0], Verb.CANCEL)  # the lobby: closes at once
    # said on the last settlement (the lobby since the round was paid): the
    # round's table is its showdown, left as it is
    assert not any(v.kind is ViewKind.TABLE for v in out.views)
    closing = next(v for v in out.views if v.key == f"settle:{rid}:1")
    assert closing.lines[:2] == ("The room is closed.", "Final totals after 1 rounds:")
    assert sum(line.startswith("• ") for line in closing.lines) == 2
    # only what answers in a closed room stays: verify, leaderboard, review
    assert {decode(b.action_id)[2] for r in closing.buttons for b in r if b.action_id} == {
        Verb.VERIFY,
        Verb.LEADERBOARD,
        Verb.REVIEW,
    }


async def test_a_room_without_rounds_says_so(repo, clock) -> None:
    mgr, _ = make_manager(repo, clock)
    rid, (p0,) = await open_table(mgr, 1)
    out = await ok(mgr, p0, Verb.CANCEL)
    table = next(v for v in out.views if v.kind is ViewKind.TABLE)
    assert table.lines == ("房间已关闭。", "没有打完任何一局，没有分数。")


# ---------------------------------------------------------------- pictures


async def test_pictures_ride_with_hand_showdown_and_settlement(repo, clock) -> None:
    mgr, sink = make_manager(repo, clock)
    rid, actors = await open_table(mgr, 2)
    started = await ok(mgr, actors[0], Verb.START)
    hand = _hand(await ok(mgr, actors[1], Verb.SHOW_HAND, room_id=rid, round_no=1), actors[1])
    assert hand.picture is not None and hand.picture.render(hand.picture.data)[:4] == b"\x89PNG"
    first = await press_arrangement(mgr, rid, actors[0])
    await press_arrangement(mgr, rid, actors[1])
    # the round's table shows every seat's lanes face down (who confirmed
    # is its caption's)...
    dealt = [v for v in (*started.views, *first.views) if v.key == f"table:{rid}"]
    assert len(dealt) == 2 and dealt[0].fresh and dealt[0].picture == dealt[1].picture
    assert "✅ P0" in dealt[1].lines and "⏳ P1" in dealt[1].lines
    assert all(lane.cards is None for v in dealt for s in v.picture.data.seats for lane in s.lanes)
    await clock.advance(30)
    # ... and the same message turns them up: the showdown
    shows = [v for v in sink.views if v.kind is ViewKind.SHOWDOWN]
    assert shows and {v.key for v in shows} == {f"table:{rid}"}
    assert all(lane.cards for s in shows[-1].picture.data.seats for lane in s.lanes)
    settle = next(v for v in sink.views if v.kind is ViewKind.SETTLEMENT)
    assert settle.picture is not None and settle.text  # the text stays as the caption


@pytest.mark.parametrize("how", ["room", "setting"])
async def test_text_only_rooms(repo, clock, how) -> None:
    # "setting": the bot's PICTURES=false, the manager built without pictures
    mgr, sink = make_manager(repo, clock, pictures=how != "setting")
    rid, actors = await open_table(mgr, 2, options=("pics=off",) if how == "room" else ())
    st = await play_round(mgr, clock, rid, actors)
    assert st["phase"] == "lobby"
    assert not any(v.picture for v in sink.views)
    assert not any(v.kind is ViewKind.SHOWDOWN for v in sink.views)
    assert any(
        v.kind is ViewKind.TABLE and "showdown" in v.meta.get("phase", "") for v in sink.views
    )


async def test_two_managers_in_one_process_each_with_its_own_setting(repo, clock) -> None:
    """The PICTURES setting belongs to a manager, not to the process: two
    bots side by side, one with pictures and one text only, rounds
    interleaved on one clock, each renders as its own setting says: the
    hand, the showdown, the settlement and the 大结算 of a match closed
    early."""
    from storage.memory import MemoryRepository

    other = MemoryRepository()
    await other.init()
    try:
        pics, pics_sink = make_manager(repo, clock)
        text, text_sink = make_manager(other, clock, pictures=False)
        assert pics.pictures and not text.pictures
        rooms = {m: await open_table(m, 2, options=("rounds=2",)) for m in (pics, text)}
        hands = {}
        for m, (rid, actors) in rooms.items():
            await ok(m, actors[0], Verb.START)
            out = await ok(m, actors[1], Verb.SHOW_HAND, room_id=rid, round_no=1)
            hands[m] = _hand(out, actors[1])
        for m, (rid, actors) in rooms.items():
            for a in actors:
                await press_arrangement(m, rid, a)
        await clock.advance(30)  # both showdowns, stepped together
        assert hands[pics].picture is not None and hands[text].picture is None
        settled = {
            m: next(v for v in sink.views if v.kind is ViewKind.SETTLEMENT)
            for m, sink in ((pics, pics_sink), (text, text_sink))
        }
        assert settled[pics].picture is not None and settled[text].picture is None
        assert settled[pics].text and settled[text].text
        assert any(v.kind is ViewKind.SHOWDOWN for v in pics_sink.views)
        assert not any(v.kind is ViewKind.SHOWDOWN or v.picture for v in text_sink.views)
        finals = {}
        for m, (rid, actors) in rooms.items():
            out = await ok(m, actors[0], Verb.CANCEL, room_id=rid)  # the match ends early
            [finals[m]] = [v for v in out.views if v.meta.get("final")]
        assert finals[pics].picture is not None and finals[text].picture is None
    finally:
        await other.close()


async def test_after_a_round_the_settlement_is_the_lobby(repo, clock) -> None:
    # text only: the table's own text becomes the showdown and stays so
    mgr, sink = make_manager(repo, clock, pictures=False)
    rid, actors = await open_table(mgr, 2, options=("language=en",))
    await play_round(mgr, clock, rid, actors)
    tables = [v for v in sink.views if v.key == f"table:{rid}"]
    assert tables[-1].meta["phase"] == "showdown" and "— Tail —" in tables[-1].lines
    (settle,) = [v for v in sink.views if v.kind is ViewKind.SETTLEMENT]
    assert settle.fresh and settle.key == f"settle:{rid}:1"
    # the lobby first (a long caption is cut from the end), the deck and salt last
    assert settle.lines[0] == "Lobby · 2 player(s) (2–5): P0 (owner), P1"
    assert settle.lines[1:4] == tuple(options_lines(await mgr.room(rid)))  # the settings
    assert settle.lines[4] == "Round 1 is settled; the owner starts the next one."
    assert settle.lines[-2].startswith("🔓")
    # a join between rounds shows on the settlement, edited in place
    newcomer = human(5)
    out = await ok(mgr, newcomer, Verb.JOIN, room_id=rid, round_no=1)
    assert [v.key for v in out.views if v.audience is Audience.GROUP] == [f"settle:{rid}:1"]
    (lobby,) = [v for v in out.views if v.audience is Audience.GROUP]
    assert not lobby.fresh and lobby.lines[0] == "Lobby · 3 player(s) (2–5): P0 (owner), P1, P5"
    assert lobby.lines[1:] == settle.lines[1:]  # the record as it was
    # the next deal posts a new table
    dealt = await ok(mgr, actors[0], Verb.START, room_id=rid, round_no=1)
    (table,) = [v for v in dealt.views if v.key == f"table:{rid}"]
    assert table.fresh and table.meta["round"] == "2"


def test_the_documented_time_and_result_words_are_the_programs() -> None:
    from pathlib import Path

    from bot.views.deadline import duration_text

    doc = (Path(__file__).resolve().parents[2] / "docs" / "messages.md").read_text()
    lang = "zh-Hans"

    def left(key: str, seconds: int) -> str:
        return t(lang, key, left=duration_text(lang, seconds))

    produced = [
        t(lang, "time.left_line", left=left("time.left", 120)),
        t("en", "time.left_line", left=t("en", "time.left", left=duration_text("en", 120))),
        t(lang, "time.left_warning", left=left("time.left", 30)),
        left("time.left_under", 120),
        t(lang, "result.total", round=3, points="+6", running="+12"),
        t(lang, "result.home_run_you"),
        t(lang, "notice.reminder", seconds=30, names="卡萝"),
    ]
    for lang_, sign in ((lang, "+"), ("en", "-")):
        lanes = [
            t(lang_, "part.lane", lane=t(lang_, f"lane.{n}"), points=f"{sign}1")
            for n in ("head", "middle", "tail")
        ]
        scoop = t(lang_, "part.scoop", factor=2, points=f"{sign}3")
        items = " · ".join([*lanes, scoop])
        produced.append(t(lang_, "result.versus", name="Bo", total=f"{sign}6", items=items))
    for text in produced:
        assert f"`{text}`" in doc, text
