"""One ``thirteen run`` process, one port: the arranging page, Telegram's
webhook, /healthz and /metrics all answered by the process's one web
server (WEBAPP_PORT = TELEGRAM_WEBHOOK_PORT = METRICS_PORT). The webhook
refuses a forged or missing secret (403), an oversized body (413) and a
body that is not an update (400), and none of them is handled; a real
update is, even with a cross-site Origin (the page's origin check is the
page's own); SIGTERM stops the process with exit code 0."""

from __future__ import annotations

import json
import re

import aiohttp

from bot.platforms.telegram.webhook import MAX_UPDATE_BYTES, SECRET_HEADER
from tests.procs.botproc import ANN, BotProcess, bot_env, free_port, http_get, until
from tests.procs.game import Fleet
from tests.telegram.fakebotapi import FakeBotAPI
from tests.telegram.harness import GROUP_ID
from tests.telegram.play import newgame_update

SECRET = "s3cret"
PATH = "/tg-hook"


def _actions(metrics: str) -> int:
    """How many actions the table manager handled, by /metrics."""
    found = re.findall(r"^thirteen_actions_total\{[^}]*\} ([0-9.]+)$", metrics, re.M)
    return int(sum(float(n) for n in found))


async def test_page_webhook_and_health_on_one_port(api: FakeBotAPI, tmp_path) -> None:
    port = free_port()
    env = bot_env(
        api,
        f"sqlite:///{tmp_path}/bot.db",
        WEBAPP_URL=f"https://127.0.0.1:{port}",
        WEBAPP_LISTEN="127.0.0.1",
        WEBAPP_PORT=str(port),
        TELEGRAM_WEBHOOK_URL=f"https://bot.example.org{PATH}",
        TELEGRAM_WEBHOOK_LISTEN="127.0.0.1",
        TELEGRAM_WEBHOOK_PORT=str(port),
        TELEGRAM_WEBHOOK_SECRET=SECRET,
        METRICS_LISTEN="127.0.0.1",
        METRICS_PORT=str(port),
    )
    bot = BotProcess(env, tmp_path)
    fleet = Fleet(api, [bot])
    hook = f"http://127.0.0.1:{port}{PATH}"
    await fleet.start_all()  # up once it called setWebhook
    try:
        assert api.webhook is not None and api.webhook["url"] == f"https://bot.example.org{PATH}"
        assert api.webhook["secret_token"] == SECRET
        assert not api.calls_of("getUpdates")
        status, page = await http_get(port, "/app/")
        assert status == 200 and "app.js" in page
        assert await http_get(port, "/healthz") == (200, "ok\n")

        refused: list[int] = []
        async with aiohttp.ClientSession() as http:
            for headers in ({}, {SECRET_HEADER: "forged"}):
                async with http.post(
                    hook, json=newgame_update(api, ANN), headers=headers
                ) as answer:
                    refused.append(answer.status)
            big = newgame_update(api, ANN)
            big["message"]["text"] = "/newgame " + "x" * MAX_UPDATE_BYTES
            async with http.post(hook, json=big, headers={SECRET_HEADER: SECRET}) as answer:
                refused.append(answer.status)
            cut = json.dumps(newgame_update(api, ANN))[:-5]
            headers = {SECRET_HEADER: SECRET, "Content-Type": "application/json"}
            async with http.post(hook, data=cut, headers=headers) as answer:
                refused.append(answer.status)
            assert refused == [403, 403, 413, 400]
            # The page's paths keep their own checks on the same server.
            cross_site = {"Origin": "https://elsewhere.example"}
            async with http.post(
                f"http://127.0.0.1:{port}/api/session", json={}, headers=cross_site
            ) as answer:
                assert answer.status == 403
            # Telegram's own request (here with a cross-site Origin too) is taken.
            real = {SECRET_HEADER: SECRET, **cross_site}
            async with http.post(hook, json=newgame_update(api, ANN), headers=real) as answer:
                assert answer.status == 200
        await until(lambda: api.chat_messages(GROUP_ID), "the room's table")
        status, metrics = await http_get(port, "/metrics")
        assert status == 200 and _actions(metrics) == 1  # the real update only
        assert len(api.chat_messages(GROUP_ID)) == 1
    finally:
        codes = await fleet.stop_all()
    log = fleet.log_text()
    assert codes == [0], log[-3000:]
    assert "still running" not in log and SECRET not in log
    assert "web: the Telegram webhook at /tg-hook" in log
