"""Telegram as ``thirteen run`` serves it (``bot.platforms.entry``):
turned on by TELEGRAM_TOKEN, its webhook's address where
TELEGRAM_WEBHOOK_URL is set. Light: the library is imported only in
``build``."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from bot.platforms.entry import Entry, Place, Served

from .traits import TRAITS

if TYPE_CHECKING:
    from bot.config import Settings
    from bot.table.contract import TableLike
    from storage.delivery import DeliveryStore


def enabled(settings: Settings) -> bool:
    return settings.telegram_token is not None


def places(settings: Settings) -> tuple[Place, ...]:
    """The webhook's address, where TELEGRAM_WEBHOOK_URL is set."""
    if enabled(settings) and settings.telegram_webhook_url:
        listen = (settings.telegram_webhook_listen, settings.telegram_webhook_port)
        return (("TELEGRAM_WEBHOOK", listen),)
    return ()


def build(settings: Settings, manager: TableLike, store: DeliveryStore) -> Served:
    """The bot, polling or (TELEGRAM_WEBHOOK_URL) on a route of the
    process's web server, registered with Telegram once that listens."""
    from .app import adapter_of, build_application, run_telegram, webhook_of

    app = build_application(settings, manager, store=store, install_sink=False)
    adapter = adapter_of(app)
    webhook = webhook_of(app)
    ready = asyncio.Event()

    async def run(stop: asyncio.Event, served: asyncio.Event) -> None:
        await run_telegram(settings, manager, stop, ready=ready, application=app, served=served)

    line = ""
    if webhook is not None:
        line = (
            f"web: the Telegram webhook at {webhook.path} (listening on "
            f"{settings.telegram_webhook_listen}:{settings.telegram_webhook_port})"
        )
    return Served(
        adapter.platform,
        adapter.sink,
        adapter.engine,
        run,
        ready=ready,
        add_routes=webhook.add_routes if webhook is not None else None,
        routes_line=line,
    )


ENTRY = Entry(TRAITS, "TELEGRAM_TOKEN", "docs/telegram.md", enabled, build, places)
