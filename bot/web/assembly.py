"""The arranging page put together for one table manager, as ``thirteen
run`` serves it (and as tests serve it next to a bot in the same process)."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

from bot.config import Settings
from bot.core.actions import Action
from bot.core.room import Room

from .activity import Activity, ActivityConfig, ChannelRooms
from .desk import Desk, DeskTable
from .server import WebApp, WebConfig

log = logging.getLogger(__name__)
Deliver = Callable[[Sequence[Any]], Awaitable[None]]


class Announcing:
    """The table as the page acts on it: the views each action makes are
    handed to the platforms (``deliver``, the sink a timer's views go to),
    as an adapter does with a tap's. A page's confirm then edits the
    player's open Discord ephemeral and wakes the chats' delivery at once,
    instead of waiting for the outbox's next look."""

    def __init__(self, table: DeskTable, deliver: Deliver) -> None:
        self.table: DeskTable = table
        self.deliver = deliver

    async def handle(self, action: Action) -> Any:
        outcome = await self.table.handle(action)
        if outcome.ok and outcome.views:
            try:
                await self.deliver(outcome.views)
            except Exception:  # stored already: the outbox still delivers it
                log.exception("could not hand the page's views to the platforms")
        return outcome

    async def room(self, room_id: str) -> Room | None:
        return await self.table.room(room_id)

    async def round_settlement(self, room_id: str, round_no: int) -> Any:
        return await self.table.round_settlement(room_id, round_no)


class PageTable(DeskTable, ChannelRooms, Protocol):
    """The table manager as the page and the Activity read it."""


def arranging_page(
    settings: Settings,
    table: PageTable,
    *,
    deliver: Deliver | None = None,
    clock: Callable[[], float] = time.time,
) -> WebApp:
    """The page and its API over ``table`` (the manager), WEBAPP_URL being
    set (each platform is built with the page's links,
    ``links.page_links``): ``deliver`` (the manager's sink) gets the views
    of the page's actions. Launch data is checked with the Telegram token;
    passes are signed with ``settings.webapp_key()``."""
    if settings.webapp_url is None:
        raise ValueError("the arranging page needs WEBAPP_URL")
    key = settings.webapp_key()
    token = settings.telegram_token.get_secret_value() if settings.telegram_token else None
    acting = table if deliver is None else Announcing(table, deliver)
    config = WebConfig(
        token,
        key,
        clock=clock,
        page_url=settings.webapp_url,
        activity=activity(settings, table, clock),
    )
    return WebApp(Desk(acting, clock=clock), config)


def activity(
    settings: Settings, rooms: ChannelRooms, clock: Callable[[], float]
) -> Activity | None:
    """The Discord Activity's check, where DISCORD_ACTIVITY is on (the
    settings made sure its id, secret and the bot's token are set)."""
    if not settings.discord_activity:
        return None
    if (
        settings.discord_client_id is None
        or settings.discord_client_secret is None
        or settings.discord_token is None
    ):
        raise ValueError("the Discord Activity needs DISCORD_CLIENT_ID, _SECRET and DISCORD_TOKEN")
    config = ActivityConfig(
        settings.discord_client_id,
        settings.discord_client_secret.get_secret_value(),
        settings.discord_token.get_secret_value(),
        settings.discord_api_url,
    )
    return Activity(config, rooms, clock)
