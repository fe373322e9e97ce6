"""Two shard processes (DISCORD_SHARD_COUNT=3, DISCORD_SHARD_IDS 0 and 1;
shard 2 unserved) on one database, each with the guilds of its shard, play
whole games at the same time: one table per room, one settlement post per
round, no post sent twice, and neither process touches the other's channels.
Each process's poller selects its own guilds' rows in SQL (the guild stored
with each row): from the first look after connecting, and however many other
shards' rows are due.

Each "process" is a thread with its own event loop, SimCord world and
SqlRepository on one database, a SQLite file or a PostgreSQL schema
(SimCord runs one world per event loop)."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import threading
import traceback
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import simcord

from bot.config import load_settings
from bot.delivery import view_entries
from bot.platforms.discord.client import ShardedThirteenClient, build_client
from bot.rules.cards import parse_cards
from bot.rules.options import make_rules
from bot.table.actions import Verb
from bot.table.clock import FakeClock
from bot.table.solving import suggestions
from bot.views.model import Audience, View, ViewKind
from storage.delivery import Shards
from storage.sql import SqlRepository
from tests.stored import stored_json

from .game import START, Game, make_manager, seat_everyone
from .harness import POLL_SECONDS, Table, button_id, client_for, settings, simulated_clock, verbs
from .nonces import honour_nonces

ROUNDS = 2
SHARDS = 3
PROCESS_TIMEOUT = 300  # seconds for a shard process's whole game (a hang fails the test)
FOREIGN = "4242424242424242"  # a channel id no simulated guild has
# a guild on shard 2, which no process here serves
UNSERVED_GUILD = (1_100_000_000_000_000_000 >> 22) // SHARDS * SHARDS + 2 << 22


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
    client = client_for(
        manager, settings(discord_shard_count=SHARDS, discord_shard_ids=(shard_id,))
    )
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
        # a row for a channel of a guild on shard 2: this process leaves it
        # alone (the process of shard 2 would deliver it; here none runs)
        await repo.set_route("discord", FOREIGN, UNSERVED_GUILD)
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
            r.path
            for r in env.http_requests
            if r.path.startswith("/channels/") and not r.path.startswith(f"/channels/{channel.id}")
        ]
        state = await stored_json(manager, game.room_id())
        assert state is not None
        return {
            "channel": channel.id,
            "guild_shard": (guild.id >> 22) % SHARDS,
            "messages": len(mine),
            "posts": len(posted),
            "live_tables": len(live_tables),
            "settlements": len(game.table.settlement_messages()),
            "round_no": state["round_no"],
            "other_channels": others,
            "nonces": len({r.json.get("nonce") for r in posted}),
            "shards": client.adapter.outbox.engine.shards,
            "guild": guild.id,
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


class _Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(f"{record.name}: {record.getMessage()}")


def _process(shard_id: int, url: str, results: Any) -> None:
    """A shard process of its own (spawned): its own interpreter, SimCord
    world holding only its guild, and connections to the one database."""
    errors = _Errors()
    logging.getLogger().addHandler(errors)
    patch = pytest.MonkeyPatch()
    honour_nonces(patch)  # as every Discord test: Discord's nonce check
    # the solver's tables first (seconds of CPU; SimCord fails a bot busy for 5 s)
    suggestions(
        parse_cards("As Kd Qh Jc Ts 9d 8h 7c 6s 5d 4h 3c 2s"), make_rules("classic", 2, {}), 2
    )
    try:
        result = asyncio.run(_shard(shard_id, url))
        result["errors"] = errors.lines
        results.put((shard_id, result))
    except BaseException:  # reported by the test
        results.put((shard_id, traceback.format_exc()))
    finally:
        patch.undo()


def _run_processes(url: str) -> dict[int, Any]:
    spawn = multiprocessing.get_context("spawn")
    results = spawn.Queue()
    procs = [spawn.Process(target=_process, args=(i, url, results)) for i in (0, 1)]
    for proc in procs:
        proc.start()
    out: dict[int, Any] = {}
    try:
        for _ in procs:
            shard_id, result = results.get(timeout=PROCESS_TIMEOUT)
            out[shard_id] = result
    finally:
        for proc in procs:
            proc.join(timeout=10)
            if proc.is_alive():
                proc.kill()
    return out


@pytest.mark.parametrize(
    ("database", "processes"), [("sqlite", False), ("postgresql", False), ("postgresql", True)]
)
async def test_two_shard_processes_on_one_database(
    tmp_path, pg_schema_url, database, processes
) -> None:
    """Threads on SQLite and PostgreSQL (one interpreter, two worlds); and
    two real processes on PostgreSQL, each with a SimCord world of its own
    guild only, as deployed: a process that touched the other's channel
    would fail there (NotFound) and leave a failed row."""
    url = pg_schema_url() if database == "postgresql" else f"sqlite:///{tmp_path / 'thirteen.db'}"
    setup = SqlRepository(url)
    await setup.init()  # the schema, once, before the two processes
    await setup.close()
    if processes:
        out = await asyncio.to_thread(_run_processes, url)
    else:
        out = {}
        threads = [threading.Thread(target=_thread, args=(i, url, out)) for i in (0, 1)]
        for thread in threads:
            thread.start()
        await asyncio.to_thread(lambda: [thread.join() for thread in threads])
    for shard_id in (0, 1):
        result = out[shard_id]
        if isinstance(result, BaseException):
            raise result
        assert isinstance(result, dict), result  # a process's traceback otherwise
        assert result.get("errors", []) == []  # nothing logged at ERROR
        assert result["guild_shard"] == shard_id
        assert result["round_no"] == ROUNDS
        assert result["settlements"] == ROUNDS  # one settlement post per round
        assert result["live_tables"] == 1  # one table with buttons per room
        # every POST made one message (none sent twice), each with its own nonce
        assert result["posts"] == result["messages"] == result["nonces"]
        assert result["other_channels"] == []  # the other shard's channel: never touched
        shards = result["shards"]
        assert shards == Shards(SHARDS, (shard_id,), unrouted=shard_id == 0)
        assert shards.takes(result["guild"]) and not shards.takes(UNSERVED_GUILD)
    assert out[0]["channel"] != out[1]["channel"]
    repo = SqlRepository(url)
    await repo.init()
    try:
        stats = await repo.outbox_stats("discord")
        # everything delivered but the two rows for the channel of shard 2:
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


GUILD_ON_1 = (1_100_000_000_000_000_000 >> 22) // 2 * 2 + 1 << 22  # shard 1 of 2


def _notice(chat_id: str, key: str) -> View:
    return View(
        ViewKind.NOTICE,
        Audience.GROUP,
        key,
        key,
        (key,),
        platform="discord",
        chat_id=chat_id,
        language="en",
    )


@pytest.fixture
async def shard0(tmp_path):
    """One process serving shard 0 of 2, with one guild and its channel."""
    repo = SqlRepository(f"sqlite:///{tmp_path / 'thirteen.db'}")
    await repo.init()
    manager = make_manager(repo, FakeClock(start=START))
    await manager.start()
    client = client_for(manager, settings(discord_shard_count=2, discord_shard_ids=(0,)))
    env = simcord.Env(client)
    simulated_clock(env, client)
    await env.start()
    guild = env.create_guild("club", shard_id=0)
    channel = guild.create_text_channel("thirteen")
    member = guild.add_member(env.create_user("alice"))
    try:
        yield env, repo, manager, channel, member
    finally:
        await manager.stop()
        await env.shutdown()
        await repo.close()
        env.raise_errors()


def _shown(env: simcord.Env, channel: Any) -> list[str]:
    me = env.bot.user
    assert me is not None
    return [m.embeds[0].title or "" for m in channel.history() if m.author.id == me.id]


async def test_a_shard_delivers_its_rows_from_its_first_look(shard0) -> None:
    env, repo, manager, channel, member = shard0
    # an interaction in the channel records its guild
    await member.slash(channel, "thirteen rules")
    assert (await repo.due_lanes("discord", datetime.now(UTC))) == []
    # while the process is down, another writes a row for the channel
    await repo.enqueue(view_entries([_notice(str(channel.id), "notice:r:a")]), datetime.now(UTC))
    client = client_for(manager, settings(discord_shard_count=2, discord_shard_ids=(0,)))
    simulated_clock(env, client)
    # Right after connecting the gateway has not streamed the guilds in yet
    # (with many guilds that takes a while): the client knows no channel.
    # SimCord streams them at once, so the cache stays empty here by hand.
    client.get_channel = lambda _id: None  # type: ignore[method-assign]
    await env.restart_bot(client)
    # the poller's first look found and sent the row (no poll interval passed)
    assert "notice:r:a" in _shown(env, channel)
    stats = await repo.outbox_stats("discord")
    assert stats.depth == 0 and stats.failed == 0


async def test_other_shards_due_rows_do_not_delay_this_shards(shard0) -> None:
    env, repo, _manager, channel, member = shard0
    await member.slash(channel, "thirteen rules")
    now = datetime.now(UTC)
    others = [str(9_000_000 + n) for n in range(200)]  # channels of a guild on shard 1
    for chat in others:
        await repo.set_route("discord", chat, GUILD_ON_1)
    await repo.enqueue(view_entries([_notice(chat, f"notice:{chat}:x") for chat in others]), now)
    await repo.enqueue(view_entries([_notice(str(channel.id), "notice:r:b")]), now)
    # the 200 are older: an unfiltered look at the first 100 due chats misses ours
    assert str(channel.id) not in await repo.due_lanes("discord", env_now(env))
    await env.advance_time(POLL_SECONDS + 1)  # one look of the poller
    assert "notice:r:b" in _shown(env, channel)
    stats = await repo.outbox_stats("discord")
    assert stats.depth == 200 and stats.failed == 0  # shard 1's rows: left to shard 1
    assert not [r for r in env.http_requests if r.path.startswith("/channels/9")]


def env_now(env: simcord.Env) -> datetime:
    return datetime.now(UTC) + timedelta(seconds=env.backend.clock.elapsed + 1)
