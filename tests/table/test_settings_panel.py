"""The owner's settings panel follows every change made from it."""

from __future__ import annotations

from bot.table.actions import Verb
from bot.views.model import Audience
from tests.stored import stored_json

from .helpers import make_manager, ok, open_table, refused


async def test_option_changes_return_the_refreshed_panel(repo, clock):
    mgr, _ = make_manager(repo, clock)
    rid, actors = await open_table(mgr, 2)
    owner = actors[0]
    before = await ok(mgr, owner, Verb.SETTINGS)
    panel_before = next(v for v in before.views if v.key.startswith("settings:"))
    out = await ok(mgr, owner, Verb.SET_OPTION, "jokers=2")
    panels = [v for v in out.views if v.key.startswith("settings:")]
    assert len(panels) == 1 and panels[0].audience is Audience.PLAYER
    assert panels[0].user_id == owner.user_id
    assert panels[0] != panel_before  # the jokers toggle shows the new value
    lang = await ok(mgr, owner, Verb.LANGUAGE, "en")
    assert any(v.key.startswith("settings:") and v.language == "en" for v in lang.views)


async def test_oversized_text_is_refused_and_changes_nothing(repo, clock):
    mgr, _ = make_manager(repo, clock)
    rid, actors = await open_table(mgr, 2)
    out = await refused(mgr, repo, rid, actors[0], Verb.SET_OPTION, "jokers=" + "1" * 5000)
    assert len(out.reply) < 100
    out = await refused(mgr, repo, rid, actors[0], Verb.SET_OPTION, "jokers=7")
    assert "7" in out.reply and "option" not in out.reply  # the zh-Hans sentence, not English


async def test_a_new_room_takes_the_configured_default_preset(repo, clock):
    from .helpers import human, state_of

    mgr, _ = make_manager(repo, clock, default_preset="extended")
    out = await ok(mgr, human(0), Verb.NEW)
    assert (await state_of(mgr, out.room_id))["preset"] == "extended"
    out = await ok(mgr, human(1), Verb.NEW, "classic", chat_id="chat-2")
    assert (await state_of(mgr, out.room_id))["preset"] == "classic"


async def test_start_skips_a_room_whose_state_cannot_be_read(repo, clock):
    from .helpers import human

    mgr, _ = make_manager(repo, clock)
    good = (await ok(mgr, human(0), Verb.NEW, chat_id="good")).room_id
    bad = await repo.create_room("telegram", "bad", {"phase": "arranging", "round": 7})
    again, _ = make_manager(repo, clock)
    await again.start()  # does not raise
    assert await stored_json(again, good) is not None
    assert bad.room_id not in again._timers


async def test_rules_notice_lists_this_tables_specials_and_points(repo, clock):
    from .helpers import human

    mgr, _ = make_manager(repo, clock)
    owner = human(0)
    await ok(mgr, owner, Verb.NEW, "classic")
    await ok(mgr, owner, Verb.LANGUAGE, "en")
    text = "\n".join((await ok(mgr, owner, Verb.RULES)).views[0].lines)
    assert "dragon 36" in text and "all of the added suit" not in text  # 清一花: 5 players only
    await ok(mgr, owner, Verb.SET_OPTION, "added_suit=h")  # a 5-player table
    text = "\n".join((await ok(mgr, owner, Verb.RULES)).views[0].lines)
    assert "all of the added suit 30" in text
