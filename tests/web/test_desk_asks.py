"""The page's desk asks the table (bot.core.presses) and never judges a split
itself: it reads the room once a request (the action's outcome carries the
room it stored), a confirm judges its split once however many ask, and
what the table would refuse is refused before any action."""

from __future__ import annotations

import ast
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.core import presses
from bot.core.verbs import Verb
from bot.web.desk import Desk, DeskError, Draft
from bot.web.passes import Pass
from tests.web.harness import HAND, SIX_PAIRS_16, Stage, stage

DESK = Path(__file__).resolve().parents[2] / "bot" / "web" / "desk.py"
# HAND split in order (the spade flush in the tail), and with the flush in the middle (fouled).
IN_ORDER = (["4d", "3s", "2c"], ["8h", "8d", "7c", "6c", "5h"], ["As", "Ks", "Qs", "Js", "9s"])
FOULED = (["4d", "3s", "2c"], ["As", "Ks", "Qs", "Js", "9s"], ["8h", "8d", "7c", "6c", "5h"])


class Counted:
    """The desk's table, its reads and actions counted by request."""

    def __init__(self, st: Stage) -> None:
        self.manager = st.manager
        self.request = "setup"
        self.reads: Counter[str] = Counter()
        self.actions: list[Verb] = []

    async def room(self, room_id: str) -> Any:
        self.reads[self.request] += 1
        return await self.manager.room(room_id)

    async def handle(self, action: Any) -> Any:
        self.actions.append(action.verb)
        return await self.manager.handle(action)

    async def round_settlement(self, room_id: str, round_no: int) -> Any:
        return await self.manager.round_settlement(room_id, round_no)


def draft_of(tokens: list[str], lanes: tuple[list[str], list[str], list[str]]) -> Draft:
    return Draft(*(tuple(tokens.index(x) for x in lane) for lane in lanes))


def grant_of(st: Stage) -> Pass:
    p = st.players[0]
    return Pass(p.platform, p.user_id, st.room, st.round_no, int(time.time()) + 60)


async def test_each_request_reads_the_room_once() -> None:
    async with stage(serve=False) as st:
        table = Counted(st)
        desk = Desk(table, clock=st.clock.now)
        grant = grant_of(st)
        draft = draft_of(HAND, IN_ORDER)
        partial = Draft(draft.head, (), ())
        calls = {
            "hand": lambda: desk.hand(grant),
            "evaluate": lambda: desk.evaluate(grant, draft),
            "suggest": lambda: desk.suggest(grant),
            "lay": lambda: desk.lay(grant, partial),
            "lay again": lambda: desk.lay(grant, partial),  # the hand shows it: no action
            "confirm": lambda: desk.confirm(grant, draft),
        }
        for name, call in calls.items():
            table.request = name
            shown = await call()
            assert set(shown["labels"]) == {"head", "middle", "tail"}
        assert table.reads == dict.fromkeys(calls, 1)
        assert table.actions == [Verb.SUGGEST, Verb.LAY, Verb.CONFIRM]
        stored = {lane: sorted(tokens) for lane, tokens in (await st.lanes()).items()}
        assert shown["done"] and stored == {
            lane: sorted(tokens)
            for lane, tokens in zip(("head", "middle", "tail"), IN_ORDER, strict=True)
        }


async def test_sixteen_cards_declare_reads_once() -> None:
    async with stage((SIX_PAIRS_16, HAND + ["Qc", "Tc", "6d"]), serve=False) as st:
        table = Counted(st)
        desk = Desk(table, clock=st.clock.now)
        table.request = "declare"
        pairs = SIX_PAIRS_16[:13]
        shown = await desk.declare(
            grant_of(st), draft_of(SIX_PAIRS_16, (pairs[:3], pairs[3:8], pairs[8:]))
        )
        assert shown["declared"] and table.reads == {"declare": 1}
        assert table.actions == [Verb.DECLARE]


async def test_a_confirm_judges_its_split_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The desk's question, the transition's check, the stored hand's mark,
    its view and picture and the desk's answer share one judgement
    (was four: the desk's foul check, two in the transition and the desk's
    lane labels)."""
    computed: list[object] = []
    judged = presses._judged

    def counted(*args: Any) -> presses.Judgement:
        computed.append(args)
        return judged(*args)

    async with stage(serve=False) as st:
        desk = Desk(st.manager, clock=st.clock.now)
        monkeypatch.setattr(presses, "_judged", counted)
        monkeypatch.setattr(presses, "_JUDGED", presses._Cache(64))
        shown = await desk.confirm(grant_of(st), draft_of(HAND, IN_ORDER))
        assert shown["done"] and shown["foul"] is None
        assert len(computed) == 1


@pytest.mark.parametrize(
    ("lanes", "code"),
    [
        (FOULED, "web.err.fouled"),
        ((IN_ORDER[0], IN_ORDER[1], IN_ORDER[2][:4]), "web.err.incomplete"),
    ],
    ids=["fouled", "incomplete"],
)
async def test_what_the_table_would_refuse_is_refused_before_any_action(
    lanes: tuple[list[str], list[str], list[str]], code: str
) -> None:
    async with stage(serve=False) as st:
        table = Counted(st)
        desk = Desk(table, clock=st.clock.now)
        with pytest.raises(DeskError) as refusal:
            await desk.confirm(grant_of(st), draft_of(HAND, lanes))
        assert refusal.value.code == code and table.actions == []
        assert not (await st.hand())["done"]


async def test_a_confirmed_hand_is_refused_before_any_action() -> None:
    async with stage(serve=False) as st:
        table = Counted(st)
        desk = Desk(table, clock=st.clock.now)
        grant = grant_of(st)
        await desk.confirm(grant, draft_of(HAND, IN_ORDER))
        for call in (
            lambda: desk.confirm(grant, draft_of(HAND, IN_ORDER)),
            lambda: desk.lay(grant, draft_of(HAND, IN_ORDER)),
            lambda: desk.suggest(grant),
            lambda: desk.declare(grant),
        ):
            with pytest.raises(DeskError) as refusal:
                await call()
            assert refusal.value.code == "web.err.already_done"
        assert table.actions == [Verb.CONFIRM]


def test_the_desk_imports_no_judging_and_no_table() -> None:
    """It asks ``bot.core.presses``: no foul, lane or special of its own, no
    table internals."""
    imported = set()
    for node in ast.walk(ast.parse(DESK.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
        elif isinstance(node, ast.Import):
            imported.update(a.name for a in node.names)
    assert "bot.core.presses" in imported
    judging = ("bot.rules.foul", "bot.rules.lanes", "bot.rules.specials", "bot.table", "bot.solver")
    assert not [m for m in imported if m.startswith(judging)]
