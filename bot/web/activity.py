"""The page as a Discord Activity: who opened it, in which channel, checked
with Discord before a pass is issued.

Inside Discord the page runs in the client's frame (Discord's proxy serves
it from ``https://<client id>.discordsays.com``) with no signed link. The
Embedded App SDK's ``authorize`` gives the page an OAuth2 code for this
application; the page sends it with the frame's ``instance_id``, and here:

1. the code is taken once (a second use is refused, also while the first
   is still being exchanged) and exchanged at Discord's token endpoint with
   the application's id and secret (DISCORD_CLIENT_SECRET);
2. ``GET /users/@me`` with that token says who the player is;
3. ``GET /applications/{app}/activity-instances/{instance}`` with the bot's
   token says who is in the Activity and in which channel: the player must be
   among its users, and the channel's open room is the room of the pass;
4. the player must be seated in that room's current round (the desk checks
   it as for every pass).

The pass is the signed link's (``passes.Pass``, platform ``discord``): from
here on the page is the same page. The page also gets the access token, for
the SDK's ``authenticate``. Neither the code, the token nor the secret is
ever logged; a refusal is logged by its reason only.
"""

from __future__ import annotations

import hashlib
import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import aiohttp

from bot.core.room import Room

log = logging.getLogger(__name__)

# Discord's OAuth2 codes live 10 minutes; one used is remembered as long.
CODE_SECONDS = 10 * 60
MAX_CODE = 200
SNOWFLAKE = re.compile(r"[0-9]{1,20}")
# An instance id as Discord writes them (i-<digits>-gc-<digits>-<digits> and the like).
INSTANCE = re.compile(r"[0-9A-Za-z_-]{1,100}")
TIMEOUT = aiohttp.ClientTimeout(total=10)
DISCORD_API = "https://discord.com/api/v10"


class ActivityRefused(Exception):
    """A launch the page cannot have: ``code`` is a catalog key, ``reason``
    what the log says (never a value sent by the page or by Discord)."""

    def __init__(self, code: str, status: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.status = status
        self.reason = reason


class ChannelRooms(Protocol):
    """What the Activity needs of the table: a channel's open room."""

    async def room_in(self, platform: str, chat_id: str) -> str | None: ...

    async def room(self, room_id: str) -> Room | None: ...


@dataclass(frozen=True)
class ActivityConfig:
    client_id: str
    client_secret: str = field(repr=False)
    bot_token: str = field(repr=False)
    api_url: str = DISCORD_API  # DISCORD_API_URL: tests point it at a local fake


@dataclass(frozen=True, slots=True)
class Launch:
    """Who opened the Activity, and the room and round it is for."""

    user_id: str
    access_token: str
    room_id: str
    round_no: int


LOGIN = "web.err.activity_login"
INSTANCE_REFUSED = "web.err.activity_instance"
UNREACHABLE = "web.err.activity_unreachable"


class Activity:
    """The code exchange and the instance check, for one application."""

    def __init__(
        self, config: ActivityConfig, rooms: ChannelRooms, clock: Callable[[], float] = time.time
    ) -> None:
        self.config = config
        self.rooms = rooms
        self.clock = clock
        self._used: dict[str, float] = {}  # sha256 of a code -> when it was taken
        self._http: aiohttp.ClientSession | None = None

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close()
            self._http = None

    def _session(self) -> aiohttp.ClientSession:
        if self._http is None or self._http.closed:
            self._http = aiohttp.ClientSession(timeout=TIMEOUT)
        return self._http

    def _take(self, code: str) -> None:
        """The code, once: a replay is refused before Discord is asked."""
        now = self.clock()
        if len(self._used) > 10_000:
            self._used = {k: at for k, at in self._used.items() if now - at < CODE_SECONDS}
        key = hashlib.sha256(code.encode()).hexdigest()
        at = self._used.get(key)
        if at is not None and now - at < CODE_SECONDS:
            raise ActivityRefused(LOGIN, 401, "code used before")
        self._used[key] = now

    async def launch(self, code: Any, instance_id: Any) -> Launch:
        if not isinstance(code, str) or not 0 < len(code) <= MAX_CODE or not code.isprintable():
            raise ActivityRefused(LOGIN, 400, "no code")
        if not isinstance(instance_id, str) or not INSTANCE.fullmatch(instance_id):
            raise ActivityRefused(INSTANCE_REFUSED, 400, "no instance id")
        self._take(code)
        token = await self._exchange(code)
        user_id = await self._user(token)
        channel_id = await self._instance(instance_id, user_id)
        room_id = await self.rooms.room_in("discord", channel_id)
        room = await self.rooms.room(room_id) if room_id else None
        if room is None or room.round is None:
            raise ActivityRefused("web.err.not_seated", 403, "no round in the channel")
        return Launch(user_id, token, room.id, room.round.no)

    # ---- Discord ----------------------------------------------------------------------
    async def _call(self, method: str, path: str, **kwargs: Any) -> tuple[int, Any]:
        url = f"{self.config.api_url.rstrip('/')}{path}"
        try:
            async with self._session().request(method, url, **kwargs) as response:
                try:
                    body = await response.json(content_type=None)
                except ValueError:
                    body = None
                return response.status, body
        except (TimeoutError, aiohttp.ClientError) as error:
            # The error's class only: its text may hold the URL, never a secret,
            # but nothing more is needed.
            log.warning("activity: Discord unreachable (%s)", type(error).__name__)
            raise ActivityRefused(UNREACHABLE, 502, "Discord unreachable") from None

    async def _exchange(self, code: str) -> str:
        status, body = await self._call(
            "POST",
            "/oauth2/token",
            data={
                "client_id": self.config.client_id,
                "client_secret": self.config.client_secret,
                "grant_type": "authorization_code",
                "code": code,
            },
        )
        token = body.get("access_token") if isinstance(body, dict) else None
        if status != 200 or not isinstance(token, str) or not token:
            raise ActivityRefused(LOGIN, 401, f"code refused by Discord ({status})")
        scopes = str(body.get("scope", "")).split()
        if "identify" not in scopes:
            raise ActivityRefused(LOGIN, 401, "token without the identify scope")
        return token

    async def _user(self, token: str) -> str:
        status, body = await self._call(
            "GET", "/users/@me", headers={"Authorization": f"Bearer {token}"}
        )
        user_id = str(body.get("id", "")) if isinstance(body, dict) else ""
        if status != 200 or not SNOWFLAKE.fullmatch(user_id):
            raise ActivityRefused(LOGIN, 401, f"user not read ({status})")
        return user_id

    async def _instance(self, instance_id: str, user_id: str) -> str:
        """The instance's channel, once the user is seen in it."""
        status, body = await self._call(
            "GET",
            f"/applications/{self.config.client_id}/activity-instances/{instance_id}",
            headers={"Authorization": f"Bot {self.config.bot_token}"},
        )
        if status != 200 or not isinstance(body, dict):
            raise ActivityRefused(INSTANCE_REFUSED, 403, f"no such instance ({status})")
        application = str(body.get("application_id", self.config.client_id))
        users = body.get("users")
        location = body.get("location")
        if application != self.config.client_id:
            raise ActivityRefused(INSTANCE_REFUSED, 403, "instance of another application")
        if not isinstance(users, list) or user_id not in {str(u) for u in users}:
            raise ActivityRefused(INSTANCE_REFUSED, 403, "user not in the instance")
        channel = str(location.get("channel_id", "")) if isinstance(location, dict) else ""
        if not SNOWFLAKE.fullmatch(channel):
            raise ActivityRefused(INSTANCE_REFUSED, 403, "instance without a channel")
        return channel
