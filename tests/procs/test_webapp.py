"""The arranging page with the bot as its own ``thirteen run`` process (the
page on, WEBAPP_URL on 127.0.0.1), against the strict fake Bot API: each
player's private hand carries the Mini App button, the players arrange
through the page's API with Telegram-signed launch data, and the private
hand, the group table and the settlement show it as if they had tapped."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlparse

import aiohttp

from tests.procs.botproc import (
    ANN,
    BO,
    BotProcess,
    Players,
    bot_env,
    free_port,
    http_get,
    launch_data,
    page_button,
    until,
)
from tests.procs.game import Fleet
from tests.telegram.fakebotapi import FakeBotAPI
from tests.telegram.harness import TgUser, closed


async def arrange_in_page(base: str, user: TgUser, page_url: str) -> dict[str, Any]:
    """What the page does: a session from launch data, the first
    suggestion's split, confirmed."""
    query = parse_qs(urlparse(page_url).query)
    room, round_no = query["room"][0], int(query["round"][0])
    async with aiohttp.ClientSession() as http:
        body = {"init_data": launch_data(user), "room": room, "round": round_no}
        async with http.post(f"{base}/api/session", json=body) as answer:
            assert answer.status == 200, await answer.text()
            session = await answer.json()
        auth = {"Authorization": f"Bearer {session['pass']}"}
        async with http.post(f"{base}/api/suggest", headers=auth) as answer:
            assert answer.status == 200, await answer.text()
            hand = await answer.json()
        best = hand["suggestions"][0]
        lanes = {lane: best[lane] for lane in ("head", "middle", "tail")}
        async with http.post(f"{base}/api/confirm", json=lanes, headers=auth) as answer:
            assert answer.status == 200, await answer.text()
            confirmed = await answer.json()
        async with http.post(f"{base}/api/confirm", json=lanes, headers=auth) as answer:
            assert answer.status == 409  # accepted once
    assert confirmed["done"]
    return lanes


async def test_players_arrange_in_the_page_and_the_chats_show_it(api: FakeBotAPI, tmp_path) -> None:
    api.opened |= {ANN.id, BO.id}
    port, metrics_port = free_port(), free_port()
    # The public address is HTTPS (Telegram opens nothing else); the reverse
    # proxy that ends TLS there is left out: requests go to the port directly.
    public, base = f"https://127.0.0.1:{port}", f"http://127.0.0.1:{port}"
    env = bot_env(
        api,
        f"sqlite:///{tmp_path}/bot.db",
        WEBAPP_URL=public,
        WEBAPP_PORT=str(port),
        METRICS_PORT=str(metrics_port),
    )
    fleet = Fleet(api, [BotProcess(env, tmp_path)])
    await fleet.start_all()
    players = Players(api)
    try:
        hands = await players.deal(ANN, BO)
        for user in (ANN, BO):
            url = page_button(hands[user.id])["web_app"]["url"]
            assert url.startswith(f"{public}/app/?")
            await arrange_in_page(base, user, url)
        settlement = await until(lambda: players.settlements(1), "the settlement")
        for user in (ANN, BO):
            # confirmed in the chat too: the first by its confirm's edit, the
            # last by its result's, which follows the settlement
            await until(lambda u=user: closed(players.hand(u)), f"{user.first_name}'s hand closed")
        assert "Ann" in settlement[0].text and "Bo" in settlement[0].text
        # The page's server also answers the health check and counts its actions.
        assert (await http_get(port, "/healthz"))[0] == 200
        status, metrics = await http_get(metrics_port, "/metrics")
        assert status == 200 and 'thirteen_actions_total{ok="true",verb="c"}' in metrics
        page_status, page = await http_get(port, "/app/")
        assert page_status == 200 and "app.js" in page
    finally:
        await fleet.stop_all()
    assert not api.refused
    log = fleet.log_text()
    assert "hash=" not in log and "Bearer" not in log  # no launch data or pass in the log
