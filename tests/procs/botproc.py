"""The bot as users meet it: ``thirteen run`` as a separate process against
the fake Bot API (tests/telegram/fakebotapi.py), which tests can tell to
SIGKILL the process at a chosen call; scripted players that only inject
updates and read what the bot sent."""

from __future__ import annotations

import asyncio
import itertools
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.i18n import t
from bot.table.actions import Verb
from storage.sql import SqlRepository
from tests.telegram.fakebotapi import FakeBotAPI, StoredMessage
from tests.telegram.harness import (
    GROUP_ID,
    TOKEN,
    TgUser,
    button_verb,
    buttons_of,
    command_json,
    press_update,
)
from tests.web.harness import telegram_launch_data

HANG_GUARD = 30.0  # seconds: a hang guard, never a speed limit
ANN, BO, CY = TgUser(41, "Ann"), TgUser(42, "Bo"), TgUser(43, "Cy")


def _before_value(key: str, **params: object) -> str:
    """The catalog's text of ``key`` up to where its first parameter goes."""
    marker = "\x00"
    return t("en", key, **{k: marker for k in params}).split(marker)[0]


TABLE_TITLE = _before_value("table.title", room="")
# Buttons that answer whatever the round: a superseded message keeps them.
INFORMATIVE = frozenset(
    {Verb.VERIFY, Verb.LEADERBOARD, Verb.REVIEW, Verb.RULES, Verb.HELP, Verb.STATS}
)


def acts(message: StoredMessage) -> bool:
    """Whether ``message`` has a button that acts on the game (not only
    information buttons, nor links)."""
    return any(button_verb(b) not in INFORMATIVE | {None} for b in message.buttons)


def bot_env(api: FakeBotAPI, database_url: str, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        TELEGRAM_TOKEN=TOKEN,
        TELEGRAM_BASE_URL=api.base_url,
        TELEGRAM_BASE_FILE_URL=api.base_url.replace("/bot", "/file/bot"),
        TELEGRAM_WEBHOOK_URL="",
        DISCORD_TOKEN="",
        DATABASE_URL=database_url,
        DEFAULT_LANGUAGE="en",
        ARRANGE_SECONDS="120",
        REMINDER_SECONDS="0",
        SHOWDOWN_STEP_SECONDS="0.2",
        PICTURES="false",
        DELIVERY_GROUP_PER_MINUTE="0",
        DELIVERY_PRIVATE_PER_SECOND="0",
        DELIVERY_OVERALL_PER_SECOND="0",
        DELIVERY_POLL_SECONDS="0.2",
        LOG_LEVEL="INFO",
        # The smallest solver models: suggestions stay legal, the start is quick.
        THIRTEEN_SOLVER_MODEL_HANDS="50",
        THIRTEEN_SOLVER_POOL_HANDS="50",
        THIRTEEN_SOLVER_POOL_HANDS_16="20",
        THIRTEEN_SOLVER_CACHE="off",
    )
    env.update(extra)
    return env


# One webhook worker's address behind the public webhook (RoundRobinProxy
# posts to it with this secret).
WEBHOOK_SECRET = "s3cret"
WEBHOOK_PATH = "tg-hook"


def webhook_env(api: FakeBotAPI, database_url: str, port: int, **extra: str) -> dict[str, str]:
    """``bot_env`` of a webhook worker listening on 127.0.0.1:``port``."""
    return bot_env(
        api,
        database_url,
        TELEGRAM_WEBHOOK_URL=f"https://bot.example.org/{WEBHOOK_PATH}",
        TELEGRAM_WEBHOOK_LISTEN="127.0.0.1",
        TELEGRAM_WEBHOOK_PORT=str(port),
        TELEGRAM_WEBHOOK_SECRET=WEBHOOK_SECRET,
        **extra,
    )


class BotProcess:
    """One ``thirteen run`` process; its log goes to ``<tmp>/bot-<n>.log``."""

    _numbers = itertools.count(1)

    def __init__(self, env: dict[str, str], workdir: Path) -> None:
        self.env = env
        self.workdir = workdir
        self.proc: subprocess.Popen[bytes] | None = None
        self.logs: list[Path] = []

    def start(self) -> None:
        log = self.workdir / f"bot-{next(self._numbers)}.log"
        self.logs.append(log)
        with log.open("wb") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "bot", "run"],
                env=self.env,
                cwd=self.workdir,  # no .env of the checkout is read
                stdout=out,
                stderr=subprocess.STDOUT,
            )

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL, as a crash: nothing is flushed, nothing is closed."""
        if self.alive:
            assert self.proc is not None
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    async def terminate(self) -> int:
        assert self.proc is not None
        if self.alive:
            self.proc.send_signal(signal.SIGTERM)
        for _ in range(int(HANG_GUARD * 10)):
            if self.proc.poll() is not None:
                return self.proc.returncode
            await asyncio.sleep(0.1)
        self.proc.kill()
        raise AssertionError(f"bot did not stop on SIGTERM; log: {self.log_text()[-2000:]}")

    def log_text(self) -> str:
        return "\n".join(p.read_text(errors="replace") for p in self.logs if p.exists())


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def http_get(port: int, path: str) -> tuple[int, str]:
    """GET http://127.0.0.1:<port><path>: the status and the body."""
    import aiohttp

    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}{path}") as answer,
    ):
        return answer.status, await answer.text()


async def until(check: Callable[[], Any], what: str, timeout: float = HANG_GUARD) -> Any:
    for _ in range(int(timeout * 20)):
        value = check()
        if value:
            return value
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


class Players:
    """Scripted people: they inject updates and read the fake API's messages."""

    def __init__(
        self,
        api: FakeBotAPI,
        group_id: int = GROUP_ID,
        send: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        self.api = api
        self.group_id = group_id
        self.send = send or api.inject  # polling by default; a webhook proxy otherwise
        self._message_ids = itertools.count(1)
        self.pressed: dict[str, Verb] = {}  # callback query id -> the verb tapped

    # ---- what users do -----------------------------------------------------------
    def command(self, user: TgUser, text: str, private: bool = False) -> None:
        chat_id = user.id if private else self.group_id
        self.send(command_json(self.api, user, text, chat_id, next(self._message_ids)))

    def newgame(self, owner: TgUser, preset: str = "") -> None:
        """``owner`` opens a room in the group (``/newgame [preset]``)."""
        self.command(owner, f"/newgame {preset}".strip())

    def join(self, user: TgUser) -> None:
        self.command(user, "/join")

    def startgame(self, owner: TgUser) -> None:
        self.command(owner, "/startgame")

    async def deal(self, owner: TgUser, *others: TgUser) -> dict[int, StoredMessage]:
        """A room opened by ``owner`` with ``others`` seated and round 1
        dealt, each step awaited in the chats: each player's private hand,
        by user id."""
        self.newgame(owner)
        await until(self.tables, "the table")
        for user in others:
            self.join(user)
            await until(
                lambda user=user: any(user.first_name in m.text for m in self.tables()),  # type: ignore[misc]
                f"{user.first_name} seated",
            )
        self.startgame(owner)
        return {
            user.id: await until(lambda user=user: self.hand(user), f"{user.first_name}'s hand")  # type: ignore[misc]
            for user in (owner, *others)
        }

    def press(self, user: TgUser, message: StoredMessage, verb: Verb) -> str:
        """Tap the first ``verb`` button of ``message``; the query id."""
        buttons = buttons_of(message, verb)
        assert buttons, f"no {verb.name} button in {message.text!r}"
        query_id = self.press_data(user, message, buttons[0]["callback_data"])
        self.pressed[query_id] = verb
        return query_id

    def press_data(self, user: TgUser, message: StoredMessage, data: str) -> str:
        """Tap the button with callback ``data`` on ``message``; the query id."""
        update = press_update(self.api, user, message, data)
        self.send(update)
        return str(update["callback_query"]["id"])

    def answer(self, query_id: str) -> dict[str, Any] | None:
        for call in self.api.calls_of("answerCallbackQuery"):
            if call.params.get("callback_query_id") == query_id and call.status == 200:
                return call.params
        return None

    # ---- what users see ----------------------------------------------------------
    def group(self) -> list[StoredMessage]:
        return self.api.chat_messages(self.group_id)

    def tables(self) -> list[StoredMessage]:
        return [m for m in self.group() if TABLE_TITLE in m.text.split("\n")[0]]

    def live_tables(self) -> list[StoredMessage]:
        """Table messages with buttons that act on the game (a superseded one
        keeps only information buttons such as the rules)."""
        return [m for m in self.tables() if acts(m)]

    def live_messages(self) -> list[StoredMessage]:
        """Group messages with buttons that act on the game: the table while
        a round is played (and the lobby of /newgame), the last settlement
        between rounds (it is the lobby then). A round's table, once its
        showdown, and a superseded settlement keep none."""
        return [m for m in self.group() if acts(m)]

    def settlements(self, round_no: int | None = None) -> list[StoredMessage]:
        if round_no is not None:
            title = t("en", "settle.title", round=round_no)
            return [m for m in self.group() if m.text.startswith(title)]
        return [m for m in self.group() if buttons_of(m, Verb.VERIFY)]

    def hands(self, user: TgUser, round_no: int) -> list[StoredMessage]:
        title = t("en", "hand.title", round=round_no)
        return [m for m in self.api.chat_messages(user.id) if m.text.startswith(title)]

    def hand(self, user: TgUser, round_no: int = 1) -> StoredMessage | None:
        found = self.hands(user, round_no)
        return found[-1] if found else None

    def hand_messages(self, user: TgUser) -> list[StoredMessage]:
        return self.api.chat_messages(user.id)


def page_button(message: StoredMessage) -> dict[str, Any]:
    """The private hand's Mini App button (``web_app``)."""
    (button,) = [b for b in message.buttons if "web_app" in b]
    return button


def launch_data(user: TgUser) -> str:
    """Launch data as Telegram signs it for ``user`` with the test bot's token."""
    return telegram_launch_data(user.id, user.first_name, now=time.time(), token=TOKEN)


class RoundRobinProxy:
    """What a load balancer in front of N webhook workers does: each update
    goes to the next worker (a worker that is down gets none: the next one
    takes it, as a proxy's health check would arrange)."""

    def __init__(self, ports: list[int], path: str, secret: str) -> None:
        self.ports = ports
        self.path = path
        self.secret = secret
        self.alive: Callable[[int], bool] = lambda index: True
        self.sent_to: list[int] = []  # the worker index of each update
        self._next = itertools.count()
        self._tasks: set[asyncio.Task[None]] = set()

    def __call__(self, update: dict[str, Any]) -> None:
        for _ in range(len(self.ports)):
            index = next(self._next) % len(self.ports)
            if self.alive(index):
                break
        self.sent_to.append(index)
        task = asyncio.get_running_loop().create_task(self._post(index, update))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _post(self, index: int, update: dict[str, Any]) -> None:
        import aiohttp

        url = f"http://127.0.0.1:{self.ports[index]}/{self.path}"
        headers = {"X-Telegram-Bot-Api-Secret-Token": self.secret}
        async with aiohttp.ClientSession() as session:
            for _ in range(50):  # the worker may still be starting
                try:
                    async with session.post(url, json=update, headers=headers) as answer:
                        assert answer.status == 200, answer.status
                        return
                except aiohttp.ClientConnectionError:
                    await asyncio.sleep(0.1)


async def until_delivered(url: str) -> None:
    """Until the outbox of the database at ``url`` is empty: every post
    handed over and its message id stored."""
    repo = SqlRepository(url)
    await repo.init()
    try:
        for _ in range(600):  # a hang guard
            if (await repo.outbox_stats()).depth == 0:
                return
            await asyncio.sleep(0.05)
        raise AssertionError("the outbox never emptied")
    finally:
        await repo.close()
