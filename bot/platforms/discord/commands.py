"""The ``/thirteen`` command group: one subcommand per table verb.

Each subcommand only names the verb and its argument; the adapter builds the
Action (actor = the invoking member, chat = the channel) and the table
manager decides everything else.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.i18n.languages import REGISTRY
from bot.table.actions import Verb

from .translator import cmd

Choice = app_commands.Choice


async def _run(interaction: discord.Interaction[Any], verb: Verb, arg: str | None = None) -> None:
    await interaction.client.adapter.on_command(interaction, verb, arg)


PRESETS = [
    Choice(name=cmd("dc.cmd.preset.classic"), value="classic"),
    Choice(name=cmd("dc.cmd.preset.extended"), value="extended"),
]
PERIODS = [
    Choice(name=cmd("dc.cmd.period.all"), value="all"),
    Choice(name=cmd("dc.cmd.period.week"), value="week"),
    Choice(name=cmd("dc.cmd.period.month"), value="month"),
    Choice(name=cmd("dc.cmd.period.skill"), value="skill"),
]
LANGUAGES = [
    Choice(name=cmd(f"dc.cmd.language.{language.code}"), value=language.code)
    for language in REGISTRY
]


@app_commands.guild_only()
class ThirteenGroup(
    app_commands.Group,
    name=cmd("dc.cmd.thirteen.name"),
    description=cmd("dc.cmd.thirteen.desc"),
):
    """/thirteen …: play Thirteen Water in this channel."""

    @app_commands.command(name=cmd("dc.cmd.new.name"), description=cmd("dc.cmd.new.desc"))
    @app_commands.describe(preset=cmd("dc.cmd.new.preset"))
    @app_commands.rename(preset=cmd("dc.cmd.new.preset.name"))
    @app_commands.choices(preset=PRESETS)
    async def new(
        self, interaction: discord.Interaction[Any], preset: Choice[str] | None = None
    ) -> None:
        await _run(interaction, Verb.NEW, preset.value if preset else None)

    @app_commands.command(name=cmd("dc.cmd.join.name"), description=cmd("dc.cmd.join.desc"))
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        await _run(interaction, Verb.JOIN)

    @app_commands.command(name=cmd("dc.cmd.leave.name"), description=cmd("dc.cmd.leave.desc"))
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        await _run(interaction, Verb.LEAVE)

    @app_commands.command(name=cmd("dc.cmd.start.name"), description=cmd("dc.cmd.start.desc"))
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        await _run(interaction, Verb.START)

    @app_commands.command(name=cmd("dc.cmd.rules.name"), description=cmd("dc.cmd.rules.desc"))
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await _run(interaction, Verb.RULES)

    @app_commands.command(name=cmd("dc.cmd.settings.name"), description=cmd("dc.cmd.settings.desc"))
    async def settings(self, interaction: discord.Interaction[Any]) -> None:
        await _run(interaction, Verb.SETTINGS)

    @app_commands.command(
        name=cmd("dc.cmd.leaderboard.name"), description=cmd("dc.cmd.leaderboard.desc")
    )
    @app_commands.describe(period=cmd("dc.cmd.leaderboard.period"))
    @app_commands.rename(period=cmd("dc.cmd.leaderboard.period.name"))
    @app_commands.choices(period=PERIODS)
    async def leaderboard(
        self, interaction: discord.Interaction[Any], period: Choice[str] | None = None
    ) -> None:
        await _run(interaction, Verb.LEADERBOARD, period.value if period else None)

    @app_commands.command(name=cmd("dc.cmd.stats.name"), description=cmd("dc.cmd.stats.desc"))
    async def stats(self, interaction: discord.Interaction[Any]) -> None:
        await _run(interaction, Verb.STATS)

    @app_commands.command(name=cmd("dc.cmd.language.name"), description=cmd("dc.cmd.language.desc"))
    @app_commands.describe(language=cmd("dc.cmd.language.option"))
    @app_commands.rename(language=cmd("dc.cmd.language.option.name"))
    @app_commands.choices(language=LANGUAGES)
    async def language(self, interaction: discord.Interaction[Any], language: Choice[str]) -> None:
        await _run(interaction, Verb.LANGUAGE, language.value)

    @app_commands.command(name=cmd("dc.cmd.cancel.name"), description=cmd("dc.cmd.cancel.desc"))
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        await _run(interaction, Verb.CANCEL)

    @app_commands.command(name=cmd("dc.cmd.verify.name"), description=cmd("dc.cmd.verify.desc"))
    @app_commands.describe(round=cmd("dc.cmd.verify.round"))
    @app_commands.rename(round=cmd("dc.cmd.verify.round.name"))
    async def verify(
        self,
        interaction: discord.Interaction[Any],
        round: app_commands.Range[int, 1, 999_999_999] | None = None,
    ) -> None:
        await _run(interaction, Verb.VERIFY, str(round) if round is not None else None)

    @app_commands.command(name=cmd("dc.cmd.rounds.name"), description=cmd("dc.cmd.rounds.desc"))
    @app_commands.describe(count=cmd("dc.cmd.rounds.count"))
    @app_commands.rename(count=cmd("dc.cmd.rounds.count.name"))
    async def rounds(
        self, interaction: discord.Interaction[Any], count: app_commands.Range[int, 0, 99]
    ) -> None:
        await _run(interaction, Verb.SET_OPTION, f"rounds={count or 'off'}")

    @app_commands.command(name=cmd("dc.cmd.replay.name"), description=cmd("dc.cmd.replay.desc"))
    @app_commands.describe(round=cmd("dc.cmd.replay.round"))
    @app_commands.rename(round=cmd("dc.cmd.replay.round.name"))
    async def replay(
        self,
        interaction: discord.Interaction[Any],
        round: app_commands.Range[int, 1, 999_999_999],
    ) -> None:
        await _run(interaction, Verb.REPLAY, str(round))

    @app_commands.command(name=cmd("dc.cmd.help.name"), description=cmd("dc.cmd.help.desc"))
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        await _run(interaction, Verb.HELP)
