"""The arranging page and its JSON API, on aiohttp.web.

aiohttp because the bot already runs on it (discord.py's HTTP client is
aiohttp): its server runs on the bot's own event loop beside the platforms
and the table's timers, with no second framework and no thread.

Routes (all under the same origin; no CORS headers are ever sent):

- ``GET  /app/`` the page; ``GET /app/static/*`` its files;
  ``GET /app/strings/<language>.json`` its words (the ``web.*`` catalog keys);
  all read, gzipped and hashed once, when the server is made (see ``Asset``);
- ``POST /api/session`` Telegram launch data (and the room and round the
  page was opened for) in, a pass out;
- ``POST /api/activity`` (DISCORD_ACTIVITY on) the Discord Activity's OAuth2
  code and instance in, checked with Discord (bot/web/activity.py), a pass
  and the access token (for the SDK's ``authenticate``) out;
- ``GET /api/hand``, ``POST /api/evaluate``, ``/api/suggest``, ``/api/lay``
  (the draft stored as the page closes), ``/api/confirm``, ``/api/declare``
  with ``Authorization: Bearer <pass>``;
- ``GET /api/showdown`` the same way, once the round is being shown: its
  showdown and this player's review (复盘).

Bad requests get ``{"error": code, "message": text}`` and change nothing.
Launch data and passes are never logged (no access log; errors name the
reason, not the value).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import logging
import mimetypes
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

from aiohttp import web
from aiohttp.web import ContentCoding

from bot.i18n import LANGUAGES, catalog, normalize_language, t

from . import initdata, passes
from .activity import Activity, ActivityRefused
from .desk import Desk, DeskError, Draft
from .entries import Entries
from .links import GRACE_SECONDS, room_and_round

log = logging.getLogger(__name__)
STATIC = Path(__file__).with_name("static")
# A room id as action ids carry it (bot/core/actions.py): 1-16 of 0-9 A-Z a-z.
ROOM_ID = re.compile(r"[0-9A-Za-z]{1,16}")
MAX_BODY = 16 * 1024  # a hand's lanes are a few hundred bytes
# The page's paths: the checks and headers of _guard are theirs. The same
# server may also hold Telegram's webhook, /healthz and /metrics (bot/cli/run.py).
PAGE_PATHS = ("/app/", "/api/")
# A pass outlives no round: the longest arranging time (15 min) and the
# minutes after its deadline that the showdown is read in.
SESSION_SECONDS = 15 * 60 + GRACE_SECONDS
# Per user: a burst of 30 requests, then 5 a second (dragging asks for every drop).
BURST, PER_SECOND = 30.0, 5.0
# With Telegram on and no Activity: Telegram's clients frame the page, nothing
# else may (the policy follows the ways in that are on: bot/web/entries.py).
CSP = Entries().csp()

# Served under a URL that names their content (``?v=<version>``), the page's
# files never change: a browser keeps them. Everything else is asked again.
IMMUTABLE = "public, max-age=31536000, immutable"
NO_STORE = "no-store"
# A JSON answer longer than this (a hand: 0.5-1 KB; a showdown: more) is
# gzipped when the client takes gzip; below it gzip saves too little.
COMPRESS_ABOVE = 512

# aiohttp's own refusals (no route, another method) as the page's error codes.
# The launching player's language (their Telegram's), on the request: a
# refusal before the room is known is in it.
PLAYER_LANGUAGE = web.RequestKey("player_language", str)
T = TypeVar("T")
HTTP_CODES = {404: "web.err.not_found", 405: "web.err.method"}

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass(frozen=True)
class Asset:
    """A file the page loads, in memory: its bytes, the same gzipped (None
    when that is not smaller) and its version (a hash of the bytes).

    Compressed here, once, rather than on every answer
    (``enable_compression``) or from ``.gz`` files beside the sources (which
    a build step would have to keep in step with them): the page's files are
    ~110 KB, so holding them costs nothing, and what is sent is exactly what
    the server started with, under the version it announces."""

    body: bytes
    gzipped: bytes | None
    content_type: str
    version: str

    @classmethod
    def of(cls, body: bytes, content_type: str) -> Asset:
        packed = gzip.compress(body, compresslevel=9, mtime=0)
        return cls(body, packed if len(packed) < len(body) else None, content_type, version(body))


def version(body: bytes) -> str:
    """The content's version: its URL changes exactly when its bytes do."""
    return hashlib.sha256(body).hexdigest()[:16]


def _content_type(path: Path) -> str:
    kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    return f"{kind}; charset=utf-8" if kind.startswith("text/") else kind


def load_assets(folder: Path) -> dict[str, Asset]:
    """Every file under ``folder`` (hidden ones aside), by its path there."""
    return {
        path.relative_to(folder).as_posix(): Asset.of(path.read_bytes(), _content_type(path))
        for path in sorted(folder.rglob("*"))
        if path.is_file()
        and not any(part.startswith(".") for part in path.relative_to(folder).parts)
    }


_ASSET_URL = re.compile(r'((?:src|href)=")static/([^"?#]+)"')


def page_in(html: str, language: str) -> str:
    """index.html with ``<html lang>`` naming ``language``."""
    if '<html lang=""' not in html:
        raise ValueError('index.html has no <html lang=""> to fill')
    return html.replace('<html lang=""', f'<html lang="{language}"', 1)


def versioned_page(html: str, assets: dict[str, Asset], strings: str) -> str:
    """index.html with each of its files' URLs naming the file's version
    (``static/app.js?v=…``) and the words' version on ``data-strings``."""

    def stamp(match: re.Match[str]) -> str:
        name = match.group(2)
        if name not in assets:
            raise ValueError(f"index.html names static/{name}, which is not there")
        return f'{match.group(1)}static/{name}?v={assets[name].version}"'

    if 'data-strings=""' not in html:
        raise ValueError('index.html has no data-strings="" to fill')
    return _ASSET_URL.sub(stamp, html).replace('data-strings=""', f'data-strings="{strings}"', 1)


def accepts_gzip(header: str) -> bool:
    """Whether an Accept-Encoding header takes gzip (RFC 9110: ``gzip``, or
    ``*``, with a q-value that is not 0)."""
    chosen: dict[str, bool] = {}
    for item in header.lower().split(","):
        coding, _, params = item.partition(";")
        q = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        chosen.setdefault(coding.strip(), q > 0)
    return chosen.get("gzip", chosen.get("*", False))


def _send(request: web.Request, asset: Asset, cache: str) -> web.Response:
    headers = {"Content-Type": asset.content_type, "Cache-Control": cache}
    body = asset.body
    if asset.gzipped is not None:
        headers["Vary"] = "Accept-Encoding"
        if accepts_gzip(request.headers.get("Accept-Encoding", "")):
            body = asset.gzipped
            headers["Content-Encoding"] = "gzip"
    return web.Response(body=body, headers=headers)


@dataclass
class WebConfig:
    telegram_token: str | None
    secret: bytes
    clock: Callable[[], float] = time.time
    # The page's public address (WEBAPP_URL): a browser's POST from its
    # origin is the page's, whatever Host the reverse proxy passes on.
    page_url: str | None = None
    # The ways into the page (None: Telegram's where a Telegram token is set).
    entries: Entries | None = None
    # The Discord Activity's check (DISCORD_ACTIVITY on; None: off).
    activity: Activity | None = None


DEFAULT_PORTS = {"http": 80, "https": 443}


def origin_of(url: str) -> str | None:
    """``scheme://host[:port]`` of ``url`` as browsers write an Origin:
    lower case, the scheme's default port left out (None: not an http(s) URL)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    if scheme not in DEFAULT_PORTS or not host:
        return None
    if ":" in host:  # IPv6
        host = f"[{host}]"
    return (
        f"{scheme}://{host}"
        if port in (None, DEFAULT_PORTS[scheme])
        else f"{scheme}://{host}:{port}"
    )


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


def asked_language(request: web.Request) -> str:
    """The language the browser asks for (its Accept-Language's first)."""
    return normalize_language(request.headers.get("Accept-Language", "")[:16] or None)


def _error(
    request: web.Request,
    code: str,
    status: int,
    message: str | None = None,
    language: str | None = None,
) -> web.Response:
    """A refusal as the page reads it, in ``language`` (the room's, when
    the refusal knows the room), else the launching player's, else the
    browser's; the answer names the language its words are in."""
    language = language or request.get(PLAYER_LANGUAGE) or asked_language(request)
    text = message or t(language, code)
    return web.json_response({"error": code, "message": text, "language": language}, status=status)


class WebApp:
    """The page's server side; ``application`` is what the bot serves."""

    def __init__(self, desk: Desk, config: WebConfig) -> None:
        self.desk = desk
        self.config = config
        self.buckets = _Buckets()
        self.entries = config.entries or Entries(
            telegram=config.telegram_token is not None,
            activity_client_id=config.activity.config.client_id if config.activity else None,
        )
        self.csp = self.entries.csp()
        self.origins = {
            o
            for o in (
                origin_of(config.page_url) if config.page_url else None,
                self.entries.activity_origin,
            )
            if o
        }
        self.assets = load_assets(STATIC / "files")
        self.strings = {language: _words(language) for language in LANGUAGES}
        self.strings_version = version(b"".join(a.body for a in self.strings.values()))
        html = versioned_page(
            self.entries.page((STATIC / "index.html").read_text(encoding="utf-8")),
            self.assets,
            self.strings_version,
        )
        self.pages = {
            language: Asset.of(page_in(html, language).encode(), "text/html; charset=utf-8")
            for language in LANGUAGES
        }
        self.application = web.Application(client_max_size=MAX_BODY, middlewares=[self._guard])
        router = self.application.router
        router.add_get("/app/", self._page)
        router.add_get("/app/strings/{language}.json", self._strings)
        router.add_get("/app/static/{name:.+}", self._static)
        router.add_post("/api/session", self._session)
        router.add_post("/api/activity", self._activity)
        if config.activity is not None:
            activity = config.activity

            async def close(_: web.Application) -> None:
                await activity.close()

            self.application.on_cleanup.append(close)
        router.add_get("/api/hand", self._with_pass(self._hand))
        router.add_post("/api/evaluate", self._with_pass(self._evaluate))
        router.add_post("/api/suggest", self._with_pass(self._suggest))
        router.add_post("/api/lay", self._with_pass(self._lay))
        router.add_post("/api/confirm", self._with_pass(self._confirm))
        router.add_post("/api/declare", self._with_pass(self._declare))
        router.add_get("/api/showdown", self._with_pass(self._showdown))

    # ---- every request ----------------------------------------------------------------
    @web.middleware
    async def _guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if not request.path.startswith(PAGE_PATHS):  # another route of the process's server
            return await handler(request)
        response = await self._answer(request, handler)
        response.headers["Content-Security-Policy"] = self.csp
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers.setdefault("Cache-Control", NO_STORE)  # only versioned files set it
        if (
            isinstance(response, web.Response)
            and response.content_type == "application/json"
            and "Content-Encoding" not in response.headers
            and isinstance(response.body, bytes)
            and len(response.body) > COMPRESS_ABOVE
        ):
            # The session's answer holds a pass; a page of another site can
            # neither send these requests (no launch data, no pass, POSTs
            # from another origin refused) nor read them, so the compressed
            # length tells an attacker nothing (no BREACH).
            response.headers["Vary"] = "Accept-Encoding"
            if accepts_gzip(request.headers.get("Accept-Encoding", "")):
                response.enable_compression(ContentCoding.gzip)
        return response

    async def _answer(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """The handler's answer, or its refusal as the JSON error: an unknown
        path or a wrong method too (aiohttp's own 404 / 405 are plain text)."""
        if request.method == "POST" and not _same_origin(request, self.origins):
            return _error(request, "web.err.origin", 403)
        try:
            return await handler(request)
        except web.HTTPRequestEntityTooLarge:
            return _error(request, "web.err.too_large", 413)
        except DeskError as error:
            return _error(request, error.code, error.status, error.reply, error.language)
        except web.HTTPException as error:
            if not 400 <= error.status < 500:
                raise
            code = HTTP_CODES.get(error.status, "web.err.bad_body")
            response = _error(request, code, error.status)
            if "Allow" in error.headers:  # a 405 names the methods the path takes
                response.headers["Allow"] = error.headers["Allow"]
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
            return await self._in_room_language(grant, handler(request, grant))

        return checked

    async def _in_room_language(self, grant: passes.Pass, answer: Awaitable[T]) -> T:
        """The answer; a refusal in the language of the pass's room."""
        try:
            return await answer
        except DeskError as error:
            if error.language is None:
                error.language = await self.desk.language_of(grant)
            raise

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
        """index.html in the browser's language (``<html lang>``): the words
        the page asks for before its session names the room's."""
        response = _send(request, self.pages[asked_language(request)], NO_STORE)
        response.headers["Vary"] = ", ".join(
            filter(None, (response.headers.get("Vary"), "Accept-Language"))
        )
        return response  # it names the files' versions

    def _cache(self, request: web.Request, current: str) -> str:
        """Kept for a year when asked for under the content's version; a URL
        without it, or with another (a page from before a restart), is not
        kept: its content may change."""
        return IMMUTABLE if request.query.get("v") == current else NO_STORE

    async def _static(self, request: web.Request) -> web.StreamResponse:
        asset = self.assets.get(request.match_info["name"])
        if asset is None:
            raise web.HTTPNotFound()
        return _send(request, asset, self._cache(request, asset.version))

    async def _strings(self, request: web.Request) -> web.StreamResponse:
        language = request.match_info["language"]
        if language not in LANGUAGES:
            return _error(request, "web.err.language", 404)
        words = self.strings[language]
        return _send(request, words, self._cache(request, self.strings_version))

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
        if user.language_code:
            request[PLAYER_LANGUAGE] = normalize_language(user.language_code)
        if not self.buckets.take(f"telegram:{user.id}", time.monotonic()):
            return _error(request, "web.err.slow_down", 429)
        room, round_no = body.get("room"), body.get("round")
        if not room and (pointer := room_and_round(user.start_param)):
            room, round_no = pointer  # opened from the group's t.me link
        elif not room and not round_no:
            # Opened with nothing saying which hand: the bot's Mini App from its
            # profile or a link without startapp. Say where the page opens from.
            return _error(request, "web.err.open_from_hand", 400)
        if (
            not isinstance(room, str)
            or not ROOM_ID.fullmatch(room)
            or not isinstance(round_no, int)
            or isinstance(round_no, bool)
        ):
            return _error(request, "web.err.bad_body", 400)  # no pass for another room
        grant = passes.Pass("telegram", str(user.id), room, round_no, int(now) + SESSION_SECONDS)
        # seated in that round, or refused here
        hand = await self._in_room_language(grant, self.desk.hand(grant))
        # Until some minutes after the deadline (or after now, for a round
        # already shown): long enough to see the showdown and the review.
        deadline = max(float(hand.get("deadline") or now), now)
        expires = int(min(now + SESSION_SECONDS, deadline + GRACE_SECONDS))
        grant = passes.Pass("telegram", str(user.id), room, round_no, expires)
        return web.json_response({"pass": passes.issue(grant, self.config.secret), "hand": hand})

    async def _activity(self, request: web.Request) -> web.StreamResponse:
        """The Discord Activity's way in: the SDK's code and the frame's
        instance, checked with Discord (bot/web/activity.py), then the same
        pass as the signed link's, for the room of the instance's channel."""
        body = await self._json(request)
        if self.config.activity is None:
            return _error(request, "web.err.activity_off", 404)
        if not isinstance(body, dict):
            return _error(request, "web.err.bad_body", 400)
        try:
            launch = await self.config.activity.launch(body.get("code"), body.get("instance_id"))
        except ActivityRefused as refused:
            log.info("web: activity launch refused (%s)", refused.reason)
            return _error(request, refused.code, refused.status)
        if not self.buckets.take(f"discord:{launch.user_id}", time.monotonic()):
            return _error(request, "web.err.slow_down", 429)
        now = self.config.clock()
        grant = passes.Pass(
            "discord", launch.user_id, launch.room_id, launch.round_no, int(now) + SESSION_SECONDS
        )
        # seated in that round, or refused here (in the room's language)
        hand = await self._in_room_language(grant, self.desk.hand(grant))
        deadline = max(float(hand.get("deadline") or now), now)
        expires = int(min(now + SESSION_SECONDS, deadline + GRACE_SECONDS))
        grant = passes.Pass("discord", launch.user_id, launch.room_id, launch.round_no, expires)
        return web.json_response(
            {
                "pass": passes.issue(grant, self.config.secret),
                "access_token": launch.access_token,
                "hand": hand,
            }
        )

    async def _hand(self, request: web.Request, grant: passes.Pass) -> web.StreamResponse:
        return web.json_response(await self.desk.hand(grant))

    async def _evaluate(self, request: web.Request, grant: passes.Pass) -> web.StreamResponse:
        draft = Draft.from_json(await self._json(request))
        return web.json_response(await self.desk.evaluate(grant, draft))

    async def _suggest(self, request: web.Request, grant: passes.Pass) -> web.StreamResponse:
        return web.json_response(await self.desk.suggest(grant))

    async def _lay(self, request: web.Request, grant: passes.Pass) -> web.StreamResponse:
        draft = Draft.from_json(await self._json(request))
        return web.json_response(await self.desk.lay(grant, draft))

    async def _confirm(self, request: web.Request, grant: passes.Pass) -> web.StreamResponse:
        draft = Draft.from_json(await self._json(request))
        return web.json_response(await self.desk.confirm(grant, draft))

    async def _declare(self, request: web.Request, grant: passes.Pass) -> web.StreamResponse:
        # 多三张: the page's draft says which 13 cards make the special.
        draft = Draft.from_json(await self._json(request)) if request.can_read_body else None
        return web.json_response(await self.desk.declare(grant, draft))

    async def _showdown(self, request: web.Request, grant: passes.Pass) -> web.StreamResponse:
        return web.json_response(await self.desk.showdown(grant))


def _words(language: str) -> Asset:
    """The page's words in ``language``: the ``web.*``, ``cat.*``,
    ``special.*``, ``lane.*`` and ``moment.*`` keys of its catalog, as JSON."""
    words = {
        k: v
        for k, v in catalog(language).items()
        if k.startswith(("web.", "cat.", "special.", "lane.", "moment."))
    }
    body = json.dumps(words, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return Asset.of(body.encode(), "application/json; charset=utf-8")


def _same_origin(request: web.Request, page_origins: set[str]) -> bool:
    """A browser names the origin of the page that POSTs: the page's own is
    WEBAPP_URL's (a reverse proxy's Host may have lost its port: nginx's
    ``$host``) or, with the Activity on, Discord's proxy's, else the host the
    request was sent to."""
    origin = request.headers.get("Origin")
    if origin is None:
        return True  # not a browser's cross-site request (curl, a test client)
    if origin_of(origin) in page_origins:
        return True
    host = request.headers.get("X-Forwarded-Host") or request.host
    return origin.split("://", 1)[-1].lower() == host.lower()
