"""Shared helpers of the table tests: a manager on a fake clock, a rigged
random source to deal chosen hands, drivers that press buttons, and a gate
that holds the solver while the others tap."""

from __future__ import annotations

import asyncio
import inspect
import random
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from bot.rules.cards import parse_card, sort_by_count, sort_by_rank, sort_by_suit
from bot.rules.foul import check_foul
from bot.rules.options import Rules
from bot.rules.types import Arrangement
from bot.table.actions import Action, Actor, Outcome, Verb
from bot.table.clock import FakeClock
from bot.table.deal import deal_order
from bot.table.manager import TableManager
from bot.views.model import View
from tests.stored import stored_json

CHAT = "chat-1"


def human(n: int, platform: str = "telegram") -> Actor:
    return Actor(platform, str(100 + n), f"P{n}")


class Recorder:
    """The sink: every view pushed without an action, in order."""

    def __init__(self) -> None:
        self.views: list[View] = []

    async def __call__(self, views: Sequence[View]) -> None:
        self.views.extend(views)

    def keys(self) -> list[str]:
        return [v.key for v in self.views]


class RiggedRandom(random.Random):
    """Deals chosen hands: the dice always show 1 + 1, seats stay in join
    order, and the deck is laid out so seat i receives ``hands[i]``."""

    def __init__(self, hands: Sequence[Sequence[str]], style: str = "one") -> None:
        super().__init__(7)
        self.hands = [list(h) for h in hands]
        self.style = style

    def randint(self, a: int, b: int) -> int:
        return 1

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        n = len(self.hands)
        if len(x) == n:
            return  # the seats: keep join order
        per = len(self.hands[0])
        first = (2 - 1) % n
        pools = [list(h) for h in self.hands]
        deck = [pools[seat].pop(0) for seat in deal_order(n, per, first, self.style)]
        rest = list(x)
        for tok in deck:
            rest.remove(tok)
        x[:] = deck + rest


# Seat 0's straight flush, four aces and three kings beat whatever seats 1
# and 2 make of theirs, lane by lane (no special among the three hands): a
# scoop (打枪) of each, a home run (全垒打) with three players.
SCOOPING_DEAL = (
    ["9s", "Ts", "Js", "Qs", "Ks", "As", "Ah", "Ad", "Ac", "2c", "Kh", "Kd", "Kc"],
    ["2d", "2h", "3c", "3s", "4d", "4s", "6h", "6c", "7c", "7d", "9d", "Jh", "Qd"],
    ["5c", "5d", "8h", "8d", "Tc", "Th", "Jc", "Jd", "9h", "3d", "4h", "Qc", "2s"],
)

# A dragon (一条龙), six pairs (六对半) and a plain hand, with the rest of
# the deck (``rest_of_deck``): rigged deals of declared specials.
DRAGON = ["2s", "3h", "4d", "5c", "6s", "7h", "8d", "9c", "Ts", "Jh", "Qd", "Kc", "Ah"]
SIX_PAIRS = ["2h", "2d", "5h", "5d", "7s", "7c", "9h", "9d", "Jc", "Jd", "Kh", "Kd", "3c"]
OTHER = ["3s", "4h", "6d", "8c", "Th", "Qc", "As", "4s", "6h", "8s", "Tc", "Qh", "Ad"]


def rest_of_deck() -> list[str]:
    used = set(DRAGON + SIX_PAIRS + OTHER)
    ranks = "23456789TJQKA"
    return [r + s for s in "shdc" for r in ranks if r + s not in used]


def make_manager(
    repo: Any, clock: FakeClock, rng: random.Random | None = None, **kw: Any
) -> tuple[TableManager, Recorder]:
    kw.setdefault("arrange_seconds", 120)
    kw.setdefault("reminder_seconds", 30)
    kw.setdefault("showdown_step_seconds", 2)
    mgr = TableManager(repo, clock=clock, rng=rng or random.Random(1234), **kw)
    rec = Recorder()
    mgr.set_sink(rec)
    return mgr, rec


async def act(
    mgr: TableManager,
    actor: Actor,
    verb: Verb,
    arg: str | None = None,
    *,
    room_id: str | None = None,
    round_no: int | None = None,
    chat_id: str = CHAT,
) -> Outcome:
    return await mgr.handle(
        Action(actor, verb, chat_id=chat_id, room_id=room_id, round_no=round_no, arg=arg)
    )


async def ok(
    mgr: TableManager, actor: Actor, verb: Verb, arg: str | None = None, **kw: Any
) -> Outcome:
    out = await act(mgr, actor, verb, arg, **kw)
    assert out.ok, (verb, arg, out.reply)
    return out


async def refused(mgr, repo, rid, actor, verb, arg=None, **kw):  # type: ignore[no-untyped-def]
    """``actor``'s ``verb`` is refused with a short reason, and the stored
    room is exactly as it was."""
    before = await repo.load_room(rid)
    out = await act(mgr, actor, verb, arg, **kw)
    after = await repo.load_room(rid)
    assert not out.ok, (verb, arg)
    assert out.reply  # a short reason for the actor
    assert after.version == before.version and after.state == before.state
    return out


async def open_table(
    mgr: TableManager,
    humans: int,
    ais: int = 0,
    preset: str = "classic",
    options: Sequence[str] = (),
    ai_level: str = "normal",
    *,
    actors: Sequence[Actor] | None = None,
    chat_id: str = CHAT,
) -> tuple[str, list[Actor]]:
    """A room in ``chat_id`` opened by the first of ``humans`` people
    (``actors``, by default ``human(0)``, ``human(1)``, …), the others
    joined, ``ais`` AI seats added, ``options`` set; not dealt."""
    actors = list(actors) if actors is not None else [human(i) for i in range(humans)]
    assert len(actors) == humans
    out = await ok(mgr, actors[0], Verb.NEW, preset, chat_id=chat_id)
    rid = out.room_id
    assert rid
    for a in actors[1:]:
        await ok(mgr, a, Verb.JOIN, chat_id=chat_id)
    for _ in range(ais):
        await ok(mgr, actors[0], Verb.ADD_AI, ai_level, chat_id=chat_id)
    for o in options:
        await ok(mgr, actors[0], Verb.SET_OPTION, o, chat_id=chat_id)
    return rid, actors


async def state_of(mgr: TableManager, rid: str) -> dict[str, Any]:
    st = await stored_json(mgr, rid)
    assert st is not None
    return st


async def press_arrangement(mgr: TableManager, rid: str, actor: Actor) -> Outcome:
    """Arrange one hand by tapping cards (the solver's choice), then confirm
    (its outcome returned)."""
    from bot.core.round import rules_of
    from bot.solver import auto_arrange

    st = await state_of(mgr, rid)
    rnd = st["round"]
    hand = rnd["hands"][actor.key]
    rules = rules_of(rnd["rules"])
    arr = auto_arrange([parse_card(t) for t in hand["cards"]], rules)
    head, middle, tail = lane_indexes(hand["cards"], arr)
    for i in head + middle + (tail if len(hand["cards"]) > 13 else []):
        await ok(mgr, actor, Verb.PICK, str(i), room_id=rid, round_no=rnd["no"])
    return await ok(mgr, actor, Verb.CONFIRM, room_id=rid, round_no=rnd["no"])


def lane_indexes(cards: Sequence[str], arrangement: Arrangement) -> list[list[int]]:
    """Where each lane's cards of ``arrangement`` stand in the dealt
    ``cards`` (tokens), head, middle and tail: the indexes a player taps."""
    parsed = [parse_card(t) for t in cards]
    taken: set[int] = set()
    lanes = []
    for lane in (arrangement.head, arrangement.middle, arrangement.tail):
        out = []
        for card in lane:
            i = next(j for j, c in enumerate(parsed) if j not in taken and c == card)
            taken.add(i)
            out.append(i)
        lanes.append(out)
    return lanes


def quick_split(cards: Sequence[str], rules: Rules) -> Arrangement | None:
    """A legal split of 13 ``cards`` as a quick player makes one, without
    the solver: the first of three cheap orders (grouped, by suit, by rank;
    the strongest five to the tail) that does not foul; None when all do."""
    parsed = [parse_card(t) for t in cards]
    for order in (sort_by_count(parsed), sort_by_suit(parsed), sort_by_rank(parsed)):
        arrangement = Arrangement.of(order[10:], order[5:10], order[:5])
        if check_foul(arrangement, rules) is None:
            return arrangement
    return None


async def play_round(
    mgr: TableManager, clock: FakeClock, rid: str, actors: Sequence[Actor]
) -> dict[str, Any]:
    """Start a round, arrange every human hand by taps, run the showdown."""
    await ok(mgr, actors[0], Verb.START)
    for a in actors:
        st = await state_of(mgr, rid)
        if st["phase"] == "arranging" and a.key in st["round"]["hands"]:
            await press_arrangement(mgr, rid, a)
    await clock.advance(30)  # showdown steps
    st = await state_of(mgr, rid)
    assert st["phase"] == "lobby", st["phase"]
    return st


# An argument each verb could plausibly carry on a button: what a forger sends
# when trying every action kind against a room.
FORGED_ARGS: dict[Verb, str | None] = {
    Verb.NEW: "classic",
    Verb.SET_OPTION: "jokers=1",
    Verb.ADD_AI: "easy",
    Verb.REMOVE_AI: "1",
    Verb.REMOVE_PLAYER: "1",
    Verb.LANGUAGE: "en",
    Verb.PICK: "0",
    Verb.SORT: "rank",
    Verb.APPLY: "0",
    Verb.LEADERBOARD: "all",
    Verb.VERIFY: "1",
}


class Counting:
    """Counts the awaited calls made on a repository."""

    def __init__(self, repo: Any) -> None:
        self.calls: list[str] = []
        # each call with the task that made it (a delivery lane is a task of its own)
        self.made: list[tuple[str, asyncio.Task[Any] | None]] = []
        for name in dir(repo):
            method = getattr(repo, name)
            if not name.startswith("_") and inspect.iscoroutinefunction(method):
                setattr(repo, name, self._wrap(name, method))

    def of(self, task: asyncio.Task[Any]) -> list[str]:
        """The calls ``task`` made itself."""
        return [name for name, by in self.made if by is task]

    def clear(self) -> None:
        self.calls.clear()
        self.made.clear()

    def _wrap(self, name: str, method: Any) -> Any:
        async def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls.append(name)
            self.made.append((name, asyncio.current_task()))
            return await method(*args, **kwargs)

        return counted


# Long enough for any machine to answer a tap; reached only by a tap that waits for the room.
HANG_GUARD = 60.0


class Gate:
    """A solver function whose first ``hold`` calls wait for ``release``;
    every call's cards are kept in ``calls``."""

    def __init__(self, real: Callable[..., Any], hold: int = 1) -> None:
        self.real = real
        self.hold = hold
        self.calls: list[tuple[str, ...]] = []
        self.reached = threading.Event()
        self.release = threading.Event()

    def __call__(self, cards: Any, *args: Any, **kwargs: Any) -> Any:
        self.calls.append(tuple(c.token for c in cards))
        if len(self.calls) <= self.hold:
            self.reached.set()
            assert self.release.wait(HANG_GUARD), "the solver was never released"
        return self.real(cards, *args, **kwargs)

    async def until_reached(self) -> None:
        assert await asyncio.to_thread(self.reached.wait, HANG_GUARD), "the solver never ran"


def held(monkeypatch: Any, name: str) -> Iterator[Gate]:
    """``bot.table.solving.<name>`` held on a ``Gate`` (a fixture's body:
    released when the test ends, so a failed test leaves no thread waiting)."""
    from bot.table import solving

    gate = Gate(getattr(solving, name))
    monkeypatch.setattr(solving, name, gate)
    try:
        yield gate
    finally:
        gate.release.set()


# Hands of the keyboard tests (tests/telegram/test_lanes.py, tests/discord/test_lanes.py).
# Ann sees a flush for the tail first, a straight for the middle; the head
# is what is left (a pair of eights).
ANN_HAND = ["As", "Ks", "Qs", "Js", "9s", "8h", "8d", "7c", "6c", "5h", "4d", "3s", "2c"]
ANN_TAIL = ["As", "Ks", "Qs", "Js", "9s"]
ANN_MIDDLE = ["7c", "6c", "5h", "4d", "3s"]
# Bo taps a head and a 2-to-6 straight for the middle: the tail left to him
# (a pair of tens) is weaker than the middle, a foul (middle over tail).
BO_HAND = ["Ah", "Kh", "Qh", "Jh", "Th", "9h", "7h", "6h", "5d", "4h", "3h", "2h", "Td"]
BO_HEAD = ["Ah", "Kh", "Qh"]
BO_MIDDLE = ["6h", "5d", "4h", "3h", "2h"]
