"""What a platform tells ``thirteen run`` about itself: one ``Entry`` per
platform (``bot/platforms/<name>/entry.py``), listed in
``bot.platforms.registry.ENTRIES``. The process serves each entry whose
``enabled`` says yes, building it with ``build`` into a ``Served``: what
the process wires (the outbox's platform, the sink of the manager's timer
views, the delivery engine, the web routes) and how it runs. No entry
imports its platform's library until it is built."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from bot.core.traits import Traits
from bot.delivery.platform import Platform
from bot.web.links import PageUser

if TYPE_CHECKING:
    from aiohttp import web

    from bot.config import Settings
    from bot.delivery.engine import DeliveryEngine
    from bot.table.contract import Sink, TableLike
    from storage.delivery import DeliveryStore

# A web address a platform listens on: the setting's prefix (for a
# message that names it) and the (listen, port) it asks for.
Place = tuple[str, tuple[str, int]]


class Delivering(Platform, PageUser, Protocol):
    """A platform's transport: what the outbox delivers through, and what
    puts the arranging page's button on its players' hands."""


@dataclass(slots=True)
class Served:
    """One platform built for this process. ``run(stop, served)`` serves
    until ``stop`` is set (``served``: the process's web server listens);
    ``ready``, when given, is set once it takes updates (the deadlines that
    passed while the bot was down are re-armed after it). ``add_routes``
    puts its routes on the process's web server, logged as ``routes_line``."""

    platform: Delivering
    sink: Sink
    engine: DeliveryEngine
    run: Callable[[asyncio.Event, asyncio.Event], Coroutine[object, None, None]]
    ready: asyncio.Event | None = None
    add_routes: Callable[[web.Application], None] | None = None
    routes_line: str = ""


def _no_places(settings: Settings) -> tuple[Place, ...]:
    return ()


@dataclass(frozen=True, slots=True)
class Entry:
    """A platform the process can serve: its ``traits``; ``token``, the
    setting that turns it on, and ``doc``, the page that says how;
    ``enabled``, whether the settings turn it on; ``build``, the platform
    for the manager, delivering through the store; ``places``, the web
    addresses it needs the process's server to listen on."""

    traits: Traits
    token: str
    doc: str
    enabled: Callable[[Settings], bool]
    build: Callable[[Settings, TableLike, DeliveryStore], Served]
    places: Callable[[Settings], tuple[Place, ...]] = _no_places

    @property
    def name(self) -> str:
        return self.traits.name
