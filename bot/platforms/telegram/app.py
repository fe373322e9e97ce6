"""Build and run the Telegram Application (python-telegram-bot v22).

``build_application(settings, manager)`` wires the handlers, the rate limiter
and the outbox; ``run_telegram(settings, manager)`` runs it next to other
asyncio work (Discord, the table's timers): polling by default, a webhook
when TELEGRAM_WEBHOOK_URL is set (bot/platforms/telegram/webhook.py: a route
of the process's one web server, or of a server of its own).
"""

from __future__ import annotations

import asyncio
import logging

from aiohttp import web
from telegram import Update
from telegram.ext import (
    Application,
    ApplicationBuilder,
    BaseRateLimiter,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    filters,
)

from bot.config import Settings
from bot.delivery import Limits
from bot.delivery.http import serve_http
from bot.delivery.outbox import Outbox, Pacing
from bot.platforms.telegram.adapter import TelegramAdapter, answering
from bot.platforms.telegram.menu import GROUP_COMMANDS, register_menu
from bot.platforms.telegram.transport import TelegramPlatform
from bot.platforms.telegram.webhook import TelegramWebhook
from bot.table.actions import ACTION_PREFIX
from bot.table.contract import TableLike
from bot.web.links import page_links
from storage.delivery import DeliveryStore
from storage.delivery_memory import MemoryDelivery

log = logging.getLogger(__name__)
ADAPTER_KEY = "thirteen.adapter"
WEBHOOK_KEY = "thirteen.webhook"
ALLOWED_UPDATES = [Update.MESSAGE, Update.CALLBACK_QUERY, Update.MY_CHAT_MEMBER]
CONCURRENT_UPDATES = 16


def limits_of(settings: Settings) -> Limits:
    """Telegram's flood limits as Settings give them (0: no limit)."""
    group = settings.delivery_group_per_minute / 60
    return Limits(
        group_per_second=group,
        group_burst=max(settings.delivery_group_per_minute, 1),
        private_per_second=settings.delivery_private_per_second,
        private_burst=3,
        overall_per_second=settings.delivery_overall_per_second,
        overall_burst=max(settings.delivery_overall_per_second, 1),
    )


def adapter_of(application: Application) -> TelegramAdapter:
    adapter: TelegramAdapter = application.bot_data[ADAPTER_KEY]
    return adapter


def webhook_of(application: Application) -> TelegramWebhook | None:
    """The webhook where TELEGRAM_WEBHOOK_URL is set (then there is no Updater)."""
    webhook: TelegramWebhook | None = application.bot_data.get(WEBHOOK_KEY)
    return webhook


async def open_adapter(app: Application) -> None:
    """After ``initialize()`` (getMe done): start the outbox, register
    the command menu. run_polling and
    run_webhook call it as post_init; run_telegram calls it itself."""
    adapter = adapter_of(app)
    adapter.outbox.start()
    await register_menu(app.bot)


async def close_adapter(app: Application) -> None:
    """Deliver what is still queued, then stop the outbox."""
    await adapter_of(app).outbox.stop()


def build_application(
    settings: Settings,
    manager: TableLike,
    *,
    store: DeliveryStore | None = None,
    rate_limiter: BaseRateLimiter | None = None,
    coalesce_seconds: float = 0.3,
    limits: Limits | None = None,
) -> Application:
    """The Application for ``manager``, delivering through ``store`` (the
    manager's repository; None: in memory, nothing survives). It touches
    nothing of the manager: whoever assembles the process gives the manager
    its sink (``adapter_of(app).sink`` - the manager's timer views:
    reminders, auto-arrange, showdown steps - or a fan-out to it: it
    ignores views of other platforms) and registers ``adapter_of(app).outbox``
    with it (``durable.register``) so its views are written with the state
    changes."""
    if settings.telegram_token is None:
        raise ValueError("TELEGRAM_TOKEN is not set")
    builder = (
        ApplicationBuilder()
        .token(settings.telegram_token.get_secret_value())
        .base_url(settings.telegram_base_url)
        .base_file_url(settings.telegram_base_file_url)
    )
    if rate_limiter is not None:
        # The delivery engine keeps to the flood limits and retries 429s
        # itself (docs/delivery.md); a limiter here is for tests.
        builder = builder.rate_limiter(rate_limiter)
    if settings.telegram_webhook_url:
        # Updates come in through webhook.py's route, not an Updater.
        builder = builder.updater(None)
    application = (
        builder
        # Updates of different rooms need not wait for each other; the table
        # manager serialises each room with its own lock (FIFO, in arrival order).
        .concurrent_updates(CONCURRENT_UPDATES)
        .post_init(open_adapter)
        .post_stop(close_adapter)
        .build()
    )
    pacing = Pacing(
        limits or limits_of(settings),
        settings.delivery_poll_seconds,
        settings.delivery_retention,
        coalesce_seconds,
    )
    store = store or MemoryDelivery()
    platform = TelegramPlatform(application.bot, store, page_links(settings))
    adapter = TelegramAdapter(manager, platform, Outbox(store, platform, pacing))
    application.bot_data[ADAPTER_KEY] = adapter
    if settings.telegram_webhook_url:
        secret = settings.telegram_webhook_secret
        application.bot_data[WEBHOOK_KEY] = TelegramWebhook(
            application,
            settings.telegram_webhook_url,
            secret.get_secret_value() if secret else None,
        )

    groups = filters.ChatType.GROUPS
    private = filters.ChatType.PRIVATE
    application.add_handler(CommandHandler("start", answering(adapter.start), filters=private))
    application.add_handler(CommandHandler("help", adapter.private_help, filters=private))
    application.add_handler(
        CommandHandler(
            "start", answering(adapter.group_command(GROUP_COMMANDS["help"])), filters=groups
        )
    )
    for name, verb in GROUP_COMMANDS.items():
        application.add_handler(
            CommandHandler(name, answering(adapter.group_command(verb)), filters=groups)
        )
    application.add_handler(
        CommandHandler(list(GROUP_COMMANDS), adapter.group_only, filters=private)
    )
    application.add_handler(
        CallbackQueryHandler(answering(adapter.press), pattern=rf"^{ACTION_PREFIX}\|")
    )
    application.add_handler(CallbackQueryHandler(adapter.other_press))
    application.add_handler(
        ChatMemberHandler(adapter.chat_member, ChatMemberHandler.MY_CHAT_MEMBER)
    )
    application.add_error_handler(adapter.on_error)
    return application


async def run_telegram(
    settings: Settings,
    manager: TableLike,
    stop: asyncio.Event | None = None,
    *,
    ready: asyncio.Event | None = None,
    application: Application | None = None,
    served: asyncio.Event | None = None,
) -> None:
    """Run the bot until ``stop`` is set (or the task is cancelled).

    The caller owns the manager: ``await repo.init()`` before, and
    ``await manager.start()`` once ``ready`` is set (this bot delivers
    then, so views of deadlines that passed while the bot was down reach the
    chats). Without ``application`` this bot is the manager's only platform
    and its sink; with Discord on the same manager, build the application,
    pass it as ``application`` and fan the manager's sink out to
    ``adapter_of(app).sink`` (it ignores views of other platforms).

    In webhook mode the webhook's route is served by the caller's web server
    when ``served`` is given (``webhook_of(app).add_routes``; the caller sets
    ``served`` once that server listens, and the webhook is registered with
    Telegram then), else by a server of its own on
    TELEGRAM_WEBHOOK_LISTEN:TELEGRAM_WEBHOOK_PORT. On stop it takes no more
    updates, then the Application handles the queued ones and stops, then
    the outbox delivers what is due.
    """
    if application is None:
        application = build_application(settings, manager)
        manager.set_sink(adapter_of(application).sink)
    stop = stop or asyncio.Event()
    webhook = webhook_of(application)
    own_server: web.AppRunner | None = None
    async with application:  # initialize() ... shutdown()
        await open_adapter(application)
        await application.start()
        try:
            if webhook is None:
                assert application.updater is not None
                await application.updater.start_polling(allowed_updates=ALLOWED_UPDATES)
                log.info("telegram: polling as @%s", application.bot.username)
            elif served is None:
                own = web.Application()
                webhook.add_routes(own)
                own_server = await serve_http(
                    own, [(settings.telegram_webhook_listen, settings.telegram_webhook_port)]
                )
                await _register(webhook)
            if ready is not None:
                ready.set()
            if webhook is not None and served is not None and await _until_served(served, stop):
                await _register(webhook)
            await stop.wait()
        finally:
            if webhook is not None:
                webhook.close()
            if application.updater is not None and application.updater.running:
                await application.updater.stop()
            await application.stop()
            await close_adapter(application)
            if own_server is not None:
                await own_server.cleanup()


async def _register(webhook: TelegramWebhook) -> None:
    await webhook.register(ALLOWED_UPDATES)
    log.info("telegram: webhook at %s", webhook.url)


async def _until_served(served: asyncio.Event, stop: asyncio.Event) -> bool:
    """Until the webhook's route is served (True), or ``stop`` comes first."""
    waits = [asyncio.ensure_future(served.wait()), asyncio.ensure_future(stop.wait())]
    try:
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for w in waits:
            w.cancel()
        await asyncio.gather(*waits, return_exceptions=True)
    return served.is_set()
