"""SimCord harness: the real discord.py client of bot.platforms.discord in an
offline simulated Discord, with helpers to find the room's messages."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import discord
import simcord
from simcord import actors as sim_actors
from simcord.backend import serializers
from simcord.enums import InteractionType

from bot.config import Settings
from bot.delivery import Limits
from bot.platforms.discord.client import ThirteenClient, build_client
from bot.table.actions import ActionIdError, Verb, decode
from bot.table.manager import TableManager

# Longer than SimCord's settle timeout (5 s): the delivery poller's sleep
# then parks; it runs when a test advances the simulated time.
POLL_SECONDS = 30


def settings(**more: Any) -> Settings:
    return Settings(  # type: ignore[call-arg]
        _env_file=None,
        discord_token=None,
        discord_guild_id=None,
        delivery_poll_seconds=POLL_SECONDS,
        **more,
    )


def client_for(manager: Any, config: Settings | None = None) -> Any:
    """The bot for ``manager``, as `thirteen run` assembles it: a table
    manager's repository is the store delivered from, and Discord is
    registered with it."""
    real = isinstance(manager, TableManager)
    client = build_client(config or settings(), manager, store=manager.repo if real else None)
    if real:
        manager.durable.register(client.adapter.platform)
    return client


def simulated_clock(env: simcord.Env, client: Any) -> None:
    """Delivery's clock: the wall clock plus the simulated time advanced, so
    a retry waited out in simulated time is due when the lane wakes. The
    engine's own token buckets are off (they run on the monotonic clock,
    which SimCord does not move); their pacing is tested in tests/delivery."""

    def now() -> datetime:
        return datetime.now(UTC) + timedelta(seconds=env.backend.clock.elapsed)

    client.adapter.outbox.engine.now = now
    client.adapter.outbox.engine.set_limits(Limits.off())


def action_ids(message: Any) -> list[str]:
    """Every custom_id on a message (discord.Message or simcord ResponseMessage)."""
    out: list[str] = []
    if isinstance(message, discord.Message):
        for row in message.components:
            for child in getattr(row, "children", ()):
                if getattr(child, "custom_id", None):
                    out.append(child.custom_id)
        return out
    for row in message.components:
        for child in row.get("components", ()):
            if child.get("custom_id"):
                out.append(child["custom_id"])
    return out


def verbs(message: Any) -> list[Verb]:
    out = []
    for cid in action_ids(message):
        try:
            out.append(decode(cid)[2])
        except ActionIdError:
            continue
    return out


def button_id(message: Any, verb: Verb, arg: str | None = None) -> str:
    for cid in action_ids(message):
        try:
            _, _, v, a = decode(cid)
        except ActionIdError:
            continue
        if v is verb and (arg is None or a == arg):
            return cid
    raise AssertionError(f"no {verb} button (arg {arg}) on message: {action_ids(message)}")


def embed_text(message: Any) -> str:
    embeds = message.embeds
    if not embeds:
        return message.content or ""
    e = embeds[0]
    return f"{e.title or ''}\n{e.description or ''}"


@dataclass
class Table:
    env: simcord.Env
    guild: simcord.GuildHandle
    channel: simcord.ChannelHandle
    members: list[simcord.MemberActor]
    client: ThirteenClient
    extra: dict[str, Any] = field(default_factory=dict)

    def bot_messages(self) -> list[discord.Message]:
        me = self.env.bot.user
        assert me is not None
        return [m for m in self.channel.history() if m.author.id == me.id and not m.flags.ephemeral]

    def table_message(self) -> discord.Message:
        """The room's table message: the bot message carrying table buttons."""
        found = [
            m
            for m in self.bot_messages()
            if {Verb.JOIN, Verb.SHOW_HAND, Verb.LEAVE} & set(verbs(m))
        ]
        assert found, "no table message in the channel"
        self.extra["table_id"] = found[-1].id
        return found[-1]

    def table_message_any(self) -> discord.Message:
        """The table message even when it has no buttons left (closed room)."""
        known = self.extra.get("table_id")
        for m in self.bot_messages():
            if m.id == known:
                return m
        raise AssertionError("table message not found")

    def settlement_messages(self) -> list[discord.Message]:
        return [
            m
            for m in self.bot_messages()
            if m.embeds and m.embeds[0].colour == discord.Colour.gold()
        ]

    async def from_timers(self, work: Any) -> None:
        """Run manager work that happens without an interaction (a FakeClock
        advance, a deadline) under SimCord's virtual clock, let the outbox
        deliver what it produced, then let the simulated Discord settle."""
        with self.env.time_context():
            await work
            # Lanes woken here run outside SimCord's bot work: wait for them.
            await self.client.adapter.outbox.drain()
        await self.env.settle()

    async def restart(self, manager: Any) -> ThirteenClient:
        client = client_for(manager)
        assert isinstance(client, ThirteenClient)
        simulated_clock(self.env, client)
        await self.env.restart_bot(client)
        self.client = client
        return client


async def open_env(manager: Any, names: list[str]) -> tuple[simcord.Env, Table]:
    client = client_for(manager)
    assert isinstance(client, ThirteenClient)
    env = simcord.Env(client)
    simulated_clock(env, client)
    await env.start()
    guild = env.create_guild("club")
    channel = guild.create_text_channel("thirteen")
    members = [guild.add_member(env.create_user(n)) for n in names]
    return env, Table(env, guild, channel, members, client)


def private_reply(result: Any) -> str:
    """The text the actor alone saw: an ephemeral response or followup."""
    candidates = ([result.response] if result.response is not None else []) + list(result.followups)
    for message in candidates:
        if message.ephemeral and message.content:
            return message.content
    raise AssertionError(f"no ephemeral reply in {result!r}")


async def forged_press(
    member: Any, channel: simcord.ChannelHandle, message: Any, custom_id: str
) -> Any:
    """A button press with ``custom_id`` on ``message`` (a bot message the
    member can see), as a modified client would send it."""
    backend = member._env.backend
    stored = member._message(message)
    payload = dict(serializers.message_payload(backend, stored))
    button = {"type": 2, "style": 2, "label": "x", "custom_id": custom_id}
    payload["components"] = [{"type": 1, "components": [button]}]
    return await sim_actors._dispatch_actor_interaction(
        member,
        InteractionType.MESSAGE_COMPONENT,
        channel,
        {"custom_id": custom_id, "component_type": 2},
        extra={"message": payload},
        source_message_id=stored.id,
    )


def page_buttons(message: Any) -> list[dict[str, Any]]:
    return [
        button
        for row in message.components
        for button in row.get("components", ())
        if button.get("url") or str(button.get("custom_id", "")).startswith("dc1|act|")
    ]
