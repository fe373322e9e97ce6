"""The arranging page and its JSON API, on aiohttp.web.

aiohttp because the bot already runs on it (discord.py's HTTP client is
aiohttp): its server runs on the bot's own event loop beside the platforms
and the table's timers, with no second framework and no thread.

Routes (all under the same origin; no CORS headers are ever sent):

- ``GET  /app/`` the page; ``GET /app/static/*`` its files;
  ``GET /app/strings/<language>.json`` its words (the ``web.*`` catalog keys);
- ``POST /api/session`` Telegram launch data (and the room and round the
  page was opened for) in, a pass out;
- ``GET /api/hand``, ``POST /api/evaluate``, ``/api/suggest``,
  ``/api/confirm``, ``/api/declare`` with ``Authorization: Bearer <pass>``;
- ``GET /api/showdown`` the same way, once the round is being shown: its
  showdown and this player's review (复盘).

Bad requests get ``{"error": code, "message": text}`` and change nothing.
Launch data and passes are never logged (no access log; errors name the
reason, not the value).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web

from bot.views.i18n import LANGUAGES, catalog, normalize_language, t

from . import initdata, passes
from .desk import Desk, DeskError, Draft
from .links import GRACE_SECONDS, room_and_round

log = logging.getLogger(__name__)
STATIC = Path(__file__).with_name("static")
MAX_BODY = 16 * 1024  # a hand's lanes are a few hundred bytes
# The page's paths: the checks and headers of _guard are theirs. The same
# server may also hold Telegram's webhook, /healthz and /metrics (bot/cli/run.py).
PAGE_PATHS = ("/app/", "/api/")
# A pass outlives no round: the longest arranging time (15 min) and the
# minutes after its deadline that the showdown is read in.
SESSION_SECONDS = 15 * 60 + GRACE_SECONDS
# Per user: a burst of 30 requests, then 5 a second (dragging asks for every drop).
BURST, PER_SECOND = 30.0, 5.0
# Telegram's clients frame the page; nothing else may.
CSP = (
    "default-src 'self'; script-src 'self' https://telegram.org; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'self' https://web.telegram.org https://*.telegram.org"
)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass
class WebConfig:
    telegram_token: str | None
    secret: bytes
    clock: Callable[[], float] = time.time


@dataclass
class _Buckets:
    """A token bucket per user key."""

    levels: dict[str, tuple[float, float]] = field(default_factory=dict)

    def take(self, key: str, now: float) -> bool:
        level, at = self.levels.get(key, (BURST, now))
        level = min(BURST, level + (now - at) * PER_SECOND)
        if level < 1:
            self.levels[key] = (level, now)
            return False
        self.levels[key] = (level - 1, now)
        if len(self.levels) > 10_000:  # forget the idle
            self.levels = {k: v for k, v in self.levels.items() if now - v[1] < 60}
        return True


def _error(
    request: web.Request, code: str, status: int, message: str | None = None
) -> web.Response:
    language = normalize_language(request.headers.get("Accept-Language", "")[:16] or None)
    text = message or t(language, code)
    return web.json_response({"error": code, "message": text}, status=status)


class WebApp:
    """The page's server side; ``application`` is what the bot serves."""

    def __init__(self, desk: Desk, config: WebConfig) -> None:
        self.desk = desk
        self.config = config
        self.buckets = _Buckets()
        self.application = web.Application(client_max_size=MAX_BODY, middlewares=[self._guard])
        router = self.application.router
        router.add_get("/app/", self._page)
        router.add_get("/app/strings/{language}.json", self._strings)
        router.add_static("/app/static/", STATIC / "files", show_index=False)
        router.add_post("/api/session", self._session)
        router.add_get("/api/hand", self._with_pass(self._hand))
        router.add_post("/api/evaluate", self._with_pass(self._evaluate))
        router.add_post("/api/suggest", self._with_pass(self._suggest))
        router.add_post("/api/confirm", self._with_pass(self._confirm))
        router.add_post("/api/declare", self._with_pass(self._declare))
        router.add_get("/api/showdown", self._with_pass(self._showdown))

    # ---- every request ----------------------------------------------------------------
    @web.middleware
    async def _guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if not request.path.startswith(PAGE_PATHS):  # another route of the process's server
            return await handler(request)
        if request.method == "POST" and not _same_origin(request):
            return _error(request, "web.err.origin", 403)
        try:
            response = await handler(request)
        except web.HTTPRequestEntityTooLarge:
            return _error(request, "web.err.too_large", 413)
        except DeskError as error:
            return _error(request, error.code, error.status, error.reply)
        response.headers["Content-Security-Policy"] = CSP
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["Cache-Control"] = "no-store"
        return response

    def _with_pass(
        self, handler: Callable[[web.Request, passes.Pass], Awaitable[web.StreamResponse]]
    ) -> Handler:
        async def checked(request: web.Request) -> web.StreamResponse:
            header = request.headers.get("Authorization", "")
            token = header.removeprefix("Bearer ").strip() if header.startswith("Bearer ") else ""
            try:
                grant = passes.check(token, self.config.secret, self.config.clock())
            except passes.PassError:
                return _error(request, "web.err.pass", 401)
            if not self.buckets.take(grant.actor_key, time.monotonic()):
                return _error(request, "web.err.slow_down", 429)
            return await handler(request, grant)

        return checked

    async def _json(self, request: web.Request) -> Any:
        if request.content_type != "application/json":
            raise DeskError("web.err.bad_body", 415)
        try:
            return json.loads(await request.read())
        except web.HTTPRequestEntityTooLarge:
            raise
        except (ValueError, UnicodeDecodeError) as error:
            raise DeskError("web.err.bad_body") from error

    # ---- the page -------------------------------------------------------------------
    async def _page(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "index.html", headers={"Content-Type": "text/html"})

    async def _strings(self, request: web.Request) -> web.StreamResponse:
        language = request.match_info["language"]
        if language not in LANGUAGES:
            return _error(request, "web.err.language", 404)
        words = {
            k: v
            for k, v in catalog(language).items()
            if k.startswith(("web.", "cat.", "special.", "lane."))
        }
        return web.json_response(words)

    # ---- the API --------------------------------------------------------------------
    async def _session(self, request: web.Request) -> web.StreamResponse:
        body = await self._json(request)
        if not isinstance(body, dict) or self.config.telegram_token is None:
            return _error(request, "web.err.bad_body", 400)
        now = self.config.clock()
        try:
            user = initdata.verify(str(body.get("init_data", "")), self.config.telegram_token, now)
        except initdata.InitDataError as error:
            log.info("web: launch data refused (%s)", error)
            return _error(request, "web.err.launch", 401)
        if not self.buckets.take(f"telegram:{user.id}", time.monotonic()):
            return _error(request, "web.err.slow_down", 429)
        room, round_no = body.get("room"), body.get("round")
        if not room and (pointer := room_and_round(user.start_param)):
            room, round_no = pointer  # opened from the group's t.me link
        if not isinstance(room, str) or not isinstance(round_no, int) or isinstance(round_no, bool):
            return _error(request, "web.err.bad_body", 400)
        grant = passes.Pass(
            "telegram", str(user.id), room[:16], round_no, int(now) + SESSION_SECONDS
        )
        hand = await self.desk.hand(grant)  # seated in that round, or refused here
        # Until some minutes after the deadline (or after now, for a round
        # already shown): long enough to see the showdown and the review.
        deadline = max(float(hand.get("deadline") or now), now)
        expires = int(min(now + SESSION_SECONDS, deadline + GRACE_SECONDS))
        grant = passes.Pass("telegram", str(user.id), room[:16], round_no, expires)
        return web.json_response({"pass": passes.issue(grant, self.config.secret), "hand": hand})

    async def _hand(self, request: web.Request, grant: passes.Pass) -> web.StreamResponse:
        return web.json_response(await self.desk.hand(grant))

    async def _evaluate(self, request: web.Request, grant: passes.Pass) -> web.StreamResponse:
        draft = Draft.from_json(await self._json(request))
        return web.json_response(await self.desk.evaluate(grant, draft))

    async def _suggest(self, request: web.Request, grant: passes.Pass) -> web.StreamResponse:
        return web.json_response(await self.desk.suggest(grant))

    async def _confirm(self, request: web.Request, grant: passes.Pass) -> web.StreamResponse:
        draft = Draft.from_json(await self._json(request))
        return web.json_response(await self.desk.confirm(grant, draft))

    async def _declare(self, request: web.Request, grant: passes.Pass) -> web.StreamResponse:
        return web.json_response(await self.desk.declare(grant))

    async def _showdown(self, request: web.Request, grant: passes.Pass) -> web.StreamResponse:
        return web.json_response(await self.desk.showdown(grant))


def _same_origin(request: web.Request) -> bool:
    """A browser names the page's origin on a cross-site POST; ours is the host."""
    origin = request.headers.get("Origin")
    if origin is None:
        return True  # not a browser's cross-site request (curl, a test client)
    host = request.headers.get("X-Forwarded-Host") or request.host
    return origin.split("://", 1)[-1] == host
