"""The :class:`Console`: the person at the terminal as one more platform.

It sends the person's actions to the same TableManager the chat bots use,
sets up the room (options, AI seats), and prints what comes back (the
answers, the hand with each full lane's category, the timer's views) in
terminal words.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
from collections.abc import Sequence

from bot.core.hand import Hand
from bot.core.options import rules_for
from bot.core.room import Room
from bot.core.round import Round
from bot.core.state import Phase
from bot.i18n import t
from bot.rules.lanes import evaluate_lane
from bot.rules.options import OptionError
from bot.table import match
from bot.table.actions import Action, Actor, Outcome, Verb
from bot.table.manager import TableManager
from bot.views.model import View, ViewKind
from bot.views.render_common import category, option_reason

from .play_options import option_problem
from .result_words import ShowdownSteps, result_lines, review_lines
from .screen import say
from .terminal_words import HandPrinter, Words

CHAT = "console"
LANE_SIZES = (3, 5, 5)


def you(lang: str) -> Actor:
    """The person at the terminal, named in their language."""
    return Actor("console", "you", t(lang, "cli.you"))


def lane_categories(lang: str, hand: Hand, rnd: Round) -> list[str | None]:
    """Each full lane's category in words (None: a lane still filling)."""
    rules = rnd.game_rules()
    cards = hand.card_list()
    return [
        category(lang, evaluate_lane([cards[i] for i in lane], rules).category.slug)
        if len(lane) == size
        else None
        for lane, size in zip(hand.lanes(), LANE_SIZES, strict=True)
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
        self.steps = ShowdownSteps(lang)  # the showdown printed as it happens
        self.settlement: View | None = None  # the last round's, whole (``l``)
        self.results_shown = 0  # the last round whose result was printed
        self.pending: list[View] = []  # table views of my last action, not yet printed

    async def state(self) -> Room | None:
        return await self.mgr.room(self.room_id) if self.room_id else None

    async def send(
        self, verb: Verb, arg: str | None = None, *, button: bool = False, quiet: bool = False
    ) -> Outcome:
        round_no = None
        if button and self.room_id:
            st = await self.state()
            round_no = st.round_no if st else None
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
        # My confirm began the showdown: its first step, printed after my hand.
        self.pending += [v for v in out.views if v.kind in (ViewKind.TABLE, ViewKind.SHOWDOWN)]
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
            rules_for(st, len(st.players))
        except OptionError as e:
            say("⚠️  " + t(self.lang, "err.option", reason=option_reason(self.lang, e)))
            return False
        if seats_for_you:
            say(t(self.lang, "cli.welcome"))
        say(
            t(
                self.lang,
                "cli.table_auto" if self.auto else "cli.table",
                players=len(st.players),
                preset=t(self.lang, f"preset.{st.preset}"),
                seconds=st.options.arrange_seconds,
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
            elif v.kind in (ViewKind.TABLE, ViewKind.SHOWDOWN):
                self.show_step(v)
            elif v.kind is ViewKind.SETTLEMENT and not self.auto:
                self.settlement = v
                await self.show_result(v)
                self.results_shown = int(v.meta.get("round", "0"))
            elif v.kind is ViewKind.SETTLEMENT or (v.kind is ViewKind.NOTICE and not self.auto):
                self.words.show(v)  # --auto: the whole settlement, nobody asks for it

    def flush_steps(self) -> None:
        """The showdown steps my last action began, after its answer."""
        views, self.pending = self.pending, []
        for v in views:
            self.show_step(v)

    def show_step(self, view: View) -> None:
        """A showdown's new step (heads, middles, tails, specials) as it comes;
        ``--auto`` prints the whole settlement instead."""
        if view.kind in (ViewKind.TABLE, ViewKind.SHOWDOWN) and not self.auto:
            for line in self.steps.new_lines(view):
                say(line)

    async def show_result(self, view: View) -> None:
        """The round's result on one screen: each player against each
        opponent, the totals; the whole of it on ``l``."""
        st = await self.state()
        if st is None or st.round is None or not st.round.settled:
            self.words.show(view)
            return
        say()
        say(f"== {view.title} ==")
        for line in result_lines(self.lang, st):
            say(line)

    def show_settlement(self) -> None:
        """The last round's whole settlement: every lane, every pair, the
        deck and its salt."""
        if self.settlement is not None:
            self.words.show(self.settlement)

    def show_review(self, view: View) -> None:
        say()
        say(f"== {view.title} ==")
        for line in review_lines(self.lang, view):
            say(line)

    async def timed_out(self) -> None:
        """Say once a round, and before its result, that the table arranged
        my hand at the deadline."""
        st = await self.state()
        rnd = st.round if st else None
        hand = rnd.hands.get(you(self.lang).key) if rnd else None
        if rnd is None or hand is None or not hand.auto or rnd.no == self.announced:
            return
        self.announced = rnd.no
        say(t(self.lang, "cli.timeout"))
        self.hands.printed.add(t(self.lang, "hand.auto"))  # said just now
        if self.last_hand is not None:
            await self.print_hand(self.last_hand)

    def show_held(self) -> None:
        for v in self.held:
            self.words.show(v)
        self.held.clear()

    def show(self, view: View) -> None:
        """Print the table's view of the deal; the deadline is said once, on
        my hand just below it."""
        self.words.show(view)

    async def print_hand(self, view: View, *, whole: bool = False) -> None:
        """Print my hand: each full lane with its category, the deadline in
        this computer's time."""
        st = await self.state()
        rnd = st.round if st else None
        deadline, cats = None, None
        if st and rnd:
            if st.phase is Phase.ARRANGING:
                deadline = rnd.deadline
            hand = rnd.hands.get(you(self.lang).key)
            if hand is not None:
                cats = lane_categories(self.lang, hand, rnd)
        if any(v.meta.get("phase") == "showdown" for v in self.pending):
            # My confirm was the last: nobody is waited for, the showdown begins.
            done = t(self.lang, "hand.confirmed")
            lines = tuple(
                t(self.lang, "cli.confirmed_last") if x == done else x for x in view.lines
            )
            view = dataclasses.replace(view, lines=lines)
        self.hands.print(
            view, whole=whole, categories=cats or (), deadline=deadline, now=self.mgr.clock.now()
        )
        self.flush_steps()

    async def verify(self, round_no: str | None) -> None:
        """The revealed deck of a round checked against its published hash."""
        st = await self.state()
        played = st.round_no if st else 0
        if round_no is not None and int(round_no) > played:
            say("⚠️  " + t(self.lang, "cli.no_round", round=round_no, played=played))
            return
        out = await self.send(Verb.VERIFY, round_no, button=True, quiet=True)
        for v in out.views:
            self.words.show(v)

    async def rules(self) -> None:
        for v in (await self.send(Verb.RULES, quiet=True)).views:
            self.words.show(v)

    async def result_printed(self, step: float) -> None:
        """Wait until the showdown is over and its result printed (the
        table prints it after it has stored the round, a moment later)."""
        while await self.phase() is Phase.SHOWDOWN:
            await asyncio.sleep(min(0.2, step + 0.01))
        st = await self.state()
        for _ in range(100):  # a result that never comes: go on after 5 s
            if st is None or self.results_shown >= st.round_no:
                return
            await asyncio.sleep(0.05)

    async def phase(self) -> Phase:
        st = await self.state()
        return st.phase if st else Phase.CLOSED

    async def match_over(self) -> bool:
        st = await self.state()
        return bool(st and match.is_over(st))

    async def arranging(self) -> bool:
        return await self.phase() is Phase.ARRANGING

    async def seconds_left(self) -> int | None:
        st = await self.state()
        rnd = st.round if st else None
        if rnd is None or st is None or st.phase is not Phase.ARRANGING:
            return None
        return max(0, int(rnd.deadline - self.mgr.clock.now()))


def _hand(out: Outcome | None) -> View | None:
    if out is None:
        return None
    return next((v for v in out.views if v.kind is ViewKind.HAND), None)
