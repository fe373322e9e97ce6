"""The page's confirm is one table action, whatever the draft: CONFIRM with
the whole split (LAY's encoding), laid and confirmed at once; the stored hand
then holds it."""

from __future__ import annotations

import time

from bot.core.verbs import Verb
from bot.table.hand import lay_arg
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
