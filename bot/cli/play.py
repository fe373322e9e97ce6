"""``thirteen play``: Thirteen Water in the terminal against AI seats.

Runs the same TableManager and views as the chat bots; the console is one
more platform (``console.py`` reads the lines and prints the views).
Interactive by default; ``--auto --rounds N`` lets AI seats play N rounds
alone and prints each showdown and the totals. No token is needed.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
from collections.abc import Sequence
from typing import Any

from bot.cli import command_parser, configure_solver, settings_or_exit
from bot.config import MAX_ARRANGE_SECONDS, MIN_ARRANGE_SECONDS, check_database_url
from bot.table import match
from bot.table.actions import Action, Actor, Outcome, Verb
from bot.table.clock import FakeClock, RealClock
from bot.table.manager import TableManager
from bot.views.i18n import t
from bot.views.model import View, ViewKind

from .console import HandPrinter, LineReader, Typed, parse, show

CHAT = "console"
MAX_MATCH = match.MAX_ROUNDS  # --rounds up to this plays a match (局数) with its 大结算
LANGUAGES = ("zh-Hans", "zh-Hant", "en")


def you(lang: str) -> Actor:
    """The person at the terminal, named in their language."""
    return Actor("console", "you", t(lang, "cli.you"))


def _bounded(kind: type[int] | type[float], low: float, high: float, what: str) -> Any:
    """An argparse type: a number from ``low`` to ``high``."""

    def convert(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what}, not {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{what}, not {text!r}")
        return value

    return convert


def _database(text: str) -> str:
    try:
        return check_database_url(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    p = command_parser(
        "thirteen play", "Thirteen Water in the terminal against AI seats (no token needed)."
    )
    p.add_argument(
        "--players",
        type=_bounded(int, 2, 5, "a whole number from 2 to 5"),
        default=4,
        help="seats at the table, 2-5 (default 4)",
    )
    p.add_argument("--preset", default="classic", choices=["classic", "extended"])
    p.add_argument("--jokers", type=int, choices=[0, 1, 2], default=None, help="0, 1 or 2")
    p.add_argument("--lang", default="zh-Hans", choices=LANGUAGES)
    p.add_argument("--seed", type=int, default=None, help="reproducible deals (not secret!)")
    p.add_argument(
        "--ai", default="normal", choices=["easy", "normal", "strong"], help="AI strength"
    )
    p.add_argument(
        "--time",
        type=_bounded(
            int,
            MIN_ARRANGE_SECONDS,
            MAX_ARRANGE_SECONDS,
            f"a whole number of seconds from {MIN_ARRANGE_SECONDS} to {MAX_ARRANGE_SECONDS}",
        ),
        default=120,
        help=f"arranging seconds ({MIN_ARRANGE_SECONDS}-{MAX_ARRANGE_SECONDS}, default 120)",
    )
    p.add_argument(
        "--step",
        type=_bounded(float, 0, 60, "a number of seconds from 0 to 60"),
        default=1.5,
        help="seconds between showdown steps (0-60)",
    )
    p.add_argument(
        "--option", "-o", action="append", default=[], help="any room option, name=value"
    )
    p.add_argument("--auto", action="store_true", help="AI seats only; print showdowns and totals")
    p.add_argument(
        "--rounds",
        type=_bounded(int, 1, 10_000, "a whole number from 1 to 10000"),
        default=None,
        help="a match of N rounds (1-99) ending with the final results and a review after "
        "each round; with --auto, the rounds the AI seats play (default 1)",
    )
    p.add_argument("--db", type=_database, default=None, help="database URL (default: in memory)")
    return p.parse_args(list(argv))


async def make_repo(url: str | None) -> Any:
    if url:
        from storage.sql import SqlRepository

        repo: Any = SqlRepository(url)
    else:
        from storage.memory import MemoryRepository

        repo = MemoryRepository()
    await repo.init()
    return repo


class Console:
    """The game at the terminal: sends the person's actions, prints answers."""

    def __init__(self, mgr: TableManager, lang: str) -> None:
        self.mgr = mgr
        self.lang = lang
        self.room_id: str | None = None
        self.hands = HandPrinter(lang)
        self.last_hand: View | None = None  # my latest hand view (also from timers)

    async def send(
        self, verb: Verb, arg: str | None = None, *, button: bool = False, quiet: bool = False
    ) -> Outcome:
        round_no = None
        if button and self.room_id:
            st = await self.mgr.room_state(self.room_id)
            round_no = st["round_no"] if st else None
        out = await self.mgr.handle(
            Action(
                you(self.lang),
                verb,
                chat_id=CHAT,
                room_id=self.room_id if button else None,
                round_no=round_no,
                arg=arg,
            )
        )
        if out.room_id:
            self.room_id = out.room_id
        hand = _hand(out)
        if hand is not None:
            self.last_hand = hand
        if not out.ok:
            print(f"⚠️  {out.reply}")
        elif out.reply and not quiet:
            print(f"· {out.reply}")
        return out

    async def setup(self, args: argparse.Namespace, seats_for_you: bool) -> bool:
        """Open the room, set the options and seat the AI players; a refused
        option is printed (in the table's words) and ends the game."""
        out = await self.send(Verb.NEW, args.preset, quiet=True)
        if not out.ok:
            return False
        opts = [f"language={args.lang}", f"time={args.time}", *args.option]
        if args.rounds is not None and args.rounds <= MAX_MATCH:
            opts.append(f"rounds={args.rounds}")  # a match: 大结算 after the last round
        if args.jokers is not None:
            opts.append(f"jokers={args.jokers}")
        if args.players == 5 and not any(o.startswith(("added_suit", "suit")) for o in args.option):
            opts.append("added_suit=s")
        for o in opts:
            if not (await self.send(Verb.SET_OPTION, o, quiet=True)).ok:
                return False
        for _ in range(args.players - 1):
            if not (await self.send(Verb.ADD_AI, args.ai, quiet=True)).ok:
                return False
        if not seats_for_you:
            # Watch the AI seats play: give up the seat (the owner stays owner
            # while AI seats remain), then an AI takes it.
            await self.send(Verb.LEAVE, quiet=True)
            if not (await self.send(Verb.ADD_AI, args.ai, quiet=True)).ok:
                return False
        print(
            t(
                self.lang,
                "cli.table",
                players=args.players,
                preset=args.preset,
                seconds=args.time,
                ai=args.ai,
            )
        )
        return True

    async def sink(self, views: Sequence[View]) -> None:
        """The table's timer views: reminders, the deadline, the showdown."""
        for v in views:
            if v.kind is ViewKind.HAND:
                self.last_hand = v  # auto-arranged at the deadline
            elif v.kind in (ViewKind.SETTLEMENT, ViewKind.NOTICE):
                show(v)  # the showdown's steps are in the settlement, printed once

    async def phase(self) -> str:
        st = await self.mgr.room_state(self.room_id) if self.room_id else None
        return st["phase"] if st else "closed"

    async def match_over(self) -> bool:
        st = await self.mgr.room_state(self.room_id) if self.room_id else None
        return bool(st and match.is_over(st))

    async def arranging(self) -> bool:
        return await self.phase() == "arranging"

    async def seconds_left(self) -> int | None:
        st = await self.mgr.room_state(self.room_id) if self.room_id else None
        rnd = st.get("round") if st else None
        if not rnd or st is None or st["phase"] != "arranging":
            return None
        return max(0, int(rnd["deadline"] - self.mgr.clock.now()))


def _hand(out: Outcome | None) -> View | None:
    if out is None:
        return None
    return next((v for v in out.views if v.kind is ViewKind.HAND), None)


async def arrange_round(con: Console, reader: LineReader) -> bool:
    """Arrange my hand until it is done or the time is up; False to quit."""
    await con.send(Verb.SHOW_HAND, button=True)
    if con.last_hand is not None:
        con.hands.print(con.last_hand, whole=True)
    while await con.arranging():
        view = con.last_hand
        if view is None or not con.hands.card_numbers(view):
            # Confirmed or declared: the others are AI seats, the showdown follows.
            await asyncio.sleep(0.05)
            continue
        left = await con.seconds_left()
        prompt = f"({left}s) > " if left is not None else "> "
        line = await reader.ask(prompt, still=con.arranging)
        if line is None:  # the deadline passed while the prompt waited
            print(t(con.lang, "cli.timeout"))
            if con.last_hand is not None:
                con.hands.print(con.last_hand)
            return True
        typed = parse(line, len(con.hands.card_numbers(view)), con.hands.suggestions(view))
        if typed is None:
            continue
        if not await run_typed(con, typed, view):
            return False
    return True


async def run_typed(con: Console, typed: Typed, view: View) -> bool:
    """Carry out one typed line; False to quit."""
    if typed.problem is not None:
        key, params = typed.problem
        print("⚠️  " + t(con.lang, key, **params))
    elif typed.info == "quit":
        return False
    elif typed.info == "help":
        print(t(con.lang, "cli.help"))
    elif typed.info == "show":
        con.hands.print(view, whole=True)
    elif typed.info == "rules":
        for v in (await con.send(Verb.RULES)).views:
            show(v)
    elif typed.picks:
        await place(con, typed.picks, view)
    elif typed.verb is not None:
        out = await con.send(typed.verb, typed.arg, button=True)
        if out.ok and con.last_hand is not None:  # a refusal changed nothing
            con.hands.print(con.last_hand)
    return True


async def place(con: Console, picks: Sequence[int], view: View) -> None:
    """Place the cards of one typed line, all or none: a refused card takes
    back the ones this line placed."""
    numbers = con.hands.card_numbers(view)
    for placed, n in enumerate(picks):
        out = await con.send(Verb.PICK, numbers[n], button=True)
        if not out.ok:
            for _ in range(placed):
                await con.send(Verb.UNDO, button=True, quiet=True)
            return
    if con.last_hand is not None:
        con.hands.print(con.last_hand)


async def interactive(args: argparse.Namespace) -> int:
    repo = await make_repo(args.db)
    rng = random.Random(args.seed) if args.seed is not None else None
    lang = args.lang

    mgr = TableManager(
        repo,
        clock=RealClock(),
        arrange_seconds=args.time,
        rng=rng,
        showdown_step_seconds=args.step,
        default_language=lang,
    )
    con = Console(mgr, lang)
    mgr.set_sink(con.sink)
    await mgr.start()
    try:
        reader = LineReader()
        print(t(lang, "cli.welcome"))
        if not await con.setup(args, seats_for_you=True):
            return 2
        while True:
            print(t(lang, "cli.dealing"))
            out = await con.send(Verb.START, button=True, quiet=True)
            if not out.ok:
                return 2
            for v in out.views:
                if v.kind is ViewKind.TABLE:
                    show(v)
            if not await arrange_round(con, reader):
                break
            while await con.phase() == "showdown":
                await asyncio.sleep(min(0.2, args.step + 0.01))
            # The review (复盘) of my hand, now that the showdown is over.
            for v in (await con.send(Verb.REVIEW, button=True, quiet=True)).views:
                show(v)
            if await con.match_over():
                break  # the final results were printed by the table's sink
            line = await reader.ask(t(lang, "cli.next_round"))
            if line is not None and line.strip().lower() in ("q", "quit", "exit"):
                break
    except EOFError:
        pass
    finally:
        await mgr.stop()
        await repo.close()
    print(t(lang, "cli.bye"))
    return 0


async def auto(args: argparse.Namespace) -> int:
    repo = await make_repo(args.db)
    rng = random.Random(args.seed) if args.seed is not None else None
    clock = FakeClock()
    lang = args.lang

    async def sink(views: Sequence[View]) -> None:
        for v in views:
            if v.kind is ViewKind.SETTLEMENT or v.meta.get("final"):
                show(v)

    mgr = TableManager(
        repo,
        clock=clock,
        arrange_seconds=args.time,
        rng=rng,
        showdown_step_seconds=1.0,
        default_language=lang,
    )
    mgr.set_sink(sink)
    await mgr.start()
    try:
        con = Console(mgr, lang)
        if not await con.setup(args, seats_for_you=False):
            return 2
        rounds = args.rounds or 1
        for _ in range(rounds):
            out = await con.send(Verb.START, button=True, quiet=True)
            if not out.ok:
                return 2
            while await con.phase() == "showdown":
                await clock.advance(1.0)
        st = await mgr.room_state(con.room_id) if con.room_id else None
        if st:
            print()
            print(f"== {t(lang, 'cli.totals', rounds=rounds)} ==")
            for key, pts in sorted(st["totals"].items(), key=lambda kv: -kv[1]):
                print(f"  {st['names'].get(key, key)}: {pts:+d}")
    finally:
        await mgr.stop()
        await repo.close()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    configure_solver(settings_or_exit())
    try:
        return asyncio.run(auto(args) if args.auto else interactive(args))
    except KeyboardInterrupt:
        print("\n" + t(args.lang, "cli.bye"))
        return 130
    except Exception as e:  # noqa: BLE001 - a database that cannot be opened, and the like
        from sqlalchemy.exc import SQLAlchemyError

        from storage.api import StorageError

        if not isinstance(e, StorageError | SQLAlchemyError | OSError):
            raise
        reason = str(getattr(e, "orig", None) or e).splitlines()[0][:200]
        print(f"thirteen play: the database cannot be used: {reason}", file=sys.stderr)
        return 1
