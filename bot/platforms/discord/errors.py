"""The command tree's error handler: every slash command gets an answer.

discord.py answers nothing by itself when a command fails before or inside
its callback: an option value that is not one of the command's choices (a
forged ``language:klingon``), a command used outside a server, or a bug.
Each then gets one short ephemeral line, and only a bug is logged.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.views.i18n import t

from .turn import language_of

log = logging.getLogger(__name__)


def reason_key(error: app_commands.AppCommandError) -> str:
    """The catalog key of the line that answers ``error``."""
    if isinstance(error, app_commands.TransformerError | app_commands.CommandSignatureMismatch):
        return "dc.error.bad_option"
    if isinstance(error, app_commands.NoPrivateMessage):
        return "dc.error.guild_only"
    if isinstance(error, app_commands.CheckFailure):
        return "dc.error.refused"
    return "dc.error.internal"


async def on_command_error(
    interaction: discord.Interaction[Any], error: app_commands.AppCommandError
) -> None:
    key = reason_key(error)
    if key == "dc.error.internal":
        log.error("a command failed: %s", interaction.data, exc_info=error)
    else:
        log.info("command refused (%s): %s", type(error).__name__, error)
    text = t(language_of(interaction), key)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.info("could not answer a failed command", exc_info=True)
