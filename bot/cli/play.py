"""``thirteen play``: Thirteen Water in the terminal against AI seats.

Runs the same TableManager and views as the chat bots; the console is one
more platform (``console.py`` reads the lines and prints the views in
terminal words). Interactive by default; ``--rounds N`` plays a match of N
rounds with a review after each and the final results after the last;
``--auto`` lets AI seats play alone and prints each showdown. No token is
needed.
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
from bot.core import lanes as H
from bot.core.options import rules_for, summary
from bot.core.room import Room
from bot.core.round import rules_of
from bot.core.state import Phase
from bot.i18n import normalize_language, t
from bot.rules.lanes import evaluate_lane
from bot.rules.options import OptionError
from bot.table import match
from bot.table.actions import Action, Actor, Outcome, Verb
from bot.table.clock import FakeClock, RealClock
from bot.table.manager import TableManager
from bot.table.options import RULE_OPTIONS, TABLE_OPTIONS, parse_assignment
from bot.views.model import View, ViewKind
from bot.views.render_common import category, option_reason

from .console import (
    SCREEN,
    HandPrinter,
    LineReader,
    Typed,
    Words,
    parse,
    parse_between,
    say,
    say_list,
)

CHAT = "console"
MAX_MATCH = match.MAX_ROUNDS  # --rounds: a match (局数) with its 大结算
LANGUAGES = ("zh-Hans", "zh-Hant", "en")
OPTION_NAMES = (*RULE_OPTIONS, *TABLE_OPTIONS)
LANE_SIZES = (3, 5, 5)


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


def parser() -> argparse.ArgumentParser:
    p = command_parser(
        "thirteen play", "Thirteen Water in the terminal against AI seats (no token needed)."
    )
    p.add_argument(
        "--players",
        type=_bounded(int, 2, 5, "a whole number from 2 to 5"),
        default=4,
        help="seats at the table, 2-5, you included (default 4)",
    )
    p.add_argument(
        "--preset",
        default="classic",
        choices=["classic", "extended"],
        help="the rules the table plays: classic or extended (default classic)",
    )
    p.add_argument("--jokers", type=int, choices=[0, 1, 2], default=None, help="0, 1 or 2")
    p.add_argument(
        "--language",
        "--lang",
        dest="language",
        default="zh-Hans",
        choices=LANGUAGES,
        metavar="LANGUAGE",
        help="words at the table: zh-Hans (default), zh-Hant or en",
    )
    p.add_argument("--seed", type=int, default=None, help="reproducible deals (not secret!)")
    p.add_argument(
        "--ai",
        default="normal",
        choices=["easy", "normal", "strong"],
        help="the AI seats' strength (default normal)",
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
        help="seconds between showdown steps (0-60, default 1.5)",
    )
    p.add_argument(
        "--option",
        "-o",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a room option, as often as needed (-o jokers=1 -o wheel=low); the names: "
        + ", ".join(OPTION_NAMES),
    )
    p.add_argument(
        "--auto",
        action="store_true",
        help="AI seats only: print each showdown (and with --rounds, the final results)",
    )
    p.add_argument(
        "--rounds",
        type=_bounded(int, 1, MAX_MATCH, f"a whole number from 1 to {MAX_MATCH}"),
        default=None,
        help=f"play a match of N rounds (1-{MAX_MATCH}): a review after each round, the final "
        "results after the last (default: round after round until you quit; with --auto, "
        "one round)",
    )
    p.add_argument("--db", type=_database, default=None, help="database URL (default: in memory)")
    return p


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    return parser().parse_args(list(argv))


def option_problem(lang: str, option: str) -> str | None:
    """Why ``-o option`` cannot be set (naming the options there are); None
    when its name is known (its value is the table's to judge)."""
    try:
        parse_assignment(option)
    except OptionError as e:
        if e.key == "unknown_option":
            return t(
                lang,
                "cli.unknown_option",
                name=str(e.params.get("name", option))[:24],
                names=", ".join(OPTION_NAMES),
            )
        return t(lang, "err.option", reason=option_reason(lang, e))
    return None


def _language_of(args: argparse.Namespace) -> None:
    """``-o language=en`` is ``--language en``: the console speaks it too."""
    for o in args.option:
        try:
            name, value = parse_assignment(o)
        except OptionError:
            continue
        if name == "language" and value.lower().startswith(("en", "zh")):
            args.language = normalize_language(value)


async def make_repo(url: str | None) -> Any:
    if url:
        from storage.sql import SqlRepository

        repo: Any = SqlRepository(url)
    else:
        from storage.memory import MemoryRepository

        repo = MemoryRepository()
    await repo.init()
    return repo


def lane_categories(lang: str, hand: dict[str, Any], rnd: dict[str, Any]) -> list[str | None]:
    """Each full lane's category in words (None: a lane still filling)."""
    rules = rules_of(rnd["rules"])
    cards = H.cards_of(hand)
    return [
        category(lang, evaluate_lane([cards[i] for i in lane], rules).category.slug)
        if len(lane) == size
        else None
        for lane, size in zip(H.lanes(hand), LANE_SIZES, strict=True)
    ]


class Console:
    """The game at the terminal: sends the person's actions, prints answers.
    ``auto``: nobody sits at the table (``--auto``)."""

    def __init__(self, mgr: TableManager, lang: str, *, auto: bool = False) -> None:
        self.mgr = mgr
        self.lang = lang
        self.auto = auto
        self.room_id: str | None = None
        self.hands = HandPrinter(lang)
        self.words = Words(lang, auto=auto)
        self.last_hand: View | None = None  # my latest hand view (also from timers)
        self.held: list[View] = []  # the final results, printed after my review
        self.announced = 0  # the last round whose deadline arranged my hand

    async def state(self) -> dict[str, Any] | None:
        return await self.mgr.room_state(self.room_id) if self.room_id else None

    async def send(
        self, verb: Verb, arg: str | None = None, *, button: bool = False, quiet: bool = False
    ) -> Outcome:
        round_no = None
        if button and self.room_id:
            st = await self.state()
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
        if not out.ok:
            say(f"⚠️  {out.reply}")
            return out  # nothing changed: the hand stays as it was
        hand = _hand(out)
        if hand is not None:
            self.last_hand = hand
        if out.reply and not quiet:
            say(f"· {out.reply}")
        return out

    async def setup(self, args: argparse.Namespace, seats_for_you: bool) -> bool:
        """Open the room, set the options and seat the AI players; a refused
        option is printed (in the table's words) and ends the game before
        anything else is said."""
        for o in args.option:
            problem = option_problem(self.lang, o)
            if problem is not None:
                say(f"⚠️  {problem}")
                return False
        out = await self.send(Verb.NEW, args.preset, quiet=True)
        if not out.ok:
            return False
        opts = [f"language={self.lang}", f"time={args.time}", *args.option]
        if args.rounds is not None:
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
        st = await self.state()
        if st is None:
            return False
        try:
            # The table takes options that more players could play (someone may
            # still join); here every seat is taken: refuse now, not at the deal.
            rules_for(Room.from_json(st), len(st["players"]))
        except OptionError as e:
            say("⚠️  " + t(self.lang, "err.option", reason=option_reason(self.lang, e)))
            return False
        if seats_for_you:
            say(t(self.lang, "cli.welcome"))
        shown = summary(Room.from_json(st))
        say(
            t(
                self.lang,
                "cli.table_auto" if self.auto else "cli.table",
                players=len(st["players"]),
                preset=t(self.lang, f"preset.{shown['preset']}"),
                seconds=shown["arrange_seconds"],
                ai=t(self.lang, f"ai.{args.ai}"),
            )
        )
        return True

    async def sink(self, views: Sequence[View]) -> None:
        """The table's timer views: reminders, the deadline, the showdown."""
        # My hand first: arranged at the deadline, it is said before the result.
        for v in sorted(views, key=lambda v: v.kind is not ViewKind.HAND):
            if v.kind is ViewKind.HAND:
                self.last_hand = v
                await self.timed_out()
            elif v.meta.get("final"):
                if self.auto:
                    self.words.show(v)
                else:
                    self.held.append(v)  # after the review of the last round
            elif v.kind is ViewKind.SETTLEMENT or (v.kind is ViewKind.NOTICE and not self.auto):
                self.words.show(v)  # the showdown's steps are in the settlement, printed once

    async def timed_out(self) -> None:
        """Say once a round, and before its result, that the table arranged
        my hand at the deadline."""
        st = await self.state()
        rnd = st.get("round") if st else None
        hand = rnd["hands"].get(you(self.lang).key) if rnd else None
        if rnd is None or hand is None or not hand.get("auto") or rnd["no"] == self.announced:
            return
        self.announced = rnd["no"]
        say(t(self.lang, "cli.timeout"))
        if self.last_hand is not None:
            await self.print_hand(self.last_hand)

    def show_held(self) -> None:
        for v in self.held:
            self.words.show(v)
        self.held.clear()

    async def show(self, view: View) -> None:
        """Print a view of the table, its deadline in this computer's time."""
        st = await self.state()
        rnd = st.get("round") if st else None
        deadline = rnd["deadline"] if rnd and st and st["phase"] == Phase.ARRANGING else None
        self.words.show(view, deadline=deadline, now=self.mgr.clock.now())

    async def print_hand(self, view: View, *, whole: bool = False) -> None:
        """Print my hand: each full lane with its category, the deadline in
        this computer's time."""
        st = await self.state()
        rnd = st.get("round") if st else None
        deadline, cats = None, None
        if st and rnd:
            if st["phase"] == Phase.ARRANGING:
                deadline = rnd["deadline"]
            hand = rnd["hands"].get(you(self.lang).key)
            if hand is not None:
                cats = lane_categories(self.lang, hand, rnd)
        self.hands.print(
            view, whole=whole, categories=cats or (), deadline=deadline, now=self.mgr.clock.now()
        )

    async def verify(self, round_no: str | None) -> None:
        """The revealed deck of a round checked against its published hash."""
        out = await self.send(Verb.VERIFY, round_no, button=True, quiet=True)
        for v in out.views:
            self.words.show(v)

    async def rules(self) -> None:
        for v in (await self.send(Verb.RULES, quiet=True)).views:
            self.words.show(v)

    async def phase(self) -> str:
        st = await self.state()
        return st["phase"] if st else Phase.CLOSED

    async def match_over(self) -> bool:
        st = await self.state()
        return bool(st and match.is_over(Room.from_json(st)))

    async def arranging(self) -> bool:
        return await self.phase() == Phase.ARRANGING

    async def seconds_left(self) -> int | None:
        st = await self.state()
        rnd = st.get("round") if st else None
        if not rnd or st is None or st["phase"] != Phase.ARRANGING:
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
        await con.print_hand(con.last_hand, whole=True)

    async def prompt() -> str:
        left = await con.seconds_left()
        return f"({left}s) > " if left is not None else "> "

    while await con.arranging():
        view = con.last_hand
        if view is None or not con.hands.card_numbers(view):
            # Confirmed or declared: the others are AI seats, the showdown follows.
            await asyncio.sleep(0.05)
            continue
        line = await reader.ask(prompt, still=con.arranging)
        if line is None:  # the deadline passed while the prompt waited
            await con.timed_out()
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
        say("⚠️  " + t(con.lang, key, **params))
    elif typed.info == "quit":
        return False
    elif typed.info == "help":
        say(t(con.lang, "cli.help"))
    elif typed.info == "show":
        await con.print_hand(view, whole=True)
    elif typed.info == "rules":
        await con.rules()
    elif typed.info == "verify":
        await con.verify(typed.arg)
    elif typed.picks:
        await place(con, typed.picks, view)
    elif typed.verb is Verb.APPLY and not con.hands.suggestions(view):
        await apply_unseen(con, int(typed.arg or "0"))
    elif typed.verb is not None:
        out = await con.send(typed.verb, typed.arg, button=True)
        if out.ok and con.last_hand is not None:  # a refusal changed nothing
            await con.print_hand(con.last_hand)
    return True


async def apply_unseen(con: Console, index: int) -> None:
    """``a N`` before ``g``: work out the suggestions, then apply the Nth."""
    out = await con.send(Verb.SUGGEST, button=True, quiet=True)
    if not out.ok or con.last_hand is None:
        return
    count = con.hands.suggestions(con.last_hand)
    if index >= count:
        await con.print_hand(con.last_hand)  # the suggestions there are
        say("⚠️  " + t(con.lang, "cli.suggestion_range", count=count))
        return
    out = await con.send(Verb.APPLY, str(index), button=True)
    if out.ok and con.last_hand is not None:
        await con.print_hand(con.last_hand)


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
        await con.print_hand(con.last_hand)


async def between_rounds(con: Console, reader: LineReader) -> bool:
    """The prompt after a round (after a match: the rematch); False to quit."""
    key = "cli.rematch" if await con.match_over() else "cli.next_round"
    while True:
        line = await reader.ask(t(con.lang, key))
        typed = parse_between(line or "")
        if typed is None:
            return True
        if typed.info == "quit":
            return False
        if typed.problem is not None:
            problem, params = typed.problem
            say("⚠️  " + t(con.lang, problem, **params))
        elif typed.info == "help":
            say_list(t(con.lang, "cli.between_help"))
        elif typed.info == "rules":
            await con.rules()
        elif typed.info == "verify":
            await con.verify(typed.arg)


async def interactive(args: argparse.Namespace) -> int:
    repo = await make_repo(args.db)
    rng = random.Random(args.seed) if args.seed is not None else None
    lang = args.language

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
        if not await con.setup(args, seats_for_you=True):
            return 2
        while True:
            say(t(lang, "cli.dealing"))
            out = await con.send(Verb.START, button=True, quiet=True)
            if not out.ok:
                return 2
            for v in out.views:
                if v.kind is ViewKind.TABLE:
                    await con.show(v)
            if not await arrange_round(con, reader):
                break
            while await con.phase() == Phase.SHOWDOWN:
                await asyncio.sleep(min(0.2, args.step + 0.01))
            # The review (复盘) of my hand, now that the showdown is over;
            # after a match's last round, then the final results.
            for v in (await con.send(Verb.REVIEW, button=True, quiet=True)).views:
                con.words.show(v)
            con.show_held()
            if not await between_rounds(con, reader):
                break
    except EOFError:
        pass
    finally:
        await mgr.stop()
        await repo.close()
    say(t(lang, "cli.bye"))
    return 0


async def auto(args: argparse.Namespace) -> int:
    repo = await make_repo(args.db)
    rng = random.Random(args.seed) if args.seed is not None else None
    clock = FakeClock()
    lang = args.language
    mgr = TableManager(
        repo,
        clock=clock,
        arrange_seconds=args.time,
        rng=rng,
        showdown_step_seconds=1.0,
        default_language=lang,
    )
    con = Console(mgr, lang, auto=True)
    mgr.set_sink(con.sink)  # each settlement, and a match's final results
    await mgr.start()
    try:
        if not await con.setup(args, seats_for_you=False):
            return 2
        for _ in range(args.rounds or 1):
            if SCREEN.closed:
                break  # nobody reads the rest (``| head``)
            out = await con.send(Verb.START, button=True, quiet=True)
            if not out.ok:
                return 2
            while await con.phase() == Phase.SHOWDOWN:
                await clock.advance(1.0)
    finally:
        await mgr.stop()
        await repo.close()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    _language_of(args)
    configure_solver(settings_or_exit())
    try:
        return asyncio.run(auto(args) if args.auto else interactive(args))
    except KeyboardInterrupt:
        say("\n" + t(args.language, "cli.bye"))
        return 130
    except Exception as e:  # noqa: BLE001 - a database that cannot be opened, and the like
        from sqlalchemy.exc import SQLAlchemyError

        from storage.api import StorageError

        if not isinstance(e, StorageError | SQLAlchemyError | OSError):
            raise
        reason = str(getattr(e, "orig", None) or e).splitlines()[0][:200]
        print(f"thirteen play: the database cannot be used: {reason}", file=sys.stderr)
        return 1
