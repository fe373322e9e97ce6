"""A hand the table arranged at the deadline is reviewed as the table's
arrangement, not the player's: they did not choose it (复盘 after 超时)."""

from __future__ import annotations

from bot.i18n import t
from bot.table.actions import Verb

from .helpers import make_manager, ok, open_table, press_arrangement, state_of


async def test_a_timed_out_hand_is_reviewed_as_the_tables(repo, clock):
    mgr, _ = make_manager(repo, clock)
    rid, (on_time, late) = await open_table(mgr, 2, 0)
    await ok(mgr, on_time, Verb.START)
    await press_arrangement(mgr, rid, on_time)
    for _ in range(200):  # the deadline passes, the showdown runs, the round is paid
        await clock.advance(10)
        if (await state_of(mgr, rid))["phase"] == "lobby":
            break
    st = await state_of(mgr, rid)
    assert st["phase"] == "lobby"
    assert st["round"]["review"][late.key]["auto"] is True
    assert st["round"]["review"][on_time.key]["auto"] is False

    [late_view] = (await ok(mgr, late, Verb.REVIEW, room_id=rid, round_no=1)).views
    [mine_view] = (await ok(mgr, on_time, Verb.REVIEW, room_id=rid, round_no=1)).views
    lang = "zh-Hans"
    assert t(lang, "review.table") in late_view.lines
    assert t(lang, "review.mine") not in late_view.lines
    assert t(lang, "review.mine") in mine_view.lines
    assert t(lang, "review.table") not in mine_view.lines
    # the verdict on the arrangement speaks of the table's arrangement too
    verdicts = {t(lang, "review.table_best")}
    assert any(line in verdicts or "系统替你摆的牌让出了" in line for line in late_view.lines)
    assert t(lang, "review.perfect") not in late_view.lines
