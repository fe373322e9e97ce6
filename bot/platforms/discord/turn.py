"""One interaction being answered, and who acts in it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from bot.i18n import normalize_language
from bot.table.actions import Actor, Verb

from .render import Rendered
from .traits import PLATFORM


def actor_of(interaction: discord.Interaction[Any]) -> Actor:
    user = interaction.user
    return Actor(
        platform=PLATFORM,
        user_id=str(user.id),
        name=user.display_name,
        language=str(interaction.locale),
    )


def language_of(interaction: discord.Interaction[Any]) -> str:
    return normalize_language(str(interaction.locale))


@dataclass(slots=True)
class Turn:
    """One interaction being answered: what was pressed and how it was acknowledged."""

    interaction: discord.Interaction[Any]
    verb: Verb
    pressed: discord.Message | None = None  # the message of a pressed button
    pressed_key: str | None = None
    deferred: bool = False  # a deferred response: further output goes through followups/edits
    followed_up: bool = False

    @property
    def user_id(self) -> str:
        return str(self.interaction.user.id)

    @property
    def responded(self) -> bool:
        return self.interaction.response.is_done()

    async def edit_pressed(self, rendered: Rendered) -> None:
        """Show ``rendered`` on the pressed message (the press's own response)."""
        if self.responded:
            await self.interaction.edit_original_response(**rendered.kwargs())
        else:
            await self.interaction.response.edit_message(**rendered.kwargs())

    async def say(self, text: str) -> None:
        """A short note for the actor alone."""
        if self.responded:
            await self.interaction.followup.send(text, ephemeral=True)
            self.followed_up = True
        else:
            await self.interaction.response.send_message(text, ephemeral=True)
