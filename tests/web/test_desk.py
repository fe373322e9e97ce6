"""The page's confirm is one table action, whatever the draft: CONFIRM with
the whole split (LAY's encoding), laid and confirmed at once; the stored hand
then holds it."""

from __future__ import annotations

import time

from bot.core.actions import Action
from bot.core.presses import lay_arg
from bot.core.verbs import Verb
from bot.i18n import t
from bot.views.model import ViewKind
from bot.views.render_common import clauses
from bot.views.render_common import lane as lane
from bot.web.desk import Desk, Draft
from bot.web.passes import Pass
from tests.web.harness import HAND, stage


async def test_a_confirm_from_the_page_is_one_table_action() -> None:
    async with stage(serve=False) as st:
        seen: list[tuple[Verb, str | None]] = []
        handle = st.manager.handle

        async def counted(action):  # type: ignore[no-untyped-def]
            seen.append((action.verb, action.arg))
            return await handle(action)

        st.manager.handle = counted
        desk = Desk(st.manager, clock=st.clock.now)
        player = st.players[0]
        grant = Pass(player.platform, player.user_id, st.room, st.round_no, int(time.time()) + 60)
        cards = (await st.hand())["cards"]
        # the spade flush in the tail, the eights in the middle, the rest in the head
        want = {
            "tail": ["As", "Ks", "Qs", "Js", "9s"],
            "middle": ["8h", "8d", "7c", "6c", "5h"],
            "head": ["4d", "3s", "2c"],
        }
        index = {token: i for i, token in enumerate(cards)}
        draft = Draft(*(tuple(index[x] for x in want[lane]) for lane in ("head", "middle", "tail")))
        shown = await desk.confirm(grant, draft)
        # 13 cards: the tail is the rest, so it is not sent
        assert seen == [(Verb.CONFIRM, lay_arg(draft.head, draft.middle, ()))]
        assert shown["done"] and sorted(cards) == sorted(HAND)
        assert await st.lanes() == want


# Trips of aces, a pair of kings, nothing else.
TRIPS = ["As", "Ah", "Ad", "Kc", "Kd", "6h", "8s", "Tc", "Qd", "3h", "5c", "7d", "9h"]
SPADES = ["2s", "3s", "4s", "5s", "7s", "9s", "Js", "Ks", "2d", "3d", "4c", "6c", "8c"]


def foul_words(language: str, *pairs: tuple[str, str]) -> str:
    """The foul warning's words: the chats' err.foul_pair clauses."""
    return clauses(
        language,
        [t(language, "err.foul_pair", a=lane(language, a), b=lane(language, b)) for a, b in pairs],
    )


async def test_the_foul_warning_comes_as_soon_as_two_full_lanes_foul() -> None:
    async with stage((TRIPS, SPADES), serve=False) as st:
        desk = Desk(st.manager, clock=st.clock.now)
        player = st.players[0]
        grant = Pass(player.platform, player.user_id, st.room, st.round_no, int(time.time()) + 60)
        at = {token: i for i, token in enumerate(TRIPS)}

        def draft(head: list[str], middle: list[str], tail: list[str]) -> Draft:
            return Draft(*(tuple(at[x] for x in lane) for lane in (head, middle, tail)))

        trips, pair = ["As", "Ah", "Ad"], ["Kc", "Kd", "6h", "8s", "Tc"]
        high = ["Qd", "3h", "5c", "7d", "9h"]
        # 三条 over 一对, the tail still empty: the warning at once
        shown = await desk.evaluate(grant, draft(trips, pair, []))
        assert shown["foul"] == foul_words("zh-Hans", ("head", "middle"))
        assert shown["labels"] == {
            "head": t("zh-Hans", "cat.three_of_a_kind"),
            "middle": t("zh-Hans", "cat.one_pair"),
            "tail": None,
        }
        # a full middle over a full tail, the head not full
        shown = await desk.evaluate(grant, draft(["As"], pair, high))
        assert shown["foul"] == foul_words("zh-Hans", ("middle", "tail"))
        # the head over the tail, the middle not full
        shown = await desk.evaluate(grant, draft(trips, ["Kc"], high))
        assert shown["foul"] == foul_words("zh-Hans", ("head", "tail"))
        # all three: every pair, as check_foul orders them
        shown = await desk.evaluate(grant, draft(trips, pair, high))
        assert shown["foul"] == foul_words(
            "zh-Hans", ("head", "middle"), ("middle", "tail"), ("head", "tail")
        )
        # lanes in order, or one full lane alone: no warning
        for ok_draft in (
            draft(["Qd", "3h", "5c"], pair, []),
            draft(trips, [], []),
            draft([], [], []),
        ):
            assert (await desk.evaluate(grant, ok_draft))["foul"] is None


async def test_the_page_s_suggestions_are_stored_without_redrawing_the_chat_s_hand() -> None:
    async with stage(serve=False) as st:
        outcomes = []
        handle = st.manager.handle

        async def kept(action):  # type: ignore[no-untyped-def]
            outcome = await handle(action)
            outcomes.append(outcome)
            return outcome

        st.manager.handle = kept
        desk = Desk(st.manager, clock=st.clock.now)
        player = st.players[0]
        grant = Pass(player.platform, player.user_id, st.room, st.round_no, int(time.time()) + 60)
        shown = await desk.suggest(grant)
        assert shown["suggestions"] and (await st.hand())["suggestions"]
        assert [o.ok for o in outcomes] == [True] and outcomes[0].views == ()
        # The chat's own 推荐 still redraws the hand there.
        out = await st.manager.handle(
            Action(player, Verb.SUGGEST, room_id=st.room, round_no=st.round_no)
        )
        assert out.ok and [v.kind for v in out.views] == [ViewKind.HAND]
