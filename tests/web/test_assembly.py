"""The page as ``thirteen run`` assembles it (bot.web.assembly): the
platforms get its links, and the views of the page's actions go to the
platforms' sink (as a timer's do), never a refused action's, and a sink
that fails loses nothing the table stored."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from bot.config import Settings
from bot.views.model import ViewKind
from bot.web.assembly import arranging_page
from bot.web.links import page_links
from bot.web.passes import Pass, issue
from tests.web.harness import LANES, stage

SECRET = "assembly-test-secret"
BASE = "http://127.0.0.1:8080"
# A fouled split of the harness's HAND: a pair of eights over an ace-high middle.
FOULED = {
    "head": ["8h", "8d", "As"],
    "middle": ["Ks", "Qs", "7c", "5h", "3s"],
    "tail": ["Js", "9s", "6c", "4d", "2c"],
}


def config() -> Settings:
    return Settings(  # type: ignore[call-arg]
        _env_file=None, webapp_url=BASE, webapp_secret=SECRET, telegram_token=None
    )


async def test_the_page_hands_its_actions_views_to_the_platforms() -> None:
    async with stage(serve=False) as st:
        delivered: list[Sequence[Any]] = []
        failing = False

        async def sink(views: Sequence[Any]) -> None:
            delivered.append(views)
            if failing:
                raise RuntimeError("a platform is down")

        page = arranging_page(config(), st.manager, deliver=sink, clock=st.clock.now)
        # each platform is built with these links (bot.web.links.page_links)
        links = page_links(config())
        assert links is not None and links.page == f"{BASE}/app/"

        player = st.players[0]
        expires = int(time.time()) + 60
        grant = Pass(player.platform, player.user_id, st.room, st.round_no, expires)
        auth = {"Authorization": f"Bearer {issue(grant, SECRET.encode())}"}
        async with TestClient(TestServer(page.application)) as http:
            # A suggestion is stored for the page: the chat's hand is not
            # redrawn for it (the player is in the page), nothing goes out.
            answer = await http.post("/api/suggest", headers=auth)
            assert answer.status == 200, await answer.text()
            assert delivered == [] and (await st.hand())["suggestions"]

            # A draft laid as the page closes is an action of the table: its
            # hand view goes out.
            answer = await http.post("/api/lay", json={"head": [0, 1]}, headers=auth)
            assert answer.status == 200, await answer.text()
            assert len(delivered) == 1
            (hand,) = [v for v in delivered[0] if v.kind is ViewKind.HAND]
            assert hand.user_id == player.user_id

            # A refused confirm (a fouled split) sends nothing.
            cards = (await st.hand())["cards"]
            fouled = {lane: [cards.index(x) for x in FOULED[lane]] for lane in LANES}
            answer = await http.post("/api/confirm", json=fouled, headers=auth)
            assert answer.status == 400 and len(delivered) == 1

            # The sink failing: the confirm still stands, and is answered.
            failing = True
            best = (await st.hand())["suggestions"][0]
            lanes = {lane: [cards.index(x) for x in best[lane]] for lane in LANES}
            answer = await http.post("/api/confirm", json=lanes, headers=auth)
            assert answer.status == 200, await answer.text()
            assert len(delivered) > 1
        assert (await st.hand())["done"] is True
