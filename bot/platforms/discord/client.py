"""The discord.py client: command tree, dynamic buttons, and the runner.

Only non-privileged intents are used: slash commands and button presses
arrive as interactions, which need no intent at all; ``guilds`` keeps the
channel cache that discord.py expects.
"""

from __future__ import annotations

import logging
from typing import Any, TypedDict, Unpack

import discord
from discord import app_commands

from bot.config import Settings
from bot.table.contract import TableLike
from storage.delivery import DeliveryStore

from .adapter import DiscordAdapter
from .commands import ThirteenGroup
from .errors import answer_unrouted_press, on_command_error
from .items import ActionButton, ActivityButton, HandDmButton
from .translator import CatalogTranslator

log = logging.getLogger(__name__)
# Discord's PRIMARY_ENTRY_POINT command type (the Activity's launcher) and
# the fields of it that a bulk overwrite sends back (matched by name and
# type, as every command of an overwrite is).
ENTRY_POINT = 4
ENTRY_POINT_FIELDS = (
    "type",
    "name",
    "name_localizations",
    "description",
    "description_localizations",
    "handler",
    "integration_types",
    "contexts",
    "nsfw",
    "default_member_permissions",
)


class Wiring(TypedDict, total=False):
    """How a client is wired into the process (see ``build_client``)."""

    install_sink: bool
    store: DeliveryStore | None


def intents() -> discord.Intents:
    """No privileged intent (members, presences, message content) is needed."""
    return discord.Intents(guilds=True)


class _Thirteen:
    """What the plain and the sharded client share: the command tree, the
    dynamic buttons, the adapter (reached from interactions as
    ``interaction.client.adapter``) and its delivery."""

    adapter: DiscordAdapter
    tree: app_commands.CommandTree[Any]
    settings: Settings

    def _setup(
        self,
        client: discord.Client,
        settings: Settings,
        manager: TableLike,
        *,
        install_sink: bool = True,
        store: DeliveryStore | None = None,
    ) -> None:
        self.settings = settings
        self.adapter = DiscordAdapter(
            manager,
            store=store,
            poll_seconds=settings.delivery_poll_seconds,
            retention=settings.delivery_retention,
        )
        self.adapter.client = client
        self.tree = app_commands.CommandTree(client)
        self.tree.add_command(ThirteenGroup())
        self.tree.error(on_command_error)  # every command gets an answer, also when it fails
        if install_sink:
            manager.set_sink(self.adapter.sink)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        await answer_unrouted_press(interaction)

    async def _setup_hook(self, client: discord.Client) -> None:
        # Buttons of every message ever sent (any round, before any restart)
        # route through these two templates; no per-message View is kept.
        client.add_dynamic_items(ActionButton, HandDmButton, ActivityButton)
        await self.tree.set_translator(CatalogTranslator())
        guild_id = self.settings.discord_guild_id
        if guild_id:
            # Development: guild commands appear at once (global ones can take an hour).
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self._sync_global(client)
        if isinstance(client, discord.AutoShardedClient):
            self.adapter.platform.shard(client.shard_count or 1, client.shard_ids)
        self.adapter.open()

    async def _sync_global(self, client: discord.Client) -> None:
        """The global commands, bulk overwritten. An application with
        Activities on (DISCORD_ACTIVITY) has an Entry Point command that
        Discord made, not the bot: an overwrite without it is refused
        (error 50240), so it is sent back as Discord has it."""
        if not self.settings.discord_activity or client.application_id is None:
            await self.tree.sync()
            return
        existing = await client.http.get_global_commands(client.application_id)
        kept = [
            {k: v for k, v in command.items() if k in ENTRY_POINT_FIELDS}
            for command in existing
            if command.get("type") == ENTRY_POINT
        ]
        if not kept:
            await self.tree.sync()
            return
        translator = self.tree.translator
        payload: list[Any] = [
            await command.get_translated_payload(self.tree, translator)
            if translator
            else command.to_dict(self.tree)
            for command in self.tree.get_commands()
        ]
        await client.http.bulk_upsert_global_commands(client.application_id, payload=payload + kept)


class ThirteenClient(_Thirteen, discord.Client):
    """One process serving every guild."""

    def __init__(self, settings: Settings, manager: TableLike, **wiring: Unpack[Wiring]) -> None:
        discord.Client.__init__(self, intents=intents())
        self._setup(self, settings, manager, **wiring)

    async def setup_hook(self) -> None:
        await self._setup_hook(self)

    async def close(self) -> None:
        await self.adapter.close()  # what is due goes out before the connection closes
        await discord.Client.close(self)


class ShardedThirteenClient(_Thirteen, discord.AutoShardedClient):
    """A process serving the guilds of some shards (DISCORD_SHARD_COUNT /
    DISCORD_SHARD_IDS); other processes serve the others, on one database."""

    def __init__(self, settings: Settings, manager: TableLike, **wiring: Unpack[Wiring]) -> None:
        shards: dict[str, Any] = {"shard_count": settings.discord_shard_count}
        if settings.discord_shard_ids:
            shards["shard_ids"] = list(settings.discord_shard_ids)
        discord.AutoShardedClient.__init__(self, intents=intents(), **shards)
        self._setup(self, settings, manager, **wiring)

    async def setup_hook(self) -> None:
        await self._setup_hook(self)

    async def close(self) -> None:
        await self.adapter.close()
        await discord.AutoShardedClient.close(self)


def build_client(
    settings: Settings,
    manager: TableLike,
    *,
    install_sink: bool = True,
    store: DeliveryStore | None = None,
) -> ThirteenClient | ShardedThirteenClient:
    """The bot for ``manager`` (a started or about-to-start TableManager),
    delivering through ``store`` (the manager's repository; None: in memory,
    nothing survives): sharded when DISCORD_SHARD_COUNT is set.

    With ``install_sink`` the client's adapter becomes the manager's sink;
    a process that also runs Telegram passes False and routes views with
    ``View.platform == "discord"`` to ``client.adapter.sink`` itself.
    Whoever assembles the process registers ``client.adapter.platform``
    with the manager (``durable.register``) so its views are written with
    the state changes.
    """
    if settings.discord_shard_count:
        return ShardedThirteenClient(settings, manager, install_sink=install_sink, store=store)
    return ThirteenClient(settings, manager, install_sink=install_sink, store=store)


async def run_discord(
    settings: Settings,
    manager: TableLike,
    *,
    install_sink: bool = True,
    store: DeliveryStore | None = None,
) -> None:
    """Connect and serve until cancelled. The caller owns the manager
    (``repo.init()``, ``await manager.start()`` before, ``manager.stop()`` after)."""
    if settings.discord_token is None:
        raise RuntimeError("DISCORD_TOKEN is not set")
    client = build_client(settings, manager, install_sink=install_sink, store=store)
    async with client:
        await client.start(settings.discord_token.get_secret_value())
