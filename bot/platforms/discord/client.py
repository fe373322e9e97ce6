"""The discord.py client: command tree, dynamic buttons, and the runner.

Only non-privileged intents are used: slash commands and button presses
arrive as interactions, which need no intent at all; ``guilds`` keeps the
channel cache that discord.py expects.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.config import Settings

from .adapter import DiscordAdapter
from .commands import ThirteenGroup
from .errors import answer_unrouted_press, on_command_error
from .items import ActionButton, HandDmButton
from .translator import CatalogTranslator

log = logging.getLogger(__name__)


def intents() -> discord.Intents:
    """No privileged intent (members, presences, message content) is needed."""
    return discord.Intents(guilds=True)


class ThirteenClient(discord.Client):
    """A discord.Client carrying the adapter (reached from interactions as
    ``interaction.client.adapter``)."""

    def __init__(self, settings: Settings, manager: Any, *, install_sink: bool = True) -> None:
        super().__init__(intents=intents())
        self.settings = settings
        self.adapter = DiscordAdapter(manager)
        self.adapter.client = self
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(ThirteenGroup())
        self.tree.error(on_command_error)  # every command gets an answer, also when it fails
        if install_sink:
            manager.set_sink(self.adapter.sink)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        await answer_unrouted_press(interaction)

    async def setup_hook(self) -> None:
        # Buttons of every message ever sent (any round, before any restart)
        # route through these two templates; no per-message View is kept.
        self.add_dynamic_items(ActionButton, HandDmButton)
        await self.tree.set_translator(CatalogTranslator())
        guild_id = self.settings.discord_guild_id
        if guild_id:
            # Development: guild commands appear at once (global ones can take an hour).
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()


def build_client(settings: Settings, manager: Any, *, install_sink: bool = True) -> ThirteenClient:
    """The bot for ``manager`` (a started or about-to-start TableManager).

    With ``install_sink`` the client's adapter becomes the manager's sink;
    a process that also runs Telegram passes False and routes views with
    ``View.platform == "discord"`` to ``client.adapter.sink`` itself.
    """
    return ThirteenClient(settings, manager, install_sink=install_sink)


async def run_discord(settings: Settings, manager: Any, *, install_sink: bool = True) -> None:
    """Connect and serve until cancelled. The caller owns the manager
    (``repo.init()``, ``await manager.start()`` before, ``manager.stop()`` after)."""
    if settings.discord_token is None:
        raise RuntimeError("DISCORD_TOKEN is not set")
    client = build_client(settings, manager, install_sink=install_sink)
    async with client:
        await client.start(settings.discord_token.get_secret_value())
