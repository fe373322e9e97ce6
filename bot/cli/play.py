"""``python -m bot play``: Thirteen Water in the terminal against AI seats.

Runs the same TableManager and views as the chat bots; the console is one
more platform. Interactive by default; ``--auto --rounds N`` lets AI seats
play N rounds alone and prints each showdown and the totals.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
from collections.abc import Sequence
from typing import Any

from bot.table.actions import Action, Actor, Outcome, Verb
from bot.table.clock import FakeClock, RealClock
from bot.table.manager import TableManager
from bot.views.i18n import t
from bot.views.model import View, ViewKind

CHAT = "console"


def you(lang: str) -> Actor:
    """The person at the terminal, named in their language."""
    return Actor("console", "you", t(lang, "cli.you"))


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="python -m bot play", description="Thirteen Water in the terminal against AI seats."
    )
    p.add_argument("--players", type=int, default=4, help="seats at the table, 2-5 (default 4)")
    p.add_argument("--preset", default="classic", choices=["classic", "extended"])
    p.add_argument("--jokers", type=int, default=None, help="0, 1 or 2")
    p.add_argument("--lang", default="zh-Hans", choices=["zh-Hans", "zh-Hant", "en"])
    p.add_argument("--seed", type=int, default=None, help="reproducible deals (not secret!)")
    p.add_argument(
        "--ai", default="normal", choices=["easy", "normal", "strong"], help="AI strength"
    )
    p.add_argument("--time", type=int, default=120, help="arranging seconds (15-900)")
    p.add_argument("--step", type=float, default=1.5, help="seconds between showdown steps")
    p.add_argument(
        "--option", "-o", action="append", default=[], help="any room option, name=value"
    )
    p.add_argument("--auto", action="store_true", help="AI seats only; print showdowns and totals")
    p.add_argument("--rounds", type=int, default=1, help="rounds to play with --auto")
    p.add_argument("--db", default=None, help="database URL (default: in memory)")
    return p.parse_args(list(argv))


def show(view: View) -> None:
    print()
    if view.title:
        print(f"== {view.title} ==")
    for line in view.lines:
        print(line)


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
    def __init__(self, mgr: TableManager, lang: str) -> None:
        self.mgr = mgr
        self.lang = lang
        self.room_id: str | None = None

    async def send(self, verb: Verb, arg: str | None = None, *, button: bool = False) -> Outcome:
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
        if not out.ok:
            print(f"⚠️  {out.reply}")
        elif out.reply:
            print(f"· {out.reply}")
        return out

    async def setup(self, args: argparse.Namespace, seats_for_you: bool) -> bool:
        out = await self.send(Verb.NEW, args.preset)
        if not out.ok:
            return False
        opts = [f"language={args.lang}", f"time={args.time}", *args.option]
        if args.jokers is not None:
            opts.append(f"jokers={args.jokers}")
        if args.players == 5 and not any(o.startswith(("added_suit", "suit")) for o in args.option):
            opts.append("added_suit=s")
        for o in opts:
            if not (await self.send(Verb.SET_OPTION, o)).ok:
                return False
        for _ in range(args.players - 1):
            if not (await self.send(Verb.ADD_AI, args.ai)).ok:
                return False
        if not seats_for_you:
            # Watch the AI seats play: give up the seat (the owner stays owner
            # while AI seats remain), then an AI takes it.
            await self.send(Verb.LEAVE)
            if not (await self.send(Verb.ADD_AI, args.ai)).ok:
                return False
        return True

    async def phase(self) -> str:
        st = await self.mgr.room_state(self.room_id) if self.room_id else None
        return st["phase"] if st else "closed"


def print_hand(view: View, lang: str) -> dict[int, str]:
    """The hand with numbered cards; returns number -> card index."""
    show(view)
    numbers: dict[int, str] = {}
    cards = []
    for row in view.buttons:
        for b in row:
            if b.action_id and b.action_id.split("|")[3] == Verb.PICK.value:
                n = len(numbers) + 1
                numbers[n] = b.action_id.split("|")[4]
                cards.append(f"[{n}] {b.label}")
    if cards:
        print("  ".join(cards))
        print(t(lang, "cli.commands"))
    return numbers


async def interactive(args: argparse.Namespace) -> int:
    repo = await make_repo(args.db)
    rng = random.Random(args.seed) if args.seed is not None else None
    lang = args.lang

    async def sink(views: Sequence[View]) -> None:
        for v in views:
            if v.kind is not ViewKind.HAND:
                show(v)

    mgr = TableManager(
        repo,
        clock=RealClock(),
        arrange_seconds=args.time,
        rng=rng,
        showdown_step_seconds=args.step,
        default_language=lang,
    )
    mgr.set_sink(sink)
    await mgr.start()
    con = Console(mgr, lang)
    print(t(lang, "cli.welcome"))
    if not await con.setup(args, seats_for_you=True):
        return 2
    try:
        while True:
            print(t(lang, "cli.dealing"))
            out = await con.send(Verb.START, button=True)
            if not out.ok:
                return 2
            for v in out.views:
                if v.kind is ViewKind.TABLE:
                    show(v)
            await arrange_loop(con, lang)
            while await con.phase() == "showdown":
                await asyncio.sleep(min(0.2, args.step + 0.01))
            line = await asyncio.to_thread(input, t(lang, "cli.next_round"))
            if line.strip().lower() in ("q", "quit", "exit"):
                break
    except (EOFError, KeyboardInterrupt):
        print()
    finally:
        await mgr.stop()
        await repo.close()
    return 0


async def arrange_loop(con: Console, lang: str) -> None:
    out = await con.send(Verb.SHOW_HAND, button=True)
    view = next((v for v in out.views if v.kind is ViewKind.HAND), None)
    while view is not None and await con.phase() == "arranging":
        numbers = print_hand(view, lang)
        if not numbers:
            return  # confirmed, declared or auto-arranged
        line = (await asyncio.to_thread(input, "> ")).strip()
        if await con.phase() != "arranging":
            return  # the deadline passed while typing
        new = await run_command(con, line, numbers, lang)
        view = new or view


async def run_command(con: Console, line: str, numbers: dict[int, str], lang: str) -> View | None:
    words = line.replace(",", " ").split()
    if not words:
        return None
    head, rest = words[0].lower(), words[1:]
    if head.isdigit():
        out = None
        for w in words:
            if not w.isdigit() or int(w) not in numbers:
                print("⚠️ " + t(lang, "err.bad_card"))
                break
            out = await con.send(Verb.PICK, numbers[int(w)], button=True)
            if not out.ok:
                break
        return _hand(out)
    simple = {
        "u": Verb.UNDO,
        "undo": Verb.UNDO,
        "r": Verb.RESET,
        "reset": Verb.RESET,
        "g": Verb.SUGGEST,
        "suggest": Verb.SUGGEST,
        "d": Verb.DECLARE,
        "declare": Verb.DECLARE,
        "c": Verb.CONFIRM,
        "confirm": Verb.CONFIRM,
    }
    if head in simple:
        return _hand(await con.send(simple[head], button=True))
    if head in ("s", "sort"):
        how = rest[0] if rest else "suit"
        return _hand(await con.send(Verb.SORT, how, button=True))
    if head in ("a", "apply") and rest and rest[0].isdigit():
        return _hand(await con.send(Verb.APPLY, str(int(rest[0]) - 1), button=True))
    if head in ("q", "quit", "exit"):
        raise EOFError
    if head in ("rules",):
        for v in (await con.send(Verb.RULES)).views:
            show(v)
        return None
    print(t(lang, "cli.help"))
    return None


def _hand(out: Outcome | None) -> View | None:
    if out is None:
        return None
    return next((v for v in out.views if v.kind is ViewKind.HAND), None)


async def auto(args: argparse.Namespace) -> int:
    repo = await make_repo(args.db)
    rng = random.Random(args.seed) if args.seed is not None else None
    clock = FakeClock()
    lang = args.lang

    async def sink(views: Sequence[View]) -> None:
        for v in views:
            if v.kind is ViewKind.SETTLEMENT:
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
    con = Console(mgr, lang)
    if not await con.setup(args, seats_for_you=False):
        return 2
    for _ in range(args.rounds):
        out = await con.send(Verb.START, button=True)
        if not out.ok:
            return 2
        while await con.phase() == "showdown":
            await clock.advance(1.0)
    st = await mgr.room_state(con.room_id) if con.room_id else None
    if st:
        print()
        print(f"== {t(lang, 'cli.totals', rounds=args.rounds)} ==")
        for key, pts in sorted(st["totals"].items(), key=lambda kv: -kv[1]):
            print(f"  {st['names'].get(key, key)}: {pts:+d}")
    await mgr.stop()
    await repo.close()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if not 2 <= args.players <= 5:
        print("--players must be 2 to 5", file=sys.stderr)
        return 2
    return asyncio.run(auto(args) if args.auto else interactive(args))
