"""The arranging page's first load inside Discord's Activity frame, against
the signed link in the same run.

    python -m bench.activity_bench [--trials 10]

Stands on the tests' stage (tests/web/harness.py: a real ``TableManager``
with a dealt round in a Discord channel, the page's real server on
127.0.0.1, in this process) and a local fake of Discord's API
(tests/web/discord_fake.py). Each trial is a fresh browser context (empty
cache) at a phone's size with touch, alternating:

- **Activity**: Discord's client played by tests/web/discord_client.py's host
  page, framing the page through the proxy's URL mappings at
  ``https://<client id>.discordsays.com``; the page loads the Embedded App
  SDK, does the handshake, ``authorize``, ``POST /api/activity`` (the server
  exchanges the code, reads the user and the instance from the fake) and
  ``authenticate``;
- **link**: the signed link (``/app/#pass=…``), served through the same
  Playwright proxy at another https origin (so both pay the same routing).

The marker "the cards can be dragged" is bench/page_bench.py's: the first
DOM mutation after which the hand's row holds 13 cards and SortableJS is
attached to it; its ``performance.now()`` is read in the page's own frame,
so both times run from the page's navigation (the Activity's host page
before it is not counted). Bytes are the page frame's Resource Timing
entries up to the marker, unpacked (``decodedBodySize``: Playwright's
routing answers the browser, so what the wire would carry is not seen here;
gzip is the page server's, see bench/page_bench.py).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.page_bench import COLLECT, MARKER, kind_of  # noqa: E402

LINK_ORIGIN = "https://page.example"


async def collect(frame: Any) -> dict[str, Any]:
    for _ in range(600):
        got: dict[str, Any] = await frame.evaluate(COLLECT)
        if got["ready"] > 0:
            return got
        await asyncio.sleep(0.05)
    raise RuntimeError("not ready after 30 s")


def bytes_of(m: dict[str, Any]) -> dict[str, int]:
    out = {"html": int(m["nav"]["decoded"])}
    for e in m["res"]:
        if e["end"] > m["ready"]:
            continue
        kind = kind_of(e["url"])
        if "discord-sdk" in e["url"]:
            kind = "js (Discord SDK)"
        out[kind] = out.get(kind, 0) + int(e["decoded"])
    return out


async def activity_trial(browser: Any, base: str, fake: Any, st: Any) -> dict[str, Any]:
    from tests.web.discord_client import open_activity

    me = st.players[0].user_id
    instance = fake.instance([me])
    started = time.perf_counter()
    page, frame = await open_activity(
        browser,
        base,
        code=fake.code_for(me),
        user_id=me,
        instance_id=instance,
        init_script=MARKER,
    )
    got = await collect(frame)
    got["wall"] = (time.perf_counter() - started) * 1000
    await page.context.close()
    return got


async def link_trial(browser: Any, base: str, st: Any) -> dict[str, Any]:
    from tests.web.harness import STUB, TELEGRAM_JS

    context = await browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        locale="zh-CN",
    )
    await context.add_init_script(f"window.__TG_STUB__ = {json.dumps({'initData': ''})};")
    await context.add_init_script(MARKER)

    async def telegram_js(route: Any) -> None:
        await route.fulfill(path=str(STUB), content_type="application/javascript")

    async def proxy(route: Any) -> None:
        parts = urlsplit(route.request.url)
        target = f"{base}{parts.path}" + (f"?{parts.query}" if parts.query else "")
        response = await route.fetch(url=target, max_redirects=0)
        await route.fulfill(response=response)

    await context.route(TELEGRAM_JS, telegram_js)
    await context.route(f"{LINK_ORIGIN}/**", proxy)
    page = await context.new_page()
    started = time.perf_counter()
    await page.goto(f"{LINK_ORIGIN}/app/#pass={st.pass_for(0, seconds=3600)}", wait_until="commit")
    got = await collect(page)
    got["wall"] = (time.perf_counter() - started) * 1000
    await context.close()
    return got


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.9 * (len(ordered) - 1))))]


async def run(trials: int) -> None:
    from playwright.async_api import async_playwright

    from tests.web.discord_fake import CHANNEL, fake_discord
    from tests.web.harness import CHROMIUM_ARGS, chromium, stage

    path = chromium()
    if path is None:
        raise SystemExit("chromium is not installed (Debian's package chromium)")
    results: dict[str, list[dict[str, Any]]] = {"activity": [], "link": []}
    async with (
        fake_discord() as fake,
        stage(platform="discord", chat=CHANNEL, activity=fake.config(), arrange_seconds=900) as st,
        async_playwright() as pw,
    ):
        browser = await pw.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        await activity_trial(browser, st.base, fake, st)  # warm-up pair
        await link_trial(browser, st.base, st)
        for _ in range(trials):
            results["activity"].append(await activity_trial(browser, st.base, fake, st))
            results["link"].append(await link_trial(browser, st.base, st))
        await browser.close()
    print(f"# {trials} fresh contexts each, alternating, after one warm-up pair")
    print(
        f"# machine: {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, load average {os.getloadavg()[0]:.1f}"
    )
    print(
        "| way in | DOMContentLoaded, median (p90) ms | cards draggable, median (p90) ms |"
        " bytes up to the marker (unpacked) |"
    )
    print("|---|---|---|---|")
    for way, runs in results.items():
        dcl = [r["dcl"] for r in runs]
        ready = [r["ready"] for r in runs]
        sizes = bytes_of(runs[0])
        total = sum(sizes.values())
        parts = ", ".join(f"{k} {v:,}" for k, v in sorted(sizes.items()))
        print(
            f"| {way} | {statistics.median(dcl):,.0f} ({p90(dcl):,.0f}) | "
            f"{statistics.median(ready):,.0f} ({p90(ready):,.0f}) | {total:,} ({parts}) |"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.activity_bench", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--trials", type=int, default=10)
    args = parser.parse_args(argv)
    asyncio.run(run(args.trials))
    return 0


if __name__ == "__main__":
    sys.exit(main())
