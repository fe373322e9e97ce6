"""A channel where the bot's role lacks Attach Files (the real client under
SimCord): the showdown and the settlement still reach the channel, as text
(the same embeds without their pictures), nothing is recorded as failed,
and the channel is told once, naming the permission.

SimCord keeps channel overwrites and Discord's permission arithmetic but
does not refuse an attachment without Attach Files; ``attach_files_enforced``
makes its create and edit routes do what Discord does (403, code 50013
Missing Permissions, the error discord.py raises as ``discord.Forbidden``).
"""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
from simcord.backend.models import Overwrite
from simcord.enums import OverwriteType
from simcord.http import router

from bot.i18n import t
from bot.platforms.discord.attach import MISSING_PERMISSIONS, AttachGuard
from bot.table.actions import Verb

from .game import Game, game_on_sqlite, restart, seat_everyone
from .harness import button_id, embed_text
from .nonces import Nonces

ROUTES = {
    ("POST", ("channels", "{channel_id}", "messages")),
    ("PATCH", ("channels", "{channel_id}", "messages", "{message_id}")),
}
NOTICE = t("en", "dc.notice.no_attach")
SHOWDOWN = t("en", "table.showdown", round=1).split("1")[-1].strip()  # "showdown"


def _enforcing(original: Any, refused: list[str]) -> Any:
    def handler(ctx: router.RequestContext) -> Any:
        if ctx.files:  # a message with an attachment needs Attach Files
            try:
                ctx.require_channel_permissions(ctx.int_arg("channel_id"), "attach_files")
            except Exception:
                refused.append(f"{ctx.method} {ctx.path}")
                raise
        return original(ctx)

    return handler


@pytest.fixture
def refused(monkeypatch: pytest.MonkeyPatch, nonces: Nonces) -> list[str]:
    """Attach Files enforced (after the nonces' wrap of the create route);
    the requests refused for it."""
    refused: list[str] = []
    for method in ("POST", "PATCH"):
        routes = list(router._ROUTES[method])
        for n, (template, handler) in enumerate(routes):
            if (method, tuple(template)) in ROUTES:
                routes[n] = (template, _enforcing(handler, refused))
        monkeypatch.setitem(router._ROUTES, method, routes)
    return refused


@pytest.fixture
async def game(tmp_path: Path, refused: list[str]) -> AsyncIterator[Game]:
    async with game_on_sqlite(tmp_path) as game:
        yield game


async def deny_attach_files(game: Game) -> None:
    """A channel overwrite taking Attach Files from the bot (its role keeps
    everything else), announced to the gateway as Discord does."""
    bot = game.env.bot.user
    assert bot is not None
    deny = discord.Permissions(attach_files=True).value
    channel = game.table.channel.id
    game.env.backend.set_overwrite(channel, Overwrite(bot.id, OverwriteType.MEMBER, 0, deny))
    await game.env.settle()


async def play_round(game: Game, first: bool = True) -> None:
    if first:
        await seat_everyone(game, 2)
    # the table's Start deals the first round, the settlement's the next
    pressed = game.table.table_message() if first else game.table.settlement_messages()[-1]
    await game.members[0].click(pressed, custom_id=button_id(pressed, Verb.START))
    for member in game.members[:2]:
        await game.arrange_by_suggestion(member, await game.open_hand(member))
    await game.finish_showdown()


def notices(game: Game) -> list[discord.Message]:
    return [m for m in game.table.bot_messages() if NOTICE in embed_text(m)]


async def check_text_only_round(game: Game, rounds: int) -> None:
    settlements = game.table.settlement_messages()
    assert len(settlements) == rounds
    showdowns = [m for m in game.table.bot_messages() if SHOWDOWN in embed_text(m)]
    assert showdowns, [embed_text(m)[:60] for m in game.table.bot_messages()]
    for message in game.table.bot_messages():
        assert not message.attachments
        assert not (message.embeds and message.embeds[0].image.url)
    stats = await game.repo.outbox_stats()
    assert stats.depth == 0 and stats.failed == 0
    assert len(notices(game)) == 1


async def test_the_control_a_picture_is_refused_without_attach_files(
    game: Game, refused: list[str]
) -> None:
    await deny_attach_files(game)
    channel = game.env.bot.get_partial_messageable(game.table.channel.id)
    with pytest.raises(discord.Forbidden) as caught, game.env.time_context():
        await channel.send("x", file=discord.File(io.BytesIO(b"\x89PNG"), filename="x.png"))
    assert caught.value.status == 403 and caught.value.code == MISSING_PERMISSIONS
    assert refused


async def test_without_attach_files_the_rounds_go_as_text_and_the_channel_is_told_once(
    game: Game, refused: list[str]
) -> None:
    await deny_attach_files(game)
    await play_round(game)
    await check_text_only_round(game, 1)
    await play_round(game, first=False)
    await check_text_only_round(game, 2)
    assert refused == []  # the gateway's cache told: nothing was tried in vain


async def test_a_refused_picture_is_sent_again_as_text(
    game: Game, refused: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process whose gateway cache does not have the channel yet (a shard
    just connected) finds out from Discord's 403, once per channel."""
    monkeypatch.setattr(AttachGuard, "cached", lambda self, chat_id: None)
    await deny_attach_files(game)
    await play_round(game)
    await check_text_only_round(game, 1)
    first = len(refused)
    assert first == 1
    await play_round(game, first=False)
    await check_text_only_round(game, 2)
    assert len(refused) == first  # remembered: no second try in vain


async def test_the_notice_is_not_said_again_after_a_restart(game: Game) -> None:

    await deny_attach_files(game)
    await play_round(game)
    await restart(game)
    await deny_attach_files(game)
    await play_round(game, first=False)
    await check_text_only_round(game, 2)


async def test_with_attach_files_pictures_go_and_nothing_is_said(game: Game) -> None:
    await play_round(game)
    settle = game.table.settlement_messages()[-1]
    assert settle.attachments
    assert notices(game) == []


async def test_pictures_come_back_when_the_permission_is_given(game: Game) -> None:
    await deny_attach_files(game)
    await play_round(game)
    await check_text_only_round(game, 1)
    bot = game.env.bot.user
    assert bot is not None
    game.env.backend.delete_overwrite(game.table.channel.id, bot.id)
    await game.env.settle()
    await play_round(game, first=False)
    assert game.table.settlement_messages()[-1].attachments
    assert len(notices(game)) == 1
