"""The Discord game driver: whole games through the real TableManager under
SimCord. How a game is opened (/thirteen new), joined, dealt and arranged
is said here, once; the tests call it."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import simcord

from bot.config import Settings
from bot.core.hand import Hand
from bot.core.round import rules_of
from bot.table.actions import ActionIdError, Verb, decode
from bot.table.clock import FakeClock
from bot.table.hand import indexes_for
from bot.table.manager import TableManager
from bot.table.solving import auto_arrange, parse_tokens
from storage.memory import MemoryRepository
from storage.sql import SqlRepository
from tests.stored import stored_json

from .harness import Table, action_ids, button_id, embed_text, open_env, verbs

START = 1_800_000_000.0
NAMES = ["alice", "bob", "carol", "dave", "erin"]


def make_manager(
    repo: Any, clock: FakeClock, seed: int = 7, rng: random.Random | None = None
) -> TableManager:
    """``rng``: the deck's randomness (tests.table.helpers.RiggedRandom deals
    chosen hands); seeded by ``seed`` without one."""
    return TableManager(
        repo,
        clock=clock,
        arrange_seconds=120,
        reminder_seconds=30,
        showdown_step_seconds=1.5,
        default_language="en",
        rng=rng or random.Random(seed),
    )


@dataclass
class Game:
    table: Table
    manager: TableManager
    clock: FakeClock
    repo: Any

    @property
    def env(self) -> simcord.Env:
        return self.table.env

    @property
    def members(self) -> list[simcord.MemberActor]:
        return self.table.members

    def room_id(self) -> str:
        """The room, read off the first bot message that names it (a table
        turned into its showdown has no buttons left)."""
        if "room" not in self.table.extra:
            rooms = [
                room
                for m in self.table.bot_messages()
                for cid in action_ids(m)
                if (room := _room_of(cid))
            ]
            assert rooms, "no message of the room in the channel"
            self.table.extra["room"] = rooms[0]
        return self.table.extra["room"]

    async def state(self) -> dict[str, Any]:
        if "room" not in self.table.extra:
            # from the store: mid-showdown no message of the channel names it
            # (the lobby was stripped at the deal, the table is the showdown)
            open_room = await self.manager.repo.open_room_for_chat(
                "discord", str(self.table.channel.id)
            )
            if open_room is not None:
                self.table.extra["room"] = open_room.room_id
        state = await stored_json(self.manager, self.room_id())
        assert state is not None
        return state

    async def hand_state(self, member: simcord.MemberActor) -> dict[str, Any]:
        state = await self.state()
        return state["round"]["hands"][f"discord:{member.id}"]

    async def advance(self, seconds: float) -> None:
        await self.table.from_timers(self.clock.advance(seconds))

    async def open_hand(self, member: simcord.MemberActor) -> simcord.ResponseMessage:
        table_msg = self.table.table_message()
        result = await member.click(table_msg, custom_id=button_id(table_msg, Verb.SHOW_HAND))
        assert result.ephemeral and result.response is not None
        return result.response

    async def arrange_by_clicking(
        self,
        member: simcord.MemberActor,
        hand_msg: simcord.ResponseMessage,
        *,
        confirm: bool = True,
    ) -> None:
        """Tap the head's 3 cards then the middle's 5 (the rest is the tail),
        following a legal arrangement from the solver."""
        hand = await self.hand_state(member)
        if hand["head"] or hand["middle"]:
            await member.click(hand_msg, custom_id=button_id(hand_msg, Verb.RESET))
            hand = await self.hand_state(member)
        assert not hand["head"] and not hand["middle"]
        state = await self.state()
        arrangement = auto_arrange(parse_tokens(hand["cards"]), rules_of(state["round"]["rules"]))
        taken: set[int] = set()
        typed = Hand.from_json(hand)
        picks = indexes_for(typed, [str(c) for c in arrangement.head], taken)
        picks += indexes_for(typed, [str(c) for c in arrangement.middle], taken)
        for index in picks:
            result = await member.click(
                hand_msg, custom_id=button_id(hand_msg, Verb.PICK, str(index))
            )
            assert result.response is not None and result.response.id == hand_msg.id
        if confirm:
            await member.click(hand_msg, custom_id=button_id(hand_msg, Verb.CONFIRM))

    async def arrange_by_suggestion(
        self, member: simcord.MemberActor, hand_msg: simcord.ResponseMessage
    ) -> None:
        result = await member.click(hand_msg, custom_id=button_id(hand_msg, Verb.SUGGEST))
        assert result.deferred  # the solver may take a while: acknowledged first
        await member.click(hand_msg, custom_id=button_id(hand_msg, Verb.APPLY, "0"))
        await member.click(hand_msg, custom_id=button_id(hand_msg, Verb.CONFIRM))

    async def finish_showdown(self) -> None:
        """Let the showdown's reveal steps run (timers through the sink)."""
        for _ in range(20):
            if (await self.state())["phase"] != "showdown":
                return
            await self.advance(2.0)
        raise AssertionError("showdown did not finish")


def _room_of(custom_id: str) -> str | None:
    try:
        return decode(custom_id)[0] or None
    except ActionIdError:
        return None  # a button of the adapter's own (the DM switch, …)


async def command(member: Any, channel: Any, sub: str, **options: str) -> Any:
    """``/thirteen <sub>`` typed by ``member`` in ``channel``: SimCord's result."""
    return await member.slash(channel, f"thirteen {sub}", **options)


async def open_room(member: Any, channel: Any) -> Any:
    return await command(member, channel, "new")


async def join(member: Any, channel: Any) -> Any:
    return await command(member, channel, "join")


async def start_round(member: Any, channel: Any) -> Any:
    return await command(member, channel, "start")


async def seat_everyone(game: Game, players: int) -> None:
    """The first ``players`` members at the table: the first opens it, the
    second joins by command, the others by the table's button."""
    owner, *others = game.members[:players]
    opened = await open_room(owner, game.table.channel)
    # answered privately; the table is posted to the channel by the outbox
    assert opened.ephemeral and opened.response is not None and not opened.response.embeds
    assert Verb.JOIN in verbs(game.table.table_message())
    first = game.table.table_message().id
    for n, member in enumerate(others):
        if n == 0:
            # one joins by command: the table message is edited, the toast is private
            res = await join(member, game.table.channel)
            assert res.ephemeral
        else:
            msg = game.table.table_message()
            res = await member.click(msg, custom_id=button_id(msg, Verb.JOIN))
            assert res.deferred and not res.followups  # the outbox edits the table
    assert game.table.table_message().id == first  # one table, edited in place
    seated = {p["key"] for p in (await game.state())["players"]}
    assert seated == {f"discord:{m.id}" for m in game.members[:players]}
    text = embed_text(game.table.table_message())
    assert all(m.name in text for m in game.members[:players])


async def deal(game: Game, players: int = 2) -> None:
    """``players`` members seated, then the owner deals from the table's button."""
    await seat_everyone(game, players)
    table = game.table.table_message()
    await game.members[0].click(table, custom_id=button_id(table, Verb.START))


async def restart(game: Game) -> None:
    """A new process on the same database file: new manager, new client."""
    await game.manager.stop()
    await game.repo.close()
    repo = SqlRepository(game.table.extra["url"])
    await repo.init()
    game.repo = repo
    game.manager = make_manager(repo, game.clock)
    await game.manager.start()
    await game.table.restart(game.manager)


async def open_game(
    repo: Any,
    names: list[str],
    *,
    seed: int = 7,
    rng: random.Random | None = None,
    config: Settings | None = None,
) -> Game:
    """``config``: the bot's settings (tests.discord.harness.settings by default)."""
    clock = FakeClock(start=START)
    manager = make_manager(repo, clock, seed, rng)
    await manager.start()
    _env, table = await open_env(manager, names, config)
    return Game(table, manager, clock, repo)


@asynccontextmanager
async def playing(names: list[str], repo: Any = None, **kw: Any) -> AsyncIterator[Game]:
    """A game of ``names`` (in memory unless ``repo`` is given), torn down
    after: the manager stopped, SimCord shut, its recorded errors raised."""
    if repo is None:
        repo = MemoryRepository()
        await repo.init()
    game = await open_game(repo, names, **kw)
    try:
        yield game
    finally:
        await game.manager.stop()
        await game.env.shutdown()
        game.env.raise_errors()


@asynccontextmanager
async def game_on_sqlite(tmp_path: Path) -> AsyncIterator[Game]:
    """Alice, Bob and Carol at a table stored in an SQLite file (its URL in
    ``table.extra["url"]``, so a test can open it again as a restart)."""
    url = f"sqlite:///{tmp_path / 'thirteen.db'}"
    repo = SqlRepository(url)
    await repo.init()
    try:
        async with playing(["alice", "bob", "carol"], repo) as game:
            game.table.extra["url"] = url
            yield game
    finally:
        await repo.close()


@asynccontextmanager
async def with_page(names: list[str], config: Settings, base: str) -> AsyncIterator[Game]:
    """A game of ``names`` built with ``config`` (the page's settings) and
    the arranging page served at ``base``, its views delivered through the
    Discord adapter as a request of SimCord's time."""
    from aiohttp import web

    from bot.web.assembly import arranging_page

    async with playing(names, config=config) as game:
        adapter = game.table.client.adapter

        async def deliver(views: Any) -> None:
            # The page's request runs outside SimCord's operations: Discord's
            # clock for the bot is SimCord's, as in an interaction.
            with game.env.time_context():
                await adapter.sink(views)

        page = arranging_page(config, game.manager, deliver=deliver, clock=game.clock.now)
        runner = web.AppRunner(page.application, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", int(base.rsplit(":", 1)[1])).start()
        try:
            yield game
        finally:
            await runner.cleanup()
