"""A local fake of the parts of Discord's HTTP API the Activity's server
asks (bot/web/activity.py), as strict as Discord about what it takes:

- ``POST /oauth2/token``: a code it handed out, once, for the application it
  was handed out for, with that application's id and secret; an access
  token with the scopes the code was authorized for;
- ``GET /users/@me`` with ``Bearer <access token>``: the token's user;
- ``GET /applications/{app}/activity-instances/{instance}`` with
  ``Bot <bot token>`` (that application's bot): the instance's users and
  location.

Tests hand out codes (``code_for``) and open instances (``instance``) as
Discord's client would, and read ``calls`` to see what was asked.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from bot.web.activity import ActivityConfig
from tests.web.harness import serve_local

CLIENT_ID = "1234567890123456"
CLIENT_SECRET = "client-secret-never-logged-0123456789"
BOT_TOKEN = "bot-token-never-logged.ABCDEF.0123456789abcdef"
OTHER_APP = "9999999999999999"
GUILD = "4000000000000001"
CHANNEL = "5000000000000001"  # the room's channel
OTHER_CHANNEL = "5000000000000002"


@dataclass
class FakeDiscord:
    codes: dict[str, tuple[str, str, str]] = field(default_factory=dict)  # code -> app, user, scope
    tokens: dict[str, str] = field(default_factory=dict)  # access token -> user
    instances: dict[str, dict[str, Any]] = field(default_factory=dict)
    calls: list[str] = field(default_factory=list)
    url: str = ""

    def code_for(self, user_id: str, *, app: str = CLIENT_ID, scope: str = "identify") -> str:
        """A code as ``authorize`` gives the page of ``app`` for ``user_id``."""
        code = secrets.token_urlsafe(20)
        self.codes[code] = (app, user_id, scope)
        return code

    def instance(self, users: list[str], *, channel: str = CHANNEL, app: str = CLIENT_ID) -> str:
        instance_id = f"i-{secrets.randbelow(10**12)}-gc-{GUILD}-{channel}"
        self.instances[instance_id] = {
            "application_id": app,
            "instance_id": instance_id,
            "launch_id": str(secrets.randbelow(10**18)),
            "location": {
                "id": f"gc-{GUILD}-{channel}",
                "kind": "gc",
                "channel_id": channel,
                "guild_id": GUILD,
            },
            "users": users,
        }
        return instance_id

    def config(self) -> ActivityConfig:
        return ActivityConfig(CLIENT_ID, CLIENT_SECRET, BOT_TOKEN, self.url)

    # ---- Discord's side ---------------------------------------------------------------
    async def token(self, request: web.Request) -> web.Response:
        self.calls.append("token")
        form = await request.post()
        if form.get("client_id") != CLIENT_ID or form.get("client_secret") != CLIENT_SECRET:
            return web.json_response({"error": "invalid_client"}, status=401)
        granted = self.codes.pop(str(form.get("code", "")), None)  # a code works once
        if form.get("grant_type") != "authorization_code" or granted is None:
            return web.json_response({"error": "invalid_grant"}, status=400)
        app, user, scope = granted
        if app != form.get("client_id"):
            return web.json_response({"error": "invalid_grant"}, status=400)
        access = secrets.token_urlsafe(24)
        self.tokens[access] = user
        return web.json_response(
            {
                "access_token": access,
                "token_type": "Bearer",
                "expires_in": 604800,
                "refresh_token": secrets.token_urlsafe(24),
                "scope": scope,
            }
        )

    async def me(self, request: web.Request) -> web.Response:
        self.calls.append("me")
        header = request.headers.get("Authorization", "")
        user = (
            self.tokens.get(header.removeprefix("Bearer "))
            if header.startswith("Bearer ")
            else None
        )
        if user is None:
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        return web.json_response(
            {
                "id": user,
                "username": f"user{user}",
                "discriminator": "0",
                "global_name": None,
                "avatar": None,
                "public_flags": 0,
            }
        )

    async def activity_instance(self, request: web.Request) -> web.Response:
        self.calls.append("instance")
        if request.headers.get("Authorization") != f"Bot {BOT_TOKEN}":
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        found = self.instances.get(request.match_info["instance"])
        if (
            request.match_info["app"] != CLIENT_ID
            or found is None
            or found["application_id"] != CLIENT_ID
        ):
            return web.json_response(
                {"message": "Unknown Activity Instance", "code": 10000}, status=404
            )
        return web.json_response(found)


@asynccontextmanager
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    app = web.Application()
    app.router.add_post("/api/v10/oauth2/token", fake.token)
    app.router.add_get("/api/v10/users/@me", fake.me)
    app.router.add_get(
        "/api/v10/applications/{app}/activity-instances/{instance}", fake.activity_instance
    )
    runner, port = await serve_local(app)
    fake.url = f"http://127.0.0.1:{port}/api/v10"
    try:
        yield fake
    finally:
        await runner.cleanup()
