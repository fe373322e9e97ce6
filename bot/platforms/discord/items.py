"""Dynamic buttons: every button of every message routes through these.

discord.py matches the custom_id of a pressed component against the
templates registered with ``Client.add_dynamic_items`` (done in
``setup_hook``), so the buttons of messages sent before a restart keep
working without re-attaching any View. The custom_id carries only where and
what (the action id); who pressed comes from the interaction.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Protocol, Self

import discord

# The action-id format of bot.table.actions: t1|<room>|<round>|<verb>[|<arg>].
# The template only routes; ``decode`` validates every part on press.
ACTION_TEMPLATE = r"t1\|(?P<room>[0-9A-Za-z]{1,16})\|(?P<round>[0-9]{1,9})\|(?P<verb>[^|]{1,8})(?:\|(?P<arg>[^|]{0,32}))?"
# Discord-only control: "send my hand by DM" (no table verb needed).
HAND_DM_TEMPLATE = r"dc1\|dm\|(?P<room>[0-9A-Za-z]{1,16})\|(?P<round>[0-9]{1,9})"
# "Arrange by dragging" where the page is a Discord Activity: launches it.
ACTIVITY_TEMPLATE = r"dc1\|act\|(?P<room>[0-9A-Za-z]{1,16})\|(?P<round>[0-9]{1,9})"


class PressHandler(Protocol):
    """What a press is routed to (the adapter); declared here so that the
    buttons need not import the adapter, which renders them."""

    async def on_press(self, interaction: discord.Interaction[Any], custom_id: str) -> None: ...

    async def on_hand_dm(
        self, interaction: discord.Interaction[Any], room_id: str, round_no: int
    ) -> None: ...

    async def on_activity(
        self, interaction: discord.Interaction[Any], room_id: str, round_no: int
    ) -> None: ...


class _HasAdapter(Protocol):
    @property
    def adapter(self) -> PressHandler: ...


def _adapter(interaction: discord.Interaction[Any]) -> PressHandler:
    client: _HasAdapter = interaction.client
    return client.adapter


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ACTION_TEMPLATE):
    """A table-manager button; its custom_id is the action id, untouched."""

    def __init__(self, button: discord.ui.Button[Any]) -> None:
        super().__init__(button)

    @classmethod
    def build(
        cls,
        action_id: str,
        *,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> ActionButton:
        button = discord.ui.Button[Any](
            label=label, style=style, custom_id=action_id, disabled=disabled, row=row
        )
        return cls(button)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ActionButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _adapter(interaction).on_press(interaction, self.custom_id)


class _RoundButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?!)"):
    """A Discord-only button that names a room's round,
    ``dc1|<KIND>|<room>|<round>``: its id grammar, building and parsing in
    one place. Never registered itself (its template matches nothing); each
    kind below gives its own template and what a press does."""

    KIND: ClassVar[str]
    STYLE: ClassVar[discord.ButtonStyle] = discord.ButtonStyle.secondary

    def __init__(self, button: discord.ui.Button[Any], room_id: str, round_no: int) -> None:
        super().__init__(button)
        self.room_id = room_id
        self.round_no = round_no

    @classmethod
    def build(cls, room_id: str, round_no: int, *, label: str, row: int | None = None) -> Self:
        custom_id = f"dc1|{cls.KIND}|{room_id}|{round_no}"
        button = discord.ui.Button[Any](label=label, style=cls.STYLE, custom_id=custom_id, row=row)
        return cls(button, room_id, round_no)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        assert isinstance(item, discord.ui.Button)
        return cls(item, match["room"], int(match["round"]))


class HandDmButton(_RoundButton, template=HAND_DM_TEMPLATE):
    """ "My hand by DM": the fallback when ephemerals do not suit a player."""

    KIND = "dm"

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _adapter(interaction).on_hand_dm(interaction, self.room_id, self.round_no)


class ActivityButton(_RoundButton, template=ACTIVITY_TEMPLATE):
    """The private hand's page button where the page is a Discord Activity
    (DISCORD_ACTIVITY): a press launches the Activity in the channel (the
    LAUNCH_ACTIVITY answer); the Activity finds the room by the channel."""

    KIND = "act"
    STYLE = discord.ButtonStyle.primary

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _adapter(interaction).on_activity(interaction, self.room_id, self.round_no)
