"""Discord's client, as far as an Activity sees it, in a Playwright context.

- ``https://discord.com/channels/<guild>/<channel>`` is a host page (routed
  here, never fetched) that frames the Activity with the query parameters
  Discord adds (``frame_id``, ``instance_id``, ``platform``, ``guild_id``,
  ``channel_id``) and speaks the SDK's side of the RPC: the handshake
  (opcode 0) answered with the ``READY`` dispatch, ``AUTHORIZE`` with the
  code the test handed out, ``AUTHENTICATE`` with the user (the access token
  it is given is kept on ``window.__authenticated``), anything else with an
  empty answer.
- ``https://<client id>.discordsays.com/…`` is Discord's proxy: the URL
  mappings of docs/discord.md (``/api`` -> the page server's ``/api``,
  ``/`` -> its ``/app``), forwarded to the page's real server.

``FramedPage`` lets the gestures of tests/web/gestures.py act inside the
frame: locators and scripts in the frame, the mouse and the finger on the
page (a frame's boxes are in the page's coordinates).
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode, urlsplit

from .discord_fake import CHANNEL, CLIENT_ID, GUILD
from .harness import browser_context, watched_page

PROXY = f"https://{CLIENT_ID}.discordsays.com"
HOST = f"https://discord.com/channels/{GUILD}/{CHANNEL}"

HOST_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<style>html,body{margin:0;height:100%;background:#313338}
iframe{border:0;width:100%;height:100%;display:block}</style></head>
<body><iframe src="__SRC__" allow="autoplay; clipboard-write"></iframe>
<script>
(function () {
  var setup = __SETUP__;
  var frame = document.querySelector("iframe");
  window.__rpc = [];
  window.__authenticated = null;
  function send(message) { frame.contentWindow.postMessage(message, setup.proxy); }
  window.addEventListener("message", function (event) {
    if (event.origin !== setup.proxy || !Array.isArray(event.data)) return;
    var op = event.data[0], data = event.data[1] || {};
    if (op === 0) {
      window.__rpc.push("HANDSHAKE " + data.client_id + " " + data.frame_id);
      send([1, {cmd: "DISPATCH", evt: "READY", nonce: null, data: {
        v: 1,
        config: {cdn_host: "cdn.discordapp.com", api_endpoint: "//discord.com/api",
                 environment: "production"},
        user: {id: setup.user.id, username: setup.user.username, discriminator: "0"}
      }}]);
      return;
    }
    if (op !== 1) return;
    window.__rpc.push(data.cmd);
    var answer = {};
    if (data.cmd === "AUTHORIZE" && setup.decline) {
      // The player closed Discord's authorization prompt.
      send([1, {cmd: data.cmd, evt: "ERROR", nonce: data.nonce,
                data: {code: 5000, message: "OAuth2 Error: access_denied"}}]);
      return;
    } else if (data.cmd === "AUTHORIZE") {
      answer = {code: setup.code};
    } else if (data.cmd === "AUTHENTICATE") {
      window.__authenticated = data.args.access_token;
      answer = {
        access_token: data.args.access_token,
        user: {username: setup.user.username, discriminator: "0", id: setup.user.id,
               avatar: null, public_flags: 0, global_name: null},
        scopes: ["identify"],
        expires: "2100-01-01T00:00:00.000Z",
        application: {description: "", icon: null, id: setup.client_id, name: "Thirteen"}
      };
    }
    send([1, {cmd: data.cmd, evt: null, nonce: data.nonce, data: answer}]);
  });
})();
</script></body></html>
"""


def activity_src(instance_id: str, platform: str = "mobile") -> str:
    """The address Discord's client frames: the mapping's root and its parameters."""
    query = {
        "instance_id": instance_id,
        "location_id": f"gc-{GUILD}-{CHANNEL}",
        "launch_id": "1400000000000000001",
        "frame_id": "7f1c5e2a-0000-4000-8000-000000000001",
        "platform": platform,
        "guild_id": GUILD,
        "channel_id": CHANNEL,
    }
    return f"{PROXY}/?{urlencode(query)}"


async def open_activity(
    browser: Any,
    base: str,
    *,
    code: str,
    user_id: str,
    instance_id: str,
    viewport: tuple[int, int] = (390, 844),
    mobile: bool = True,
    locale: str = "zh-CN",
    init_script: str = "",
    decline: bool = False,
) -> tuple[Any, FramedPage]:
    """Discord's client (a phone with touch, or a desktop) showing the
    Activity of ``instance_id`` for ``user_id``; the page's server at
    ``base``. Returns the host page and the Activity's frame (``init_script``
    runs in every frame before its scripts: a benchmark's marker; ``decline``:
    the player closes Discord's authorization prompt)."""
    # Telegram's script, where the page names it, answers as in a browser: no launch data.
    context = await browser_context(
        browser, {"initData": ""}, viewport=viewport, mobile=mobile, locale=locale
    )
    if init_script:
        await context.add_init_script(init_script)

    setup = {
        "proxy": PROXY,
        "code": code,
        "client_id": CLIENT_ID,
        "decline": decline,
        "user": {"id": user_id, "username": f"user{user_id}"},
    }
    host = HOST_PAGE.replace(
        "__SRC__", activity_src(instance_id, "mobile" if mobile else "desktop")
    )
    host = host.replace("__SETUP__", json.dumps(setup))

    async def client(route: Any) -> None:
        await route.fulfill(body=host, content_type="text/html; charset=utf-8")

    async def proxy(route: Any) -> None:
        parts = urlsplit(route.request.url)
        path = parts.path if parts.path.startswith("/api/") else "/app" + parts.path
        target = f"{base}{path}" + (f"?{parts.query}" if parts.query else "")
        response = await route.fetch(url=target, max_redirects=0)
        await route.fulfill(response=response)

    await context.route(f"{HOST}*", client)
    await context.route(f"{PROXY}/**", proxy)
    page = await watched_page(context)
    await page.goto(HOST)
    frame = page.frame_locator("iframe")
    await frame.locator("main.page").wait_for(state="attached")
    found = next(f for f in page.frames if f.url.startswith(PROXY))
    return page, FramedPage(page, found)


class _Context:
    def __init__(self, page: Any) -> None:
        self.page = page

    async def new_cdp_session(self, _: Any) -> Any:
        return await self.page.context.new_cdp_session(self.page)


class FramedPage:
    """The Activity's frame, as the gestures and ``expect`` use a page."""

    def __init__(self, page: Any, frame: Any) -> None:
        self.page = page
        self.frame = frame
        self.mouse = page.mouse
        self.context = _Context(page)
        self.problems: list[str] = page.problems

    def locator(self, selector: str) -> Any:
        return self.frame.locator(selector)

    async def evaluate(self, script: str, arg: Any = None) -> Any:
        return await self.frame.evaluate(script, arg)

    async def wait_for_timeout(self, ms: float) -> None:
        await self.page.wait_for_timeout(ms)
