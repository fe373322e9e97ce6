"""The command tree's error handler: every slash command gets an answer.

discord.py answers nothing by itself when a command fails before or inside
its callback: an option value that is not one of the command's choices (a
forged ``language:klingon``), a command used outside a server, or a bug;
nor a button press whose custom_id none of our templates takes, or that
its message does not carry. Each then gets one short ephemeral line, and
only a bug is logged.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord
from discord import app_commands

from bot.i18n import t

from .items import ACTION_TEMPLATE, ACTIVITY_TEMPLATE, HAND_DM_TEMPLATE
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


ROUTED = tuple(
    re.compile(template) for template in (ACTION_TEMPLATE, HAND_DM_TEMPLATE, ACTIVITY_TEMPLATE)
)


async def answer_unrouted_press(interaction: discord.Interaction[Any]) -> None:
    """A press whose custom_id none of our dynamic items takes (forged, or of
    a format we no longer make), or one its message does not carry (a
    modified client sends any data for a message it can see): discord.py
    would drop it unanswered."""
    if interaction.type is not discord.InteractionType.component:
        return
    data: Any = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    if any(pattern.fullmatch(custom_id) for pattern in ROUTED) and _carries(
        interaction.message, custom_id
    ):
        return  # a dynamic item answers it
    await _say(interaction, t(language_of(interaction), "dc.error.stale"))


def _carries(message: discord.Message | None, custom_id: str) -> bool:
    """Whether ``message`` has a component with ``custom_id``: discord.py
    routes a press to a dynamic item only then."""
    if message is None:
        return False
    for component in message.components:
        for item in (component, *getattr(component, "children", ())):
            if getattr(item, "custom_id", None) == custom_id:
                return True
    return False


async def _say(interaction: discord.Interaction[Any], text: str) -> None:
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.info("could not answer an interaction", exc_info=True)


async def on_command_error(
    interaction: discord.Interaction[Any], error: app_commands.AppCommandError
) -> None:
    key = reason_key(error)
    if key == "dc.error.internal":
        log.error("a command failed: %s", interaction.data, exc_info=error)
    else:
        log.info("command refused (%s): %s", type(error).__name__, error)
    await _say(interaction, t(language_of(interaction), key))
