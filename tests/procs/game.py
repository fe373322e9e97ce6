"""A round of Thirteen Water played by scripted people against ``thirteen
run`` processes that may be killed at any call: each step is retried until
what it should show is shown, restarting a killed process in between."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.table.actions import Verb
from tests.procs.botproc import HANG_GUARD, BotProcess, Players, until
from tests.telegram.fakebotapi import FakeBotAPI, StoredMessage
from tests.telegram.harness import TgUser, buttons_of

# What the delivery engine logs when a row is put back for a retry.
RETRYING = "; retrying in "


@dataclass
class Fleet:
    """The bot processes of a test (one, or several behind one webhook)."""

    api: FakeBotAPI
    bots: list[BotProcess]
    restarts: int = 0
    _ready_calls: int = 0

    async def start_all(self) -> None:
        for bot in self.bots:
            await self._start(bot)

    async def _start(self, bot: BotProcess) -> None:
        seen = len(self.api.calls_of("getUpdates")) + len(self.api.calls_of("setWebhook"))
        bot.start()

        def up() -> bool:
            if not bot.alive:
                raise AssertionError(f"the bot exited at start: {bot.log_text()[-3000:]}")
            calls = len(self.api.calls_of("getUpdates")) + len(self.api.calls_of("setWebhook"))
            return calls > seen

        await until(up, "the bot to start", timeout=60)

    async def heal(self) -> None:
        """Restart every process that was killed."""
        for bot in self.bots:
            if bot.proc is not None and not bot.alive:
                self.restarts += 1
                await self._start(bot)

    def any_dead(self) -> bool:
        return any(not b.alive for b in self.bots)

    async def stop_all(self) -> list[int]:
        return [await b.terminate() for b in self.bots if b.proc is not None]

    def log_text(self) -> str:
        return "\n".join(b.log_text() for b in self.bots)


@dataclass
class KillAt:
    """SIGKILL a bot process when the fake API sees the n-th matching call,
    ``before`` it is handled (nothing recorded) or after (recorded, but the
    bot never hears the answer: a send that may have succeeded).

    ``pending`` (seconds, with ``before``): the call is not killed but
    answered 429 with that ``retry_after`` (Telegram's word that it made
    nothing), and the process is killed once it has put the row back in
    its outbox for the retry: a crash while a committed post waits, nothing
    of it in the chat (a post cut off in flight is another case: one that
    may have been made, docs/delivery.md §5)."""

    name: str
    match: Callable[[str, dict[str, Any]], bool]
    before: bool
    nth: int = 1
    pending: int = 0
    fired: bool = False
    _seen: int = 0
    victim: Callable[[], BotProcess] | None = None
    api: FakeBotAPI | None = None
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)

    def install(self, api: FakeBotAPI, victim: Callable[[], BotProcess]) -> None:
        self.victim = victim
        self.api = api
        if self.before:
            api.before_call = lambda method, params: self._maybe(method, params)
        else:
            api.after_call = lambda method, params, result: self._maybe(method, params)

    def _maybe(self, method: str, params: dict[str, Any]) -> bool:
        if self.fired or not self.match(method, params):
            return False
        self._seen += 1
        if self._seen == self.nth and self.victim is not None:
            self.fired = True
            if self.pending and self.api is not None:
                self.api.fail_429_once[method] = self.pending
                # Counted now, before the bot can have heard the answer.
                retries = self.victim().log_text().count(RETRYING)
                task = asyncio.get_running_loop().create_task(self._kill_when_put_back(retries))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
                return False
            self.victim().kill()
            return True
        return False

    async def _kill_when_put_back(self, retries: int) -> None:
        assert self.victim is not None
        bot = self.victim()
        # The engine logs the 429 just before it stores the retry: a moment
        # for the write, far less than ``pending``.
        await until(lambda: bot.log_text().count(RETRYING) > retries, "the retry logged")
        await asyncio.sleep(min(0.5, self.pending / 4))
        bot.kill()


@dataclass
class Script:
    players: Players
    fleet: Fleet
    log: list[str] = field(default_factory=list)

    async def step(
        self, name: str, act: Callable[[], Awaitable[None]], done: Callable[[], bool]
    ) -> None:
        for _ in range(5):
            await self.fleet.heal()
            if done():
                return
            self.log.append(name)
            await act()
            try:
                await until(lambda: done() or self.fleet.any_dead(), name, timeout=HANG_GUARD)
            except AssertionError:
                raise AssertionError(f"{name}: {self.fleet.log_text()[-4000:]}") from None
            if done():
                return
            # A process died on the way: what it committed must show after the
            # restart, without anyone doing anything again.
            await self.fleet.heal()
            await asyncio.sleep(1.0)
        raise AssertionError(f"step {name} never completed; {self.fleet.log_text()[-4000:]}")

    async def tap(self, user: TgUser, message: StoredMessage | None, verb: Verb) -> bool:
        """Tap and wait for the answer; False when the bot died meanwhile."""
        if message is None or not buttons_of(message, verb):
            return False
        query = self.players.press(user, message, verb)
        await until(
            lambda: self.players.answer(query) or self.fleet.any_dead(), f"answer to {verb.name}"
        )
        return self.players.answer(query) is not None

    async def arrange(self, user: TgUser, round_no: int = 1) -> None:
        """Take the suggestion and confirm it, as a player in a hurry would."""
        p = self.players
        hand = p.hand(user, round_no)
        # Suggestions already shown (asked for before a crash): their buttons
        # stand where Suggest was.
        if hand is None or not buttons_of(hand, Verb.APPLY):
            if not await self.tap(user, hand, Verb.SUGGEST):
                return
            await until(
                lambda: (
                    buttons_of(p.hand(user, round_no) or _none(), Verb.APPLY)
                    or self.fleet.any_dead()
                ),
                "the suggestion",
            )
        if not await self.tap(user, p.hand(user, round_no), Verb.APPLY):
            return
        await until(
            lambda: (
                buttons_of(p.hand(user, round_no) or _none(), Verb.CONFIRM) or self.fleet.any_dead()
            ),
            "the confirm button",
        )
        await self.tap(user, p.hand(user, round_no), Verb.CONFIRM)

    def confirmed(self, user: TgUser, round_no: int = 1) -> bool:
        hand = self.players.hand(user, round_no)
        return (
            hand is not None
            and not buttons_of(hand, Verb.PICK)
            and not buttons_of(hand, Verb.CONFIRM)
            and not buttons_of(hand, Verb.APPLY)
        ) or bool(self.players.settlements(round_no))

    async def play_first_round(self, seated: list[TgUser]) -> None:
        p = self.players
        owner = seated[0]

        async def newgame() -> None:
            p.newgame(owner)

        await self.step("newgame", newgame, lambda: bool(p.tables()))
        for user in seated[1:]:

            async def join(user: TgUser = user) -> None:
                p.join(user)

            await self.step(
                f"join {user.first_name}",
                join,
                lambda user=user: any(user.first_name in m.text for m in p.tables()),  # type: ignore[misc]
            )

        async def start() -> None:
            table = p.live_tables()
            if table and buttons_of(table[-1], Verb.START):
                await self.tap(owner, table[-1], Verb.START)
            else:
                p.startgame(owner)

        await self.step("start", start, lambda: all(p.hand(u) for u in seated))
        for user in seated:

            async def arrange(user: TgUser = user) -> None:
                await self.arrange(user)

            await self.step(
                f"arrange {user.first_name}",
                arrange,
                lambda user=user: self.confirmed(user),  # type: ignore[misc]
            )

        async def wait() -> None:
            return None

        await self.step("settlement", wait, lambda: bool(p.settlements(1)))


def _none() -> StoredMessage:
    return StoredMessage(0, 0, "", None)
