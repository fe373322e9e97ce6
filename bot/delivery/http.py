"""The process's web server: one aiohttp application on one or more
addresses (the arranging page's, Telegram's webhook's and the metrics'
ports may differ, or be the same), on the bot's own event loop. No access
log: the page's requests carry passes and Telegram's launch data."""

from __future__ import annotations

from collections.abc import Iterable

from aiohttp import web


async def serve_http(
    application: web.Application, places: Iterable[tuple[str, int]]
) -> web.AppRunner:
    """Start serving ``application`` on each (host, port); the runner to stop it."""
    runner = web.AppRunner(application, access_log=None, handle_signals=False)
    await runner.setup()
    try:
        for host, port in dict.fromkeys(places):
            await web.TCPSite(runner, host, port).start()
    except BaseException:  # e.g. a port in use: none of them stays open
        await runner.cleanup()
        raise
    return runner
