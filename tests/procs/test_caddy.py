"""docs/deploy.md's HTTPS recipe, run: Caddy (Debian's package) with the
repository's deploy/Caddyfile in front of ``thirteen run`` on one domain.

The Caddyfile is used as shipped, with only what the recipe has a host
change put in (the domain) and what this machine needs (unprivileged
loopback ports): the domain is ``localhost:<port>``, for which Caddy issues
its certificate from its own local CA (``local_certs``: ``tls internal``
for every site), and every client here checks the certificate against that
CA's root. A webhook bot with the page: Telegram's updates posted to
``https://…/tg-hook`` through Caddy, and the page opened in Chromium at the
https address the Mini App button names. A polling bot with the page: the
button's address answered through Caddy. Caddy is missing: skipped, except
under CI (.ci/run installs it)."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import os
import shutil
import ssl
import subprocess
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import expect

from bot.i18n import t
from tests.procs.botproc import (
    ANN,
    BO,
    WEBHOOK_SECRET,
    BotProcess,
    Players,
    bot_env,
    free_port,
    launch_data,
    page_button,
    until,
)
from tests.procs.game import Fleet, Script
from tests.telegram.fakebotapi import FakeBotAPI
from tests.web.harness import CHROMIUM_ARGS, need_chromium, open_url, telegram_fragment

CADDYFILE = Path(__file__).resolve().parents[2] / "deploy" / "Caddyfile"
DOMAIN, UPSTREAM = "thirteen.example.org", "127.0.0.1:8080"  # as shipped
EN = "en"


def need_caddy() -> str:
    path = shutil.which("caddy")
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("caddy is missing under CI: .ci/run installs Debian's package")
        pytest.skip("caddy is not installed (apt-get install caddy)")
    return path


class Caddy:
    """``caddy run`` on the shipped Caddyfile, its domain ``localhost:<https>``."""

    def __init__(self, folder: Path, https: int, upstream: int) -> None:
        self.folder, self.https = folder, https
        self.public = f"https://localhost:{https}"
        text = CADDYFILE.read_text(encoding="utf-8")
        assert text.count(DOMAIN + " {") == 1 and text.count(UPSTREAM) == 1
        site = folder / "site.caddy"
        site.write_text(
            text.replace(DOMAIN, f"localhost:{https}").replace(UPSTREAM, f"127.0.0.1:{upstream}")
        )
        (folder / "Caddyfile").write_text(
            "{\n"
            "\tadmin off\n"
            "\tlocal_certs\n"  # tls internal: Caddy's own CA, never an ACME request
            "\tskip_install_trust\n"  # leave this machine's trust store alone
            f"\thttp_port {free_port()}\n"
            f"\thttps_port {https}\n"
            f"\tstorage file_system {folder / 'data'}\n"
            "}\n"
            f"import {site}\n"
        )
        self.root = folder / "data" / "pki" / "authorities" / "local" / "root.crt"
        self.proc: subprocess.Popen[bytes] | None = None

    async def start(self) -> None:
        env = dict(os.environ, XDG_CONFIG_HOME=str(self.folder), XDG_DATA_HOME=str(self.folder))
        with (self.folder / "caddy.log").open("wb") as out:
            self.proc = subprocess.Popen(
                [need_caddy(), "run", "--config", str(self.folder / "Caddyfile")],
                env=env,
                cwd=self.folder,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        await until(self._serving, "caddy serving with its local CA's certificate", timeout=60)

    def _serving(self) -> bool:
        assert self.proc is not None and self.proc.poll() is None, self.log()
        return self.root.exists() and (self.folder / "data" / "certificates").exists()

    def tls(self) -> ssl.SSLContext:
        """A client that trusts Caddy's local CA only."""
        return ssl.create_default_context(cafile=str(self.root))

    def spki(self) -> str:
        """The base64 SHA-256 of the public keys of the local CA (Chromium's
        ``--ignore-certificate-errors-spki-list``: trust this CA, no other).
        The server sends its certificate and the intermediate's, not the
        root's, so the intermediate's key is the one Chromium sees."""
        hashes = []
        for cert in (self.root, self.root.with_name("intermediate.crt")):
            der = subprocess.run(
                f"openssl x509 -in {cert} -pubkey -noout | openssl pkey -pubin -outform der",
                shell=True,
                check=True,
                capture_output=True,
            ).stdout
            hashes.append(base64.b64encode(hashlib.sha256(der).digest()).decode())
        return ",".join(hashes)

    def log(self) -> str:
        path = self.folder / "caddy.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=30)


@pytest.fixture
async def caddy(tmp_path: Path) -> AsyncIterator[Callable[[int], Caddy]]:
    made: list[Caddy] = []

    def make(upstream: int) -> Caddy:
        folder = tmp_path / "caddy"
        folder.mkdir()
        made.append(Caddy(folder, free_port(), upstream))
        return made[-1]

    need_caddy()
    yield make
    for c in made:
        c.stop()


async def _get(front: Caddy, path: str) -> tuple[int, str]:
    import aiohttp

    async with (
        aiohttp.ClientSession() as session,
        session.get(front.public + path, ssl=front.tls()) as answer,
    ):
        return answer.status, await answer.text()


class Webhook:
    """Telegram's side of the webhook: each update POSTed to the public
    https address with the secret, the certificate checked."""

    def __init__(self, url: str, front: Caddy) -> None:
        self.url, self.front = url, front
        self.statuses: list[int] = []
        self._tasks: set[asyncio.Task[None]] = set()

    def __call__(self, update: dict[str, Any]) -> None:
        task = asyncio.get_running_loop().create_task(self._post(update))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _post(self, update: dict[str, Any]) -> None:
        import aiohttp

        headers = {"X-Telegram-Bot-Api-Secret-Token": WEBHOOK_SECRET}
        async with (
            aiohttp.ClientSession() as session,
            session.post(self.url, json=update, headers=headers, ssl=self.front.tls()) as answer,
        ):
            self.statuses.append(answer.status)


async def test_a_webhook_bot_and_its_page_behind_caddy_on_one_domain(
    api: FakeBotAPI, tmp_path: Path, caddy: Callable[[int], Caddy]
) -> None:
    api.opened |= {ANN.id, BO.id}
    port = free_port()  # the bot's one port: webhook, page, health
    front = caddy(port)
    public = front.public
    env = bot_env(
        api,
        f"sqlite:///{tmp_path}/bot.db",
        WEBAPP_URL=public,
        WEBAPP_PORT=str(port),
        TELEGRAM_WEBHOOK_URL=f"{public}/tg-hook",
        TELEGRAM_WEBHOOK_LISTEN="127.0.0.1",
        TELEGRAM_WEBHOOK_PORT=str(port),
        TELEGRAM_WEBHOOK_SECRET=WEBHOOK_SECRET,
        METRICS_PORT=str(port),
    )
    await front.start()
    fleet = Fleet(api, [BotProcess(env, tmp_path)])
    await fleet.start_all()
    hook = Webhook(f"{public}/tg-hook", front)
    players = Players(api, send=hook)
    path = need_chromium()
    from playwright.async_api import async_playwright

    try:
        assert api.webhook is not None and api.webhook["url"] == f"{public}/tg-hook"
        assert await _get(front, "/healthz") == (200, "ok\n")
        assert (await _get(front, "/metrics"))[0] == 404  # not on the internet
        dealt = (await players.deal(ANN, BO))[ANN.id]
        assert hook.statuses and set(hook.statuses) == {200}

        # The Mini App button names the page at the https address; Chromium
        # opens exactly that, trusting Caddy's local CA and no other.
        url = page_button(dealt)["web_app"]["url"]
        assert url.startswith(f"{public}/app/?")
        args = [*CHROMIUM_ARGS, f"--ignore-certificate-errors-spki-list={front.spki()}"]
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=path, args=args)
            try:
                page = await open_url(
                    browser, url + telegram_fragment(launch_data(ANN)), locale="en-US"
                )
                page.set_default_timeout(10_000)  # a hang guard on a loaded machine
                await expect(page.locator('[data-lane="hand"] [data-card]')).to_have_count(13)
                await page.locator('[data-action="suggest"]').click()
                await page.locator('[data-suggestion="0"]').click()
                await page.evaluate("window.__pressMainButton()")
                await expect(page.locator("[data-status]")).to_have_text(t(EN, "web.confirmed"))
                assert page.problems == []
            finally:
                await browser.close()

        def confirmed() -> bool:
            hand = players.hand(ANN)
            return hand is not None and t(EN, "hand.confirmed") in hand.text

        await until(confirmed, "Ann's hand confirmed in the chat")
        await Script(players, fleet).arrange(BO)  # her taps go through the webhook
        await until(lambda: players.settlements(1), "the settlement")
    finally:
        await fleet.stop_all()
    assert not api.refused
    assert "Traceback" not in fleet.log_text()


async def test_a_polling_bot_and_its_page_behind_caddy(
    api: FakeBotAPI, tmp_path: Path, caddy: Callable[[int], Caddy]
) -> None:
    api.opened |= {ANN.id, BO.id}
    port = free_port()
    front = caddy(port)
    env = bot_env(
        api, f"sqlite:///{tmp_path}/bot.db", WEBAPP_URL=front.public, WEBAPP_PORT=str(port)
    )
    await front.start()
    fleet = Fleet(api, [BotProcess(env, tmp_path)])
    await fleet.start_all()
    players = Players(api)
    try:
        dealt = (await players.deal(ANN, BO))[ANN.id]
        url = page_button(dealt)["web_app"]["url"]
        assert url.startswith(f"{front.public}/app/?")
        status, html = await _get(front, url.removeprefix(front.public))
        assert status == 200 and 'data-lane="hand"' in html
        assert (await _get(front, "/tg-hook"))[0] == 404  # polling: no webhook route
        assert api.webhook is None
    finally:
        await fleet.stop_all()
    assert "Traceback" not in fleet.log_text()
