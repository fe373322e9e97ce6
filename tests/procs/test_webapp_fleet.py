"""Any process of several on one PostgreSQL answers any request of the
arranging page (issue 22): two ``thirteen run`` processes behind one webhook,
each with the page on its own port, and one player's page requests
alternating between them. The pass one process issued is taken by the
other (passes are signed, not kept); a draft laid on one is read back on
the other; a confirm replayed on the other is refused and changes nothing;
the round settles once, and both processes show the same showdown."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import aiohttp
import pytest

from storage.sql import SqlRepository
from tests.procs.botproc import (
    ANN,
    BO,
    WEBHOOK_PATH,
    WEBHOOK_SECRET,
    BotProcess,
    Players,
    RoundRobinProxy,
    free_port,
    launch_data,
    page_button,
    until,
    until_delivered,
    webhook_env,
)
from tests.procs.game import Fleet
from tests.telegram.fakebotapi import FakeBotAPI
from tests.telegram.harness import TgUser, closed

SECRET, PATH = WEBHOOK_SECRET, WEBHOOK_PATH
PUBLIC = "https://page.example.org"  # the one public address in front of both


class Page:
    """The page's API on one process: requests go to ``base``."""

    def __init__(self, http: aiohttp.ClientSession, base: str) -> None:
        self.http = http
        self.base = base

    async def call(
        self, method: str, path: str, token: str | None = None, body: Any = None
    ) -> tuple[int, dict[str, Any]]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with self.http.request(
            method, f"{self.base}{path}", json=body, headers=headers
        ) as answer:
            return answer.status, await answer.json()

    async def ok(
        self, method: str, path: str, token: str | None = None, body: Any = None
    ) -> dict[str, Any]:
        status, data = await self.call(method, path, token, body)
        assert status == 200, (self.base, path, status, data)
        return data


def _lanes(split: dict[str, Any]) -> dict[str, list[int]]:
    return {lane: list(split[lane]) for lane in ("head", "middle", "tail")}


def _as_sets(split: dict[str, Any]) -> dict[str, list[int]]:
    """Lanes compared as sets: the order inside a lane means nothing (with 13
    cards the stored tail is the rest of the hand, in the hand's order)."""
    return {lane: sorted(split[lane]) for lane in ("head", "middle", "tail")}


def _posts(api: FakeBotAPI) -> list[Any]:
    """What the bot sent or edited in the chats."""
    return [c for c in api.calls if c.method.startswith(("send", "edit"))]


def _timeless(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "now"}


async def _version(url: str, room_id: str) -> int:
    repo = SqlRepository(url)
    await repo.init()
    try:
        rec = await repo.load_room(room_id)
        assert rec is not None
        return rec.version
    finally:
        await repo.close()


@pytest.mark.postgres
async def test_one_players_page_requests_alternate_between_two_processes(
    api: FakeBotAPI, tmp_path: Path, pg_schema_url: Callable[[], str]
) -> None:
    url = pg_schema_url()
    api.opened |= {ANN.id, BO.id}
    ports = [free_port(), free_port()]
    bots = [
        BotProcess(
            webhook_env(
                api,
                url,
                port,
                WEBAPP_URL=PUBLIC,
                WEBAPP_LISTEN="127.0.0.1",
                WEBAPP_PORT=str(port),  # the page and the webhook on one server
            ),
            tmp_path,
        )
        for port in ports
    ]
    proxy = RoundRobinProxy(ports, PATH, SECRET)
    fleet = Fleet(api, bots)
    players = Players(api, send=proxy)
    await fleet.start_all()
    try:
        hands = await players.deal(ANN, BO)
        page_url = page_button(hands[ANN.id])["web_app"]["url"]
        assert page_url.startswith(f"{PUBLIC}/app/?")
        query = parse_qs(urlparse(page_url).query)
        room, round_no = query["room"][0], int(query["round"][0])
        async with aiohttp.ClientSession() as http:
            a, b = (Page(http, f"http://127.0.0.1:{port}") for port in ports)

            async def session(page: Page, user: TgUser) -> str:
                body = {"init_data": launch_data(user), "room": room, "round": round_no}
                return str((await page.ok("POST", "/api/session", body=body))["pass"])

            # Ann: the session on A, its pass used on B.
            ann = await session(a, ANN)
            suggested = await b.ok("POST", "/api/suggest", ann)
            best = _lanes(suggested["suggestions"][0])
            # A draft (a full head, a partial middle) laid on A, read back on B.
            draft = {"head": best["head"], "middle": best["middle"][:2], "tail": []}
            laid = await a.ok("POST", "/api/lay", ann, draft)
            assert laid["lanes"]["head"] == draft["head"]
            seen = await b.ok("GET", "/api/hand", ann)
            assert seen["lanes"]["head"] == draft["head"]
            assert seen["lanes"]["middle"] == draft["middle"]
            assert not seen["done"] and seen["ready"] == {"done": 0, "seated": 2}
            # The whole split evaluated on B, confirmed on A.
            judged = await b.ok("POST", "/api/evaluate", ann, best)
            assert judged["foul"] is None and all(judged["labels"].values())
            confirmed = await a.ok("POST", "/api/confirm", ann, best)
            assert confirmed["done"] and _as_sets(confirmed["lanes"]) == _as_sets(best)
            # The confirm replayed on B: refused, nothing changed.
            await until_delivered(url)  # the confirm's views all sent
            before = await _version(url, room)
            posts = len(_posts(api))
            status, refusal = await b.call("POST", "/api/confirm", ann, best)
            assert status == 409 and refusal["error"] == "web.err.already_done", refusal
            after_replay = await b.ok("GET", "/api/hand", ann)
            assert _timeless(after_replay) == _timeless(confirmed)
            assert await _version(url, room) == before
            await until_delivered(url)
            assert len(_posts(api)) == posts  # nothing sent for it either

            # Bo: the session on A, the confirm through B.
            bo = await session(a, BO)
            bo_best = _lanes((await a.ok("POST", "/api/suggest", bo))["suggestions"][0])
            assert (await b.ok("POST", "/api/confirm", bo, bo_best))["done"]

            settlement = await until(lambda: players.settlements(round_no), "the settlement")
            assert "Ann" in settlement[0].text and "Bo" in settlement[0].text
            for user in (ANN, BO):  # the last one's closed by its result, after the settlement
                await until(lambda u=user: closed(players.hand(u)), "the hand closed")

            # The showdown, as each process answers it, for each player.
            async def shown(page: Page, token: str) -> dict[str, Any]:
                return _timeless(await page.ok("GET", "/api/showdown", token))

            for token in (ann, bo):
                on_a = await shown(a, token)
                assert on_a["complete"] and on_a["round"] == round_no
                assert on_a == await shown(b, token)
            ann_view = await shown(a, ann)
            assert ann_view["seats"][0]["me"] and ann_view["seats"][0]["lanes"]["head"]
        # Settled once, by one process: one settlement post, never two.
        await until_delivered(url)
        assert len(players.settlements(round_no)) == 1
    finally:
        codes = await fleet.stop_all()
    log = fleet.log_text()
    assert codes == [0, 0], log[-3000:]
    assert not api.refused
    assert len(players.settlements(round_no)) == 1
    assert "Bearer" not in log and "hash=" not in log
