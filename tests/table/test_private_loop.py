"""The private hand's side of a round, through the table manager on a fake
clock: the countdown's steps redraw only the hands still being arranged,
the reminder mentions and warns only the late players (once), and at the
settlement every person's hand becomes their result."""

from __future__ import annotations

from bot.table.actions import Verb, decode
from bot.views.model import ViewKind
from tests.table.helpers import human, make_manager, ok, open_table, press_arrangement, state_of


def _hands(views) -> dict[str, list[str]]:  # type: ignore[no-untyped-def]
    return {v.user_id: list(v.lines) for v in views if v.kind is ViewKind.HAND}


async def test_steps_redraw_only_unconfirmed_hands_and_remind_once(repo, clock) -> None:
    mgr, sink = make_manager(repo, clock, arrange_seconds=180)
    rid, (p0, p1, p2) = await open_table(mgr, 3)
    await ok(mgr, p0, Verb.START)
    await press_arrangement(mgr, rid, p0)  # p0 is done at once
    await clock.advance(61)  # 119 s left: the 2-minute step
    step = _hands(sink.views)
    assert set(step) == {p1.user_id, p2.user_id}  # not the confirmed p0
    assert "⏱ 还剩 2 分钟摆牌" in step[p1.user_id]
    sink.views.clear()
    await clock.advance(60)  # 59 s left: the 1-minute step
    assert "⏱ 还剩 1 分钟摆牌" in _hands(sink.views)[p2.user_id]
    await press_arrangement(mgr, rid, p1)
    sink.views.clear()
    await clock.advance(30)  # 29 s left: the reminder, for p2 alone
    notices = [v for v in sink.views if v.kind is ViewKind.NOTICE]
    assert len(notices) == 1
    assert [(m.user_id, m.name) for m in notices[0].mentions] == [(p2.user_id, "P2")]
    assert notices[0].lines[-1].endswith("P2")
    warned = _hands(sink.views)
    assert set(warned) == {p2.user_id}
    assert any(x.startswith("⏰ 还剩 30 秒！") for x in warned[p2.user_id])
    sink.views.clear()
    await clock.advance(10)  # nothing more before the deadline
    assert not [v for v in sink.views if v.kind in (ViewKind.NOTICE, ViewKind.HAND)]
    st = await state_of(mgr, rid)
    assert st["round"]["reminded"] and st["round"]["left_shown"] == 30


async def test_a_discord_room_has_no_steps(repo, clock) -> None:
    mgr, sink = make_manager(repo, clock)
    alice, bob = human(0, "discord"), human(1, "discord")
    rid = (await ok(mgr, alice, Verb.NEW)).room_id
    await ok(mgr, bob, Verb.JOIN)
    await ok(mgr, alice, Verb.START)
    await clock.advance(61)
    assert not sink.views  # <t:…:R> counts down by itself
    assert "left_shown" not in (await state_of(mgr, rid))["round"]


async def test_the_settlement_turns_each_hand_into_its_result(repo, clock) -> None:
    mgr, sink = make_manager(repo, clock)
    rid, (p0, p1) = await open_table(mgr, 2, ais=1)
    await ok(mgr, p0, Verb.SET_OPTION, "language=en", room_id=rid, round_no=0)
    await ok(mgr, p0, Verb.START)
    await press_arrangement(mgr, rid, p0)
    await press_arrangement(mgr, rid, p1)
    await clock.advance(30)
    st = await state_of(mgr, rid)
    assert st["phase"] == "lobby"
    totals = st["round"]["result"]["settlement"]["totals"]
    hands = {v.user_id: v for v in sink.views if v.kind is ViewKind.HAND}
    assert set(hands) == {p0.user_id, p1.user_id}  # the people, not the AI seat
    for actor in (p0, p1):
        view = hands[actor.user_id]
        text = "\n".join(view.lines)
        points = totals[actor.key]
        shown = f"{points:+d}" if points else "0"
        assert f"Round 1 is settled: {shown} for you" in text
        assert "Waiting for the others" not in text
        versus = [x for x in view.lines if x.strip().startswith("vs ")]
        assert len(versus) == 2  # one line per opponent
        labels = [b.label for row in view.buttons for b in row]
        assert "📊 Review" in labels or any("Review" in x for x in labels)
        assert ("Next round" in labels) is (actor == p0)  # the owner deals the next


async def test_who_left_during_the_showdown_is_offered_the_next_round(repo, clock) -> None:
    mgr, sink = make_manager(repo, clock)
    rid, (p0, p1, p2) = await open_table(mgr, 3)
    await ok(mgr, p0, Verb.START)
    for actor in (p0, p1, p2):
        await press_arrangement(mgr, rid, actor)
    assert (await state_of(mgr, rid))["phase"] == "showdown"
    await ok(mgr, p2, Verb.LEAVE, room_id=rid, round_no=1)
    sink.views.clear()
    await clock.advance(30)
    hands = {v.user_id: v for v in sink.views if v.kind is ViewKind.HAND}
    verbs = {
        user: {decode(b.action_id)[2] for row in v.buttons for b in row if b.action_id}
        for user, v in hands.items()
    }
    assert verbs == {
        p0.user_id: {Verb.REVIEW, Verb.START},
        p1.user_id: {Verb.REVIEW},
        p2.user_id: {Verb.REVIEW, Verb.JOIN},  # no longer seated: join the next
    }


async def test_the_last_confirm_is_redrawn_where_the_redraw_is_the_answer(repo, clock) -> None:
    """Telegram answers a press apart from the hand's edit: the last confirm
    is a toast and the hand waits for its result. Discord answers the
    interaction with the redraw itself: the last hand is still shown
    confirmed (its ephemeral's answer), with no toast."""
    from bot.i18n import t
    from bot.table.actions import Actor

    for platform, redrawn in (("telegram", False), ("discord", True)):
        mgr, _sink = make_manager(repo, clock)
        p0, p1 = (Actor(platform, str(100 + n), f"P{n}") for n in range(2))
        out = await ok(mgr, p0, Verb.NEW, "classic")
        rid = out.room_id
        assert rid
        await ok(mgr, p1, Verb.JOIN)
        await ok(mgr, p0, Verb.START)
        first = await press_arrangement(mgr, rid, p0)
        assert p0.user_id in _hands(first.views) and first.reply is None
        last = await press_arrangement(mgr, rid, p1)
        assert (await state_of(mgr, rid))["phase"] == "showdown"
        assert (p1.user_id in _hands(last.views)) is redrawn
        assert (last.reply == t("zh-Hans", "toast.showdown_on")) is not redrawn
