"""Discord adapter (discord.py 2.x): ``/thirteen`` commands, the table message
with buttons, ephemeral hands, and DMs on request. See docs/discord.md."""

from .client import ThirteenClient, build_client, run_discord

__all__ = ["ThirteenClient", "build_client", "run_discord"]
