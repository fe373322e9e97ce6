"""``thirteen play``: Thirteen Water in the terminal against AI seats.

Runs the same TableManager and views as the chat bots; the console is one
more platform (``play_console.py`` sends the actions and prints the answers,
``screen.py`` reads the lines, ``typed.py`` reads the commands in them,
``terminal_words.py`` prints the views in terminal words, and
``play_options.py`` parses the arguments). Interactive by default;
``--rounds N`` plays a match of N rounds with a review after each and the
final results after the last; ``--auto`` lets AI seats play alone and
prints each showdown. No token is needed.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
from collections.abc import Sequence
from typing import Any

from bot.cli import configure_solver, settings_or_exit
from bot.core.state import Phase
from bot.i18n import t
from bot.table.actions import Verb
from bot.table.clock import FakeClock, RealClock
from bot.table.manager import TableManager
from bot.views.keys import KeyKind
from bot.views.model import View, ViewKind

from .line_editing import EditedLines, Editor, readline_module, run_edited
from .play_console import Console
from .play_options import _language_of, parse_args
from .screen import SCREEN, LineReader, LineSource, say, say_list
from .terminal_words import extra_three
from .typed import Typed, parse, parse_between


async def make_repo(url: str | None) -> Any:
    if url:
        from storage.sql import SqlRepository

        repo: Any = SqlRepository(url)
    else:
        from storage.memory import MemoryRepository

        repo = MemoryRepository()
    await repo.init()
    return repo


async def arrange_round(con: Console, reader: LineSource) -> bool:
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
        con.flush_steps()
    return True


async def run_typed(con: Console, typed: Typed, view: View) -> bool:
    """Carry out one typed line; False to quit."""
    if typed.problem is not None:
        key, params = typed.problem
        say("⚠️  " + t(con.lang, key, **params))
    elif typed.info == "quit":
        return False
    elif typed.info == "help":
        text = t(con.lang, "cli.help")
        if extra_three(con.lang, view):  # 多三张: the tail is placed too
            count = len(con.hands.card_numbers(view)) - 13
            text = t(con.lang, "cli.extra_three", count=count) + "\n" + text.split("\n", 1)[-1]
        say(text)
    elif typed.info == "show":
        await con.print_hand(view, whole=True)
    elif typed.info == "rules":
        await con.rules()
    elif typed.info == "verify":
        await con.verify(typed.arg)
    elif typed.lane is not None:
        out = await con.send(Verb.LANE, str(typed.lane), button=True, quiet=True)
        if out.ok and con.last_hand is not None:
            if typed.picks:
                await place(con, typed.picks, con.last_hand)
            else:
                await con.print_hand(con.last_hand)
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


async def between_rounds(con: Console, reader: LineSource) -> bool:
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
        elif typed.info == "show":
            con.show_settlement()
        elif typed.info == "verify":
            await con.verify(typed.arg)


async def interactive(args: argparse.Namespace, editor: Editor | None = None) -> int:
    """A game at the terminal; ``editor``: readline edits the prompt."""
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
        pictures=False,  # a terminal shows text: the settlement's whole text
    )
    con = Console(mgr, lang)
    mgr.set_sink(con.sink)
    await mgr.start()
    try:
        reader: LineSource = EditedLines(editor) if editor else LineReader()
        if not await con.setup(args, seats_for_you=True):
            return 2
        while True:
            say(t(lang, "cli.dealing"))
            out = await con.send(Verb.START, button=True, quiet=True)
            if not out.ok:
                return 2
            for v in out.views:
                if v.kind is ViewKind.TABLE:
                    con.show(v)
            if not await arrange_round(con, reader):
                break
            await con.result_printed(args.step)
            # The review (复盘) of my hand, now that the showdown is over;
            # after a match's last round, then the final results.
            for v in (await con.send(Verb.REVIEW, button=True, quiet=True)).views:
                if v.view_key.kind is KeyKind.REVIEW:
                    con.show_review(v)
                else:
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
        pictures=False,  # a terminal shows text: the settlement's whole text
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
            while await con.phase() is Phase.SHOWDOWN:
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
        if args.auto:
            return asyncio.run(auto(args))
        readline = readline_module()
        if readline is None:  # input from a file or a pipe, or no readline here
            return asyncio.run(interactive(args))
        editor = Editor(readline)
        return run_edited(editor, lambda: interactive(args, editor))
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
