"""``thirteen run``: start the chat bots whose tokens are set.

One table manager serves both platforms; its timer views (reminders,
auto-arrange, showdown steps) are fanned out to each platform's adapter,
which ignores views of other platforms. Here the process is assembled: each
platform served delivers from the database and is registered with the
manager (``durable.register``), which then writes its views to the outbox
in the transactions that make them (docs/delivery.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot import logsafe
from bot.cli import command_parser, configure_solver, database_problem, settings_or_exit
from bot.cli.platform_errors import FAILED, SETTING_WRONG, explain_stop
from bot.config import Settings
from bot.delivery.engine import DeliveryEngine, process_owner
from bot.delivery.metrics import Metrics
from bot.delivery.timers import TimerPoller
from bot.rules import make_rules
from bot.table.clock import RealClock
from bot.table.contract import Sink
from bot.table.manager import TableManager
from bot.views.model import View
from storage.api import StorageError
from storage.sql import SqlRepository

if TYPE_CHECKING:  # imported where they are used, once a token says so
    from aiohttp import web

    from bot.platforms.telegram.webhook import TelegramWebhook

log = logging.getLogger("thirteen")
STOP_SECONDS = 20.0  # a platform that has not stopped by then is cancelled


def _fan_out(sinks: list[Sink]) -> Sink:
    async def sink(views: Sequence[View]) -> None:
        for s in sinks:
            try:
                await s(views)
            except Exception:  # one platform failing must not silence the other
                log.exception("a platform could not take the views")

    return sink


async def _warm_solver(settings: Settings) -> None:
    """Build the solver's model of the default deck setting off the event
    loop, while the bots already answer: a quick model takes a few seconds
    the first time (a round started before waits for it), the full opponent
    pools a minute or two more in a background thread, logged when they
    start and when they are done (bot.table.solving.warm)."""
    from bot.table import solving

    try:
        await solving.warm(make_rules(settings.default_preset, 4))
    except Exception:  # a round's start tries again
        log.warning("the solver's model could not be built", exc_info=True)


async def _open_repository(url: str) -> SqlRepository | None:
    """The database, its schema migrated; None (said in one line) when it
    cannot be used: a file that cannot be created, a server that does not
    answer, a refused login."""
    from sqlalchemy.exc import SQLAlchemyError

    repo: SqlRepository | None = None
    try:
        repo = SqlRepository(url)
        await repo.init()
        return repo
    except (StorageError, SQLAlchemyError, OSError) as e:
        print(f"thirteen: {database_problem(url, e)}", file=sys.stderr)
        if repo is not None:
            with contextlib.suppress(Exception):
                await repo.close()
        return None


def _web_places(settings: Settings) -> list[tuple[str, int]]:
    """Where the process's one web server listens: the arranging page's
    address (WEBAPP_URL set), the webhook's (TELEGRAM_TOKEN and
    TELEGRAM_WEBHOOK_URL set) and the metrics' (METRICS_PORT set), each once."""
    places: list[tuple[str, int]] = []
    if settings.webapp_url is not None:
        places.append((settings.webapp_listen, settings.webapp_port))
    if settings.telegram_token is not None and settings.telegram_webhook_url:
        places.append((settings.telegram_webhook_listen, settings.telegram_webhook_port))
    if settings.metrics_port is not None:
        places.append((settings.metrics_listen, settings.metrics_port))
    return list(dict.fromkeys(places))


def _web_problem(settings: Settings) -> str | None:
    """One line when two of the web server's addresses share a port but not
    the address: one port is one socket."""
    names = {
        (settings.webapp_listen, settings.webapp_port): "WEBAPP",
        (settings.telegram_webhook_listen, settings.telegram_webhook_port): "TELEGRAM_WEBHOOK",
        (settings.metrics_listen, settings.metrics_port): "METRICS",
    }
    seen: dict[int, tuple[str, int]] = {}
    for place in _web_places(settings):
        other = seen.setdefault(place[1], place)
        if other != place:
            a, b = names[other], names[place]
            return (
                f"{b}_PORT={place[1]} is also {a}_PORT: one port is one socket, so "
                f"{b}_LISTEN={place[0]!r} must be the same as {a}_LISTEN={other[0]!r}"
            )
    return None


async def _start_web(
    settings: Settings,
    repo: SqlRepository,
    manager: TableManager,
    metrics: Metrics | None,
    engines: list[DeliveryEngine],
    webhook: TelegramWebhook | None,
    sink: Sink,
) -> web.AppRunner | None:
    """The process's one web server (aiohttp; None when nothing is on): the
    arranging page and its API where WEBAPP_URL is set, Telegram's webhook
    where TELEGRAM_WEBHOOK_URL is, ``/healthz`` and ``/metrics`` where
    METRICS_PORT is. One application, served on each address asked for
    (every route answers on each of them)."""
    from aiohttp import web

    from bot.delivery.http import serve_http

    places = _web_places(settings)
    if not places:
        return None
    if metrics is not None:
        for engine in engines:
            metrics.watch(engine)
    if settings.webapp_url is not None:
        from bot.web.assembly import arranging_page

        # The page's application is the server's: its guard (same-origin
        # POSTs, CSP) keeps to the page's own paths, /app/ and /api/. The
        # views of the page's actions go to the platforms as a timer's do.
        page = arranging_page(settings, manager, deliver=sink)
        application = page.application
    else:
        application = web.Application()
    if webhook is not None:
        webhook.add_routes(application)
    if metrics is not None:
        metrics.add_routes(application)
    server = await serve_http(application, places)
    if settings.webapp_url is not None:
        log.info(
            "web: the arranging page at %s/app/ (listening on %s:%d)",
            settings.webapp_url,
            settings.webapp_listen,
            settings.webapp_port,
        )
    if webhook is not None:
        log.info(
            "web: the Telegram webhook at %s (listening on %s:%d)",
            webhook.path,
            settings.telegram_webhook_listen,
            settings.telegram_webhook_port,
        )
    if metrics is not None:
        log.info(
            "web: /healthz and /metrics (listening on %s:%d)",
            settings.metrics_listen,
            settings.metrics_port,
        )
    return server


async def serve(settings: Settings, stop: asyncio.Event | None = None) -> int:
    """Serve until SIGINT/SIGTERM (or ``stop`` is set); the exit status."""
    has_tg = settings.telegram_token is not None
    has_dc = settings.discord_token is not None
    if not (has_tg or has_dc):
        print(
            "Neither TELEGRAM_TOKEN nor DISCORD_TOKEN is set. To run the bots: "
            "cp .env.example .env, then put a token in .env "
            "(docs/telegram.md, docs/discord.md). To play without any token: thirteen play.",
            file=sys.stderr,
        )
        return 2
    problem = _web_problem(settings)
    if problem is not None:
        print(f"thirteen: {problem}", file=sys.stderr)
        return 2
    repo = await _open_repository(settings.database_url)
    if repo is None:
        return 1
    # every action counted and timed (METRICS_PORT set), the page's too
    metrics = Metrics(repo) if settings.metrics_port is not None else None
    manager = TableManager(
        repo,
        clock=RealClock(),
        arrange_seconds=settings.arrange_seconds,
        reminder_seconds=settings.reminder_seconds,
        showdown_step_seconds=settings.showdown_step_seconds,
        default_language=settings.default_language,
        default_preset=settings.default_preset,
        timezone=settings.timezone,
        pictures=settings.pictures,  # PICTURES=false: every room text only
        observer=metrics,
    )
    warming = asyncio.create_task(_warm_solver(settings))
    sinks: list[Sink] = []
    engines: list[DeliveryEngine] = []
    tasks: list[asyncio.Task[None]] = []
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # not on every platform
            loop.add_signal_handler(sig, stop.set)
    ready: list[asyncio.Event] = []
    # Telegram's webhook, a route of the process's web server
    webhook: TelegramWebhook | None = None
    served = asyncio.Event()  # that server listens: the webhook may be registered
    if has_tg:
        from bot.platforms.telegram.app import (
            adapter_of,
            build_application,
            run_telegram,
            webhook_of,
        )

        app = build_application(settings, manager, store=repo)
        telegram = adapter_of(app)
        # Its views are written to the outbox with the state changes that make them.
        manager.durable.register(telegram.outbox)
        sinks.append(telegram.sink)
        engines.append(telegram.engine)
        webhook = webhook_of(app)
        tg_ready = asyncio.Event()
        ready.append(tg_ready)
        tasks.append(
            asyncio.create_task(
                run_telegram(
                    settings, manager, stop, ready=tg_ready, application=app, served=served
                )
            )
        )
    if has_dc:
        from bot.platforms.discord.client import build_client

        client = build_client(settings, manager, store=repo)
        manager.durable.register(client.adapter.outbox)
        sinks.append(client.adapter.sink)
        engines.append(client.adapter.engine)
        token = settings.discord_token.get_secret_value()  # type: ignore[union-attr]

        async def run_dc() -> None:
            async with client:
                await client.start(token)

        tasks.append(asyncio.create_task(run_dc()))
    sink = _fan_out(sinks)
    manager.set_sink(sink)
    # Re-arm deadlines only once Telegram polls, so views of deadlines that
    # passed while the bot was down reach the chats.
    for ev in ready:
        waiter = asyncio.create_task(ev.wait())
        done, _ = await asyncio.wait({waiter, *tasks}, return_when=asyncio.FIRST_COMPLETED)
        if waiter not in done:
            waiter.cancel()
            break
    # Any process fires any room's due timer (a lease in the database), so a
    # deadline still fires when the process that dealt the round is gone.
    timers = TimerPoller(
        repo,
        manager.fire_due,
        manager.clock.now,
        process_owner(),
        interval=settings.delivery_poll_seconds,
    )
    web_server, web_failed = None, False
    # A platform that stopped already (a refused token, no network) is told
    # below; nothing is served then.
    if not any(t.done() for t in tasks):
        await manager.start()
        timers.start()
        try:
            web_server = await _start_web(settings, repo, manager, metrics, engines, webhook, sink)
        except OSError as error:  # a port in use, an address not of this machine
            log.error("web: the web server could not listen: %s", error)
            web_failed = True
            stop.set()
        else:
            served.set()  # Telegram's webhook may be registered now
        # The rooms loaded so far live for the whole process: keep the cyclic
        # garbage collector from walking them on every full collection.
        gc.freeze()
        log.info(
            "thirteen: serving %s",
            " + ".join(p for p, on in (("telegram", has_tg), ("discord", has_dc)) if on),
        )
    stopper = asyncio.create_task(stop.wait())
    done, _ = await asyncio.wait({stopper, *tasks}, return_when=asyncio.FIRST_COMPLETED)
    stop.set()
    await timers.stop()
    # Let each platform stop by itself (Telegram: the webhook takes no more
    # updates or the updater stops, then the application: cancelling it half
    # way is what left "This Application is still running!"); cancel only
    # what hangs. The web server stops after them.
    pending = [t for t in tasks if not t.done()]
    if pending:
        _, hanging = await asyncio.wait(pending, timeout=STOP_SECONDS)
        for t in hanging:
            t.cancel()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    if web_server is not None:
        await web_server.cleanup()
    warming.cancel()  # only the wait: the build is a daemon thread
    await asyncio.gather(warming, return_exceptions=True)
    await manager.stop()
    await repo.close()
    failed = [
        r
        for r in results
        if isinstance(r, BaseException) and not isinstance(r, asyncio.CancelledError)
    ]
    statuses = [FAILED] if web_failed else []
    for r in failed:
        stopped = explain_stop(r, settings)
        # The cause's traceback only at DEBUG: the line says what to do.
        log.error(stopped.line, exc_info=r if log.isEnabledFor(logging.DEBUG) else None)
        statuses.append(stopped.status)
    if SETTING_WRONG in statuses:
        return SETTING_WRONG
    return FAILED if statuses else 0


def main(argv: Sequence[str] | None = None) -> int:
    command_parser(
        "thirteen run",
        "Start the chat bots whose tokens are set: Telegram (TELEGRAM_TOKEN), Discord\n"
        "(DISCORD_TOKEN), or both in one process, until Ctrl-C or SIGTERM. Settings\n"
        "are read from the environment or a .env file (.env.example lists them all);\n"
        "the database is migrated at start. To play without a token: thirteen play.",
        "setup: docs/telegram.md, docs/discord.md; several processes: docs/deploy.md",
    ).parse_args(list(argv or []))
    settings = settings_or_exit()  # a bad setting stops here, before anything is created
    configure_solver(settings)
    logging.basicConfig(
        level=settings.log_level.upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    # Every secret masked on every handler, tracebacks included (bot/logsafe.py).
    logsafe.install(settings)
    if settings.log_level != "DEBUG":  # a line per Bot API request: only when asked for
        logging.getLogger("httpx").setLevel(logging.WARNING)
    return asyncio.run(serve(settings))
