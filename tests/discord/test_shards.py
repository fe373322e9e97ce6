"""Two shard processes (DISCORD_SHARD_COUNT=2, DISCORD_SHARD_IDS 0 and 1)
on one database, each with the guilds of its shard, play whole games at the
same time: one table per room, one settlement post per round, no post sent
twice, and neither process touches the other's channels.

Each "process" is a thread with its own event loop, SimCord world and
SqlRepository on one database, a SQLite file or a PostgreSQL schema
(SimCord runs one world per event loop)."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
import simcord

from bot.config import load_settings
from bot.delivery import view_entries
from bot.platforms.discord import build_client
from bot.platforms.discord.client import ShardedThirteenClient
from bot.table.actions import Verb
from bot.table.clock import FakeClock
from bot.views.model import Audience, View, ViewKind
from storage.sql import SqlRepository

from .game import START, Game, make_manager
from .harness import POLL_SECONDS, Table, button_id, settings, simulated_clock, verbs
from .test_game import seat_everyone

ROUNDS = 2
FOREIGN = "4242424242424242"  # a channel id no simulated guild has


async def _play(game: Game) -> None:
    await seat_everyone(game, 2)
    owner = game.members[0]
    for round_no in range(1, ROUNDS + 1):
        if round_no == 1:
            lobby = game.table.table_message()
            await owner.click(lobby, custom_id=button_id(lobby, Verb.START))
        else:
            settle = game.table.settlement_messages()[-1]
            await owner.click(settle, custom_id=button_id(settle, Verb.START))
        for member in game.members[:2]:
            hand = await game.open_hand(member)
            await game.arrange_by_suggestion(member, hand)
        await game.finish_showdown()
        # let the pollers look around (the other shard's rows may be due now)
        await game.env.advance_time(POLL_SECONDS * 2)


async def _shard(shard_id: int, url: str) -> dict[str, Any]:
    repo = SqlRepository(url)
    await repo.init()
    clock = FakeClock(start=START)
    manager = make_manager(repo, clock, seed=shard_id + 11)
    await manager.start()
    client = build_client(settings(discord_shard_count=2, discord_shard_ids=(shard_id,)), manager)
    assert isinstance(client, ShardedThirteenClient)
    env = simcord.Env(client)
    simulated_clock(env, client)
    await env.start()
    try:
        # distinct snowflakes in the two simulated worlds (their clocks start alike)
        await env.advance_time(3600 * (shard_id + 1))
        guild = env.create_guild(f"club{shard_id}", shard_id=shard_id)
        channel = guild.create_text_channel("thirteen")
        members = [guild.add_member(env.create_user(f"p{shard_id}{n}")) for n in range(3)]
        game = Game(Table(env, guild, channel, members, client), manager, clock, repo)
        await _play(game)
        # a row for a channel of no guild of this shard: this process leaves it alone
        # (the shard that has the channel delivers it; here no one has it)
        notice = View(
            ViewKind.NOTICE,
            Audience.GROUP,
            "notice:x:y",
            "x",
            ("x",),
            platform="discord",
            chat_id=FOREIGN,
            language="en",
        )
        await repo.enqueue(view_entries([notice]), client.adapter.outbox.engine.now())
        await env.advance_time(POLL_SECONDS * 2)
        me = env.bot.user
        assert me is not None
        mine = [m for m in channel.history() if m.author.id == me.id and not m.flags.ephemeral]
        live_tables = [m for m in mine if {Verb.JOIN, Verb.SHOW_HAND} & set(verbs(m))]
        path = f"/channels/{channel.id}/messages"
        posted = [r for r in env.http_requests if r.method == "POST" and r.path == path]
        others = [
            r
            for r in env.http_requests
            if r.path.startswith("/channels/") and not r.path.startswith(f"/channels/{channel.id}")
        ]
        state = await manager.room_state(game.room_id())
        assert state is not None
        return {
            "channel": channel.id,
            "guild_shard": (guild.id >> 22) % 2,
            "messages": len(mine),
            "posts": len(posted),
            "live_tables": len(live_tables),
            "settlements": len(game.table.settlement_messages()),
            "round_no": state["round_no"],
            "other_channels": others,
            "nonces": len({r.json.get("nonce") for r in posted}),
            "accepts_own": client.adapter.outbox.accepts(str(channel.id)),
            "accepts_foreign": client.adapter.outbox.accepts(FOREIGN),
        }
    finally:
        await manager.stop()
        await env.shutdown()
        await repo.close()
        env.raise_errors()


def _thread(shard_id: int, url: str, out: dict[int, Any]) -> None:
    try:
        out[shard_id] = asyncio.run(_shard(shard_id, url))
    except BaseException as exc:  # reported by the test
        out[shard_id] = exc


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
async def test_two_shard_processes_on_one_database(tmp_path, pg_schema_url, database) -> None:
    # PostgreSQL: what several processes are deployed on (leases on each channel)
    url = pg_schema_url() if database == "postgresql" else f"sqlite:///{tmp_path / 'thirteen.db'}"
    setup = SqlRepository(url)
    await setup.init()  # the schema, once, before the two processes
    await setup.close()
    out: dict[int, Any] = {}
    threads = [threading.Thread(target=_thread, args=(i, url, out)) for i in (0, 1)]
    for thread in threads:
        thread.start()
    await asyncio.to_thread(lambda: [thread.join() for thread in threads])
    for shard_id in (0, 1):
        result = out[shard_id]
        if isinstance(result, BaseException):
            raise result
        assert result["guild_shard"] == shard_id
        assert result["round_no"] == ROUNDS
        assert result["settlements"] == ROUNDS  # one settlement post per round
        assert result["live_tables"] == 1  # one table with buttons per room
        # every POST made one message (none sent twice), each with its own nonce
        assert result["posts"] == result["messages"] == result["nonces"]
        assert result["other_channels"] == []  # the other shard's channel: never touched
        assert result["accepts_own"] and not result["accepts_foreign"]
    assert out[0]["channel"] != out[1]["channel"]
    repo = SqlRepository(url)
    await repo.init()
    try:
        stats = await repo.outbox_stats("discord")
        # everything delivered but the two rows for a channel of no shard here:
        # pending still, not tried (nothing failed)
        assert stats.depth == 2 and stats.failed == 0
    finally:
        await repo.close()


def test_shard_settings_make_a_sharded_client() -> None:
    s = load_settings(_env_file=None, discord_shard_count="4", discord_shard_ids="1,3")
    client = build_client(s, _NoManager())
    assert isinstance(client, ShardedThirteenClient)
    assert client.shard_count == 4 and client.shard_ids == [1, 3]
    with pytest.raises(ValueError, match="DISCORD_SHARD_IDS"):
        load_settings(_env_file=None, discord_shard_count="2", discord_shard_ids="0,2")


class _NoManager:
    def set_sink(self, sink: Any) -> None:
        self.sink = sink
