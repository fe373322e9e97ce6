"""A table with a dealt round and the arranging page served over real HTTP:
what the browser tests, the API tests and the screenshot command stand on.

``stage(...)`` seats players (Telegram or Discord users), deals them chosen
hands (``RiggedRandom``), starts the round on a real ``TableManager`` over
the in-memory repository, and serves ``WebApp`` on 127.0.0.1 with aiohttp's
runner. The clock is a ``FakeClock`` that starts at the wall clock, so
deadlines, passes and launch data all read one time.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from aiohttp import web

from bot.core.hand import Hand
from bot.i18n import t
from bot.rules import make_rules
from bot.rules.cards import parse_card
from bot.rules.foul import FoulReport, check_foul
from bot.rules.lanes import evaluate_lane
from bot.rules.types import Arrangement
from bot.table.actions import Actor, Verb
from bot.table.clock import FakeClock
from bot.web import initdata, passes
from bot.web.activity import Activity, ActivityConfig
from bot.web.desk import Desk
from bot.web.server import WebApp, WebConfig
from storage.memory import MemoryRepository
from tests.stored import stored_json
from tests.table.helpers import CHAT, RiggedRandom, act, make_manager, open_table

TOKEN = "123456:TEST-web-token"
SECRET = b"test-web-secret"
STUB = Path(__file__).with_name("telegram-web-app.stub.js")
TELEGRAM_JS = "https://telegram.org/js/telegram-web-app.js"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# A Telegram light theme (the page takes its colours from it).
THEME = {
    "bg_color": "#ffffff",
    "text_color": "#000000",
    "hint_color": "#707579",
    "link_color": "#3390ec",
    "button_color": "#3390ec",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#eff0f3",
    "section_bg_color": "#ffffff",
    "destructive_text_color": "#e53935",
}

# Seat 0's hand: a spade flush, a small straight and a pair of eights are in
# it; seat 1's is nothing special.
HAND = ["As", "Ks", "Qs", "Js", "9s", "8h", "8d", "7c", "6c", "5h", "4d", "3s", "2c"]
OTHER = ["Ah", "Kh", "Qh", "Jh", "Th", "9h", "7h", "6h", "5d", "4h", "3h", "2h", "Td"]
# 多三张: six pairs and a king among 16 cards (六对半 when these 13 are kept),
# and the other seat's 16.
SIX_PAIRS = ["2s", "2h", "3d", "3h", "4s", "4h", "5c", "5d", "7s", "7h", "9c", "9d", "Kc"]
SIX_PAIRS_16 = SIX_PAIRS + ["Ac", "Jd", "8s"]
HAND_16 = HAND + ["Qc", "Tc", "6d"]
# A split of SIX_PAIRS (it fouls; a declared special is not judged by lanes).
SIX_PAIRS_SPLIT = {
    "head": ["2s", "2h", "Kc"],
    "middle": ["3d", "3h", "4s", "4h", "5c"],
    "tail": ["5d", "7s", "7h", "9c", "9d"],
}


def telegram_launch_data(
    user_id: int,
    first_name: str,
    *,
    now: float,
    token: str = TOKEN,
    language_code: str | None = None,
    **more: str,
) -> str:
    """The Mini App's launch data as Telegram signs it with the bot's
    ``token`` for a user, dated ``now``; ``more``: other fields
    (``start_param``)."""
    user: dict[str, Any] = {"id": user_id, "first_name": first_name}
    if language_code is not None:
        user["language_code"] = language_code
    fields = {
        "auth_date": str(int(now)),
        "query_id": "AAHdF6IQAAAAAN0XohDhrOrc",
        "user": json.dumps(user, separators=(",", ":")),
        **more,
    }
    return urlencode({**fields, "hash": initdata.sign(fields, token)})


def chromium() -> str | None:
    """Debian's chromium (package ``chromium``), found on the PATH."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


def need_chromium() -> str:
    """The browser, or skip the test (a failure under CI, which installs it)."""
    import pytest

    path = chromium()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed (CI installs Debian's chromium)")
        pytest.skip("no chromium on this machine")
    return path


@dataclass
class Stage:
    """A dealt round and the page's server."""

    manager: Any
    clock: FakeClock
    room: str
    round_no: int
    players: list[Actor]
    base: str  # http://127.0.0.1:<port>
    app: WebApp
    runner: web.AppRunner | None = field(default=None, repr=False)

    # ---- the ways in ----------------------------------------------------------------
    def launch_data(
        self,
        player: int = 0,
        *,
        token: str = TOKEN,
        auth_date: int | None = None,
        language_code: str = "zh-hans",
    ) -> str:
        """Launch data as Telegram signs it for seat ``player``."""
        user = self.players[player]
        return telegram_launch_data(
            int(user.user_id),
            user.name,
            now=self.clock.now() if auth_date is None else auth_date,
            token=token,
            language_code=language_code,
        )

    def pass_for(self, player: int = 0, *, seconds: int = 300, **changes: Any) -> str:
        """A pass as the Discord hand's link carries it."""
        user = self.players[player]
        grant = passes.Pass(
            platform=changes.get("platform", user.platform),
            user_id=changes.get("user_id", user.user_id),
            room_id=changes.get("room_id", self.room),
            round_no=changes.get("round_no", self.round_no),
            expires=int(self.clock.now()) + seconds,
        )
        return passes.issue(grant, changes.get("secret", SECRET))

    def page_url(self, *, telegram: bool = True, player: int = 0) -> str:
        if telegram:
            return f"{self.base}/app/?room={self.room}&round={self.round_no}"
        return f"{self.base}/app/#pass={self.pass_for(player)}"

    # ---- the stored room --------------------------------------------------------------
    async def state(self) -> dict[str, Any]:
        st = await stored_json(self.manager, self.room)
        assert st is not None
        return st

    async def hand(self, player: int = 0) -> dict[str, Any]:
        st = await self.state()
        return st["round"]["hands"][self.players[player].key]

    async def lanes(self, player: int = 0) -> dict[str, list[str]]:
        """The stored hand's lanes as card tokens."""
        return Hand.from_json(await self.hand(player)).arrangement_tokens()


@asynccontextmanager
async def stage(
    hands: Sequence[Sequence[str]] = (HAND, OTHER),
    *,
    platform: str = "telegram",
    language: str | None = None,
    options: Sequence[str] = (),
    arrange_seconds: int = 120,
    serve: bool = True,
    chat: str = CHAT,
    activity: ActivityConfig | None = None,
    telegram_token: str | None = TOKEN,
) -> AsyncIterator[Stage]:
    """``activity``: the Discord Activity on, checked with that (fake) Discord;
    ``chat``: the room's chat (a Discord channel's id, for the Activity)."""
    clock = FakeClock(time.time())
    manager, _ = make_manager(MemoryRepository(), clock, RiggedRandom(hands))
    players = [Actor(platform, str(7000 + i), f"P{i}") for i in range(len(hands))]
    room, _ = await open_table(
        manager,
        len(players),
        options=(f"time={arrange_seconds}", *options),
        actors=players,
        chat_id=chat,
    )
    if language:
        assert (
            await act(manager, players[0], Verb.LANGUAGE, language, room_id=room, chat_id=chat)
        ).ok
    assert (await act(manager, players[0], Verb.START, room_id=room, chat_id=chat)).ok
    st = await stored_json(manager, room)
    assert st is not None and st["phase"] == "arranging"
    checks = Activity(activity, manager, clock.now) if activity else None
    config = WebConfig(telegram_token, SECRET, clock=clock.now, activity=checks)
    app = WebApp(Desk(manager, clock=clock.now), config)
    result = Stage(manager, clock, room, st["round"]["no"], players, "", app)
    if not serve:
        yield result
        return
    runner, port = await serve_local(app.application)
    result.base = f"http://127.0.0.1:{port}"
    result.runner = runner
    try:
        yield result
    finally:
        await runner.cleanup()


async def serve_local(application: web.Application) -> tuple[web.AppRunner, int]:
    """``application`` served by aiohttp's runner on 127.0.0.1 at a free
    port; the runner (to clean up) and the port."""
    runner = web.AppRunner(application, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    return runner, runner.addresses[0][1]


def stub_config(
    st: Stage, *, telegram: bool = True, player: int = 0, theme: dict[str, str] | None = None
) -> dict[str, Any]:
    """What the stub of telegram-web-app.js is told: signed launch data in
    Telegram, none in a plain browser."""
    if not telegram:
        return {"initData": "", "themeParams": {}}
    raw = st.launch_data(player)
    return {
        "initData": raw,
        "initDataUnsafe": {"user": {"id": int(st.players[player].user_id)}},
        "themeParams": theme or THEME,
        "colorScheme": "dark" if theme and theme is not THEME else "light",
        "version": "8.0",
        "safeAreaInset": {"top": 0, "bottom": 20, "left": 0, "right": 0},
        "contentSafeAreaInset": {"top": 0, "bottom": 0, "left": 0, "right": 0},
    }


async def open_page(
    browser: Any,
    st: Stage,
    *,
    telegram: bool = True,
    player: int = 0,
    viewport: tuple[int, int] = (390, 844),
    mobile: bool = True,
    locale: str = "zh-CN",
    theme: dict[str, str] | None = None,
    color_scheme: str = "light",
) -> Any:
    """A page of a fresh context, opened as Telegram (or Discord's link) opens it,
    with telegram-web-app.js answered by the local stub. Console errors and
    failed requests are kept on ``page.problems``."""
    return await open_url(
        browser,
        st.page_url(telegram=telegram, player=player),
        stub_config(st, telegram=telegram, player=player, theme=theme),
        viewport=viewport,
        mobile=mobile,
        locale=locale,
        color_scheme=color_scheme,
    )


async def open_url(
    browser: Any,
    url: str,
    config: dict[str, Any] | None = None,
    *,
    viewport: tuple[int, int] = (390, 844),
    mobile: bool = True,
    locale: str = "zh-CN",
    color_scheme: str = "light",
) -> Any:
    """``url`` in a page of a fresh context (a phone with touch, or a desktop
    with a mouse), telegram-web-app.js answered by the local stub. The stub
    is told ``config``; without one it reads the launch parameters from the
    address's fragment (``#tgWebAppData=…``), as Telegram's script does.
    Console errors and page errors are kept on ``page.problems``."""
    context = await browser_context(
        browser, config, viewport=viewport, mobile=mobile, locale=locale, color_scheme=color_scheme
    )
    page = await watched_page(context)
    await page.goto(url)
    return page


async def browser_context(
    browser: Any,
    config: dict[str, Any] | None,
    *,
    viewport: tuple[int, int],
    mobile: bool,
    locale: str,
    color_scheme: str = "light",
) -> Any:
    """A fresh context: a phone with touch, or a desktop with a mouse;
    telegram-web-app.js answered by the local stub, told ``config``."""
    context = await browser.new_context(
        viewport={"width": viewport[0], "height": viewport[1]},
        device_scale_factor=2 if mobile else 1,
        is_mobile=mobile,
        has_touch=mobile,
        locale=locale,
        color_scheme=color_scheme,
    )
    if config is not None:
        await context.add_init_script(f"window.__TG_STUB__ = {json.dumps(config)};")

    async def telegram_js(route: Any) -> None:
        await route.fulfill(
            path=str(STUB),
            content_type="application/javascript",
            headers={"Cache-Control": "no-store"},
        )

    await context.route(TELEGRAM_JS, telegram_js)
    return context


async def watched_page(context: Any) -> Any:
    """A new page of ``context`` whose console errors and page errors are
    kept on ``page.problems``."""
    page = await context.new_page()
    page.problems = []
    page.on(
        "console",
        lambda m: (
            page.problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None
        ),
    )
    page.on("pageerror", lambda e: page.problems.append(f"page error: {e}"))
    return page


def telegram_fragment(init_data: str, *, theme: dict[str, str] | None = None) -> str:
    """The fragment Telegram's clients add to a Mini App's address: the
    signed launch data, the client's Bot API version, platform and theme."""
    return "#" + urlencode(
        {
            "tgWebAppData": init_data,
            "tgWebAppVersion": "8.0",
            "tgWebAppPlatform": "android",
            "tgWebAppThemeParams": json.dumps(theme or THEME, separators=(",", ":")),
        }
    )


# ---- what the page should say of a split (the rules engine's words) ----------------
LANES = ("head", "middle", "tail")


def fouled_split(tokens: Sequence[str]) -> tuple[dict[str, list[str]], FoulReport]:
    """A split of the dealt ``tokens`` that fouls (the first one a seeded
    shuffle finds) and the rules engine's report of it (classic, no jokers)."""
    rules = make_rules("classic", 2, {})
    rng = random.Random(13)
    for _ in range(10_000):
        shuffled = rng.sample(list(tokens), len(tokens))
        split = {"head": shuffled[:3], "middle": shuffled[3:8], "tail": shuffled[8:13]}
        cards = [[parse_card(x) for x in split[lane]] for lane in LANES]
        report = check_foul(Arrangement.of(*cards), rules)
        if report is not None:
            return split, report
    raise AssertionError(f"no fouled split of {tokens}")


def category_label(language: str, tokens: Sequence[str]) -> str:
    """The name of the hand a full lane of ``tokens`` makes (classic rules)."""
    value = evaluate_lane([parse_card(x) for x in tokens], make_rules("classic", 2, {}))
    return t(language, f"cat.{value.category.slug}")


def foul_clause(language: str, report: FoulReport) -> str:
    """The foul warning's first clause ("Head beats Middle")."""
    a, b = report.pairs[0]
    lane_a, lane_b = (t(language, f"lane.{x.name.lower()}") for x in (a, b))
    return t(language, "err.foul_pair", a=lane_a, b=lane_b)
