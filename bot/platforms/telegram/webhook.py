"""Telegram's webhook as a route of the process's one web server (aiohttp).

python-telegram-bot's custom-webhook pattern: the Application is built
without an Updater (``.updater(None)``); the bot registers the webhook
itself (``setWebhook``) and puts what Telegram posts on the Application's
``update_queue``. The route answers at once; the Application handles the
update afterwards, as it would one it polled.

A request is refused and nothing is queued when:

- the secret token (``X-Telegram-Bot-Api-Secret-Token``, where
  TELEGRAM_WEBHOOK_SECRET is set) is missing or wrong: 403;
- the body is larger than :data:`MAX_UPDATE_BYTES`: 413;
- it is not JSON (``Content-Type``, or a body that does not parse) or not an
  update: 400;
- the bot is stopping: 503 (a reverse proxy passes it to another worker;
  Telegram itself sends it again later).

Neither the secret nor the body is ever logged.
"""

from __future__ import annotations

import hmac
import json
import logging
from urllib.parse import urlparse

from aiohttp import web
from telegram import Update
from telegram.ext import Application

log = logging.getLogger(__name__)
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
# An update is a few kilobytes; the largest (a long message quoting another
# long one, with their entities) stays far below this.
MAX_UPDATE_BYTES = 1024 * 1024
# What python-telegram-bot's own webhook server asked Telegram for.
MAX_CONNECTIONS = 40


class TelegramWebhook:
    """The webhook of ``application``: Telegram posts to ``url``; its path is
    the route :meth:`add_routes` adds."""

    def __init__(self, application: Application, url: str, secret: str | None) -> None:
        self.application = application
        self.url = url
        self.path = urlparse(url).path or "/"
        self._secret = secret.encode() if secret else None
        self._open = True

    def add_routes(self, app: web.Application) -> None:
        app.router.add_post(self.path, self._receive)

    async def register(self, allowed_updates: list[str]) -> None:
        """Tell Telegram where to post (``setWebhook``); once the route is served."""
        await self.application.bot.set_webhook(
            url=self.url,
            allowed_updates=allowed_updates,
            max_connections=MAX_CONNECTIONS,
            secret_token=self._secret.decode() if self._secret else None,
        )

    def close(self) -> None:
        """Take no more updates (503 from now on); the queued ones are still handled."""
        self._open = False

    async def _receive(self, request: web.Request) -> web.Response:
        if not self._open:
            return web.Response(status=503)
        if self._secret is not None:
            given = request.headers.get(SECRET_HEADER, "").encode("utf-8", "surrogateescape")
            if not hmac.compare_digest(given, self._secret):
                log.warning("telegram webhook: a request without the right secret token refused")
                return web.Response(status=403)
        if request.content_type != "application/json":
            return web.Response(status=400)
        if (request.content_length or 0) > MAX_UPDATE_BYTES:
            return web.Response(status=413)
        body = bytearray()
        while chunk := await request.content.read(64 * 1024):
            body += chunk
            if len(body) > MAX_UPDATE_BYTES:
                return web.Response(status=413)
        try:
            data = json.loads(body)
            if not isinstance(data, dict):
                raise TypeError("not an object")
            update = Update.de_json(data, self.application.bot)
        except Exception as error:  # whatever the body held, it is not an update
            log.warning(
                "telegram webhook: a body that is not an update refused (%s)", type(error).__name__
            )
            return web.Response(status=400)
        if not self._open:  # stopped while the body was read
            return web.Response(status=503)
        await self.application.update_queue.put(update)
        return web.Response()
