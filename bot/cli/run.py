"""``thirteen run``: start the chat bots whose tokens are set.

One table manager serves every platform turned on; its timer views
(reminders, auto-arrange, showdown steps) are fanned out to each platform's
adapter, which ignores views of other platforms. Here the process is
assembled from the platforms' entries (``bot.platforms.registry.ENTRIES``):
each platform served delivers from the database and is registered with the
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
from typing import TYPE_CHECKING, Any

from bot import logsafe
from bot.cli import command_parser, configure_solver, database_problem, settings_or_exit
from bot.cli.platform_errors import FAILED, SETTING_WRONG, explain_stop
from bot.config import Settings
from bot.delivery.engine import process_owner
from bot.delivery.metrics import Metrics
from bot.delivery.timers import TimerPoller
from bot.platforms.entry import Entry, Served
from bot.platforms.registry import ENTRIES
from bot.rules import make_rules
from bot.table.clock import RealClock
from bot.table.contract import Sink
from bot.table.manager import TableManager
from bot.views.model import View
from storage.api import StorageError
from storage.sql import SqlRepository

if TYPE_CHECKING:  # imported where they are used, once a setting says so
    from aiohttp import web

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


def _named_places(settings: Settings) -> list[tuple[str, tuple[str, int]]]:
    """The web server's addresses, each with its settings' prefix: the
    arranging page's (WEBAPP_URL set), each platform's it asks for (its
    ``Entry.places``: Telegram's webhook) and the metrics' (METRICS_PORT set)."""
    named: list[tuple[str, tuple[str, int]]] = []
    if settings.webapp_url is not None:
        named.append(("WEBAPP", (settings.webapp_listen, settings.webapp_port)))
    for entry in ENTRIES:
        named.extend(entry.places(settings))
    if settings.metrics_port is not None:
        named.append(("METRICS", (settings.metrics_listen, settings.metrics_port)))
    return named


def _web_places(settings: Settings) -> list[tuple[str, int]]:
    """Where the process's one web server listens, each address once."""
    return list(dict.fromkeys(place for _, place in _named_places(settings)))


def _web_problem(settings: Settings) -> str | None:
    """One line when two of the web server's addresses share a port but not
    the address: one port is one socket."""
    names = {place: name for name, place in _named_places(settings)}
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
    served: list[Served],
    sink: Sink,
) -> web.AppRunner | None:
    """The process's one web server (aiohttp; None when nothing is on): the
    arranging page and its API where WEBAPP_URL is set, each platform's
    routes (Telegram's webhook where TELEGRAM_WEBHOOK_URL is set),
    ``/healthz`` and ``/metrics`` where METRICS_PORT is. One application,
    served on each address asked for (every route answers on each of them)."""
    from aiohttp import web

    from bot.delivery.http import serve_http

    places = _web_places(settings)
    if not places:
        return None
    engines = [s.engine for s in served]
    metrics = Metrics(repo, engines) if settings.metrics_port is not None else None
    if metrics is not None:
        counted: Any = manager  # every action counted and timed, the page's too
        counted.handle = metrics.instrument(manager.handle)
    if settings.webapp_url is not None:
        from bot.web.assembly import arranging_page

        # The page's application is the server's: its guard (same-origin
        # POSTs, CSP) keeps to the page's own paths, /app/ and /api/. The
        # views of the page's actions go to the platforms as a timer's do.
        page_users = [s.platform for s in served]  # their players get the page's link
        page = arranging_page(settings, manager, page_users, deliver=sink)
        application = page.application
    else:
        application = web.Application()
    routes = [(s.add_routes, s.routes_line) for s in served if s.add_routes is not None]
    for add_routes, _ in routes:
        add_routes(application)
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
    for _, line in routes:
        log.info("%s", line)
    if metrics is not None:
        log.info(
            "web: /healthz and /metrics (listening on %s:%d)",
            settings.metrics_listen,
            settings.metrics_port,
        )
    return server


def _nothing_on(entries: Sequence[Entry]) -> str:
    """What to do when no platform is turned on, naming every platform's
    setting and page."""
    tokens = [e.token for e in entries]
    which = (
        f"Neither {tokens[0]} nor {tokens[1]} is set"
        if len(tokens) == 2
        else f"None of {', '.join(tokens)} is set"
    )
    return (
        f"{which}. To run the bots: cp .env.example .env, then put a token in .env "
        f"({', '.join(e.doc for e in entries)}). To play without any token: thirteen play."
    )


async def serve(settings: Settings, stop: asyncio.Event | None = None) -> int:
    """Serve until SIGINT/SIGTERM (or ``stop`` is set); the exit status."""
    entries = [e for e in ENTRIES if e.enabled(settings)]
    if not entries:
        print(_nothing_on(ENTRIES), file=sys.stderr)
        return 2
    problem = _web_problem(settings)
    if problem is not None:
        print(f"thirteen: {problem}", file=sys.stderr)
        return 2
    repo = await _open_repository(settings.database_url)
    if repo is None:
        return 1
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
    )
    warming = asyncio.create_task(_warm_solver(settings))
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # not on every platform
            loop.add_signal_handler(sig, stop.set)
    listening = asyncio.Event()  # the web server listens: a webhook may be registered
    served = [entry.build(settings, manager, repo) for entry in entries]
    for one in served:
        # Its views are written to the outbox with the state changes that make them.
        manager.durable.register(one.platform)
    tasks = [asyncio.create_task(one.run(stop, listening)) for one in served]
    sink = _fan_out([one.sink for one in served])
    manager.set_sink(sink)
    # Re-arm deadlines only once each platform takes updates (Telegram
    # polls), so views of deadlines that passed while the bot was down
    # reach the chats.
    for ev in (one.ready for one in served if one.ready is not None):
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
            web_server = await _start_web(settings, repo, manager, served, sink)
        except OSError as error:  # a port in use, an address not of this machine
            log.error("web: the web server could not listen: %s", error)
            web_failed = True
            stop.set()
        else:
            listening.set()  # Telegram's webhook may be registered now
        # The rooms loaded so far live for the whole process: keep the cyclic
        # garbage collector from walking them on every full collection.
        gc.freeze()
        log.info("thirteen: serving %s", " + ".join(e.name for e in entries))
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
