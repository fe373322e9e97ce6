"""Discord as ``thirteen run`` serves it (``bot.platforms.entry``):
turned on by DISCORD_TOKEN. Light: the library is imported only in
``build``."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from bot.platforms.entry import Entry, Served

from .traits import TRAITS

if TYPE_CHECKING:
    from bot.config import Settings
    from bot.table.contract import TableLike
    from storage.delivery import DeliveryStore


def enabled(settings: Settings) -> bool:
    return settings.discord_token is not None


def build(settings: Settings, manager: TableLike, store: DeliveryStore) -> Served:
    """The client (sharded where DISCORD_SHARD_COUNT is set), connected
    when it runs."""
    from .client import build_client

    client = build_client(settings, manager, store=store, install_sink=False)
    assert settings.discord_token is not None  # enabled
    token = settings.discord_token.get_secret_value()

    async def run(stop: asyncio.Event, served: asyncio.Event) -> None:
        async with client:
            await client.start(token)

    adapter = client.adapter
    return Served(adapter.platform, adapter.sink, adapter.engine, run)


ENTRY = Entry(TRAITS, "DISCORD_TOKEN", "docs/discord.md", enabled, build)
