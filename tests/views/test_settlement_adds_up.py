"""Every settlement the bot posts adds up, as a player adds it up from what
is printed: in the text (pictures off), in the picture (the lines it draws)
and on the page (its showdown JSON), each pair's written parts sum to the
pair's number, and a player's pair numbers plus the escape payments written
under them make the player's total. Whole seeded matches: the classic and
extended presets, 5 players, jokers, banker mode, an escape, declared
specials, in the three languages."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from bot.core.room import Room
from bot.i18n import t
from bot.pictures import draw_settlement
from bot.pictures.model import SettlementPicture
from bot.platforms.telegram.render import telegram_length
from bot.table.actions import Verb
from bot.views.model import View, ViewKind
from bot.web.showdown import from_state, showdown_json
from tests.printed import numbers, printed_points
from tests.table.helpers import (
    DRAGON,
    OTHER,
    SIX_PAIRS,
    RiggedRandom,
    act,
    make_manager,
    ok,
    open_table,
    press_arrangement,
    rest_of_deck,
    state_of,
)


@dataclass
class Seen:
    """What the checks read, to show the matches reached what they should."""

    settlements: int = 0
    pairs: int = 0
    declared: int = 0
    kinds: set[str] = field(default_factory=set)  # the kinds of written parts met


def _versus_prefix(lang: str) -> str:
    return t(lang, "result.versus_plain", name="", total="").strip()


def _split_versus(lang: str, line: str) -> tuple[str, list[str]]:
    """``对 P1 +3：头道 +1 · …`` -> (``对 P1 +3``, the parts)."""
    sep = "：" if lang.startswith("zh") else ": "
    head, _, parts = line.partition(sep)
    return head, parts.split(" · ") if parts else []


def _kinds(lang: str, parts: list[str], seen: Seen) -> None:
    words = {
        "scoop": t(lang, "part.scoop", factor=2, points="").split()[0],
        "home_run": t(lang, "part.home_run", factor=2, points="").split()[0],
        "special": t(lang, "part.special", special="", points="").split()[0],
        "banker_cap": t(lang, "part.banker_cap", points="").split()[0],
    }
    for part in parts:
        for kind, word in words.items():
            if part.startswith(word):
                seen.kinds.add(kind)


def check_text(view: View, room: Room, seen: Seen) -> None:
    """The text-only settlement: every seat's head line (its total), then a
    line per opponent and its escape payments, indented under it."""
    lang = room.language
    names = {room.names.get(k, k): k for k in room.rnd.seats}
    versus = _versus_prefix(lang)
    special = t(lang, "settle.special", special="", cards="").split()[0]
    blocks: dict[str, tuple[int, list[str]]] = {}
    current: str | None = None
    for line in view.lines:
        if not line.startswith("  "):
            current = None
            for shown, key in names.items():
                if line.startswith(shown + t(lang, "fmt.label", label="", value="").strip()):
                    current = key
                    blocks[key] = (numbers(line.split(shown, 1)[1])[0], [])
        elif current is not None:
            blocks[current][1].append(line.strip())
    assert set(blocks) == set(room.rnd.seats), view.lines
    against: dict[tuple[str, str], int] = {}
    for key, (total, lines) in blocks.items():
        written = []
        for line in lines:
            if line.startswith(special):
                assert numbers(line.split("：" if lang.startswith("zh") else ": ", 1)[0]) == []
                continue
            if line.startswith(versus):
                head, parts = _split_versus(lang, line)
                (pair_total,) = numbers(head)
                assert sum(printed_points(x) for x in parts) == pair_total, line
                opponent = next(k for n, k in names.items() if head.startswith(f"{versus} {n} "))
                against[key, opponent] = pair_total
                _kinds(lang, parts, seen)
                seen.pairs += 1
                written.append(pair_total)
            else:  # an escape payment
                written.append(printed_points(line))
                seen.kinds.add("escape")
        assert sum(written) == total, (key, lines)
        assert total == room.rnd.showdown.settlement.totals[key]
    for (a, b), points in against.items():
        assert against[b, a] == -points  # what one wins the other loses


def check_picture(view: View, room: Room, seen: Seen) -> None:
    """The picture's lines, as drawn, and its short caption's totals."""
    p = view.picture.data
    assert isinstance(p, SettlementPicture)
    lang = p.language
    for i, seat in enumerate(p.seats):
        lines = draw_settlement.seat_lines(p, seat)
        for line in lines:
            if line.label:  # against an opponent: the parts, broken between items
                parts = " · ".join(line.parts).split(" · ")
                assert sum(printed_points(x) for x in parts) == line.points, line
                _kinds(lang, parts, seen)
            else:
                assert printed_points(" ".join(line.parts)) == line.points, line
        assert sum(line.points for line in lines) == seat.total, (seat.name, lines)
        key = room.rnd.seats[i]
        assert seat.total == room.rnd.showdown.settlement.totals[key]
    # the caption: each seat's total, read back
    assert telegram_length(view.text) < 1024
    for seat in p.seats:
        line = next(x for x in view.lines if x.startswith(seat.name))
        assert numbers(line.split(seat.name, 1)[1])[0] == seat.total, line


def check_page(room: Room, seen: Seen) -> None:
    """Each seated player's page: against each opponent the parts and the score."""
    source = from_state(room)
    assert source is not None
    for me in room.rnd.seats:
        body = showdown_json(source, me, room.rnd.no, room.language)
        mine = next(s for s in body["seats"] if s["me"])
        written = [printed_points(x["text"]) for x in mine["escape"]]
        for seat in body["seats"]:
            vs = seat["versus"]
            if seat["me"] or vs is None:  # banker mode: players do not meet
                continue
            texts = [x["text"] for x in vs["parts"]]
            assert sum(printed_points(x) for x in texts) == vs["score"], texts
            written.append(vs["score"])
        assert sum(written) == mine["total"], (me, body)


async def play_and_check(
    mgr, sink, clock, rid, actors, seen: Seen, *, leave=None, declare=(), pictures=True
) -> None:
    """One round: deal, maybe a leaver (``leave``) and declarers, the others
    arrange; then read every settlement posted."""
    start = len(sink.views)
    await ok(mgr, actors[0], Verb.START)
    st = await state_of(mgr, rid)
    no = st["round"]["no"]
    if leave is not None:
        await ok(mgr, leave, Verb.LEAVE)
    for a in actors:
        if a is leave or a.key not in st["round"]["hands"]:
            continue
        declared = a in declare and (await act(mgr, a, Verb.DECLARE, room_id=rid, round_no=no)).ok
        if declared:  # declaring is the hand's last word
            seen.declared += 1
            continue
        if (await state_of(mgr, rid))["phase"] == "arranging":
            await press_arrangement(mgr, rid, a)
    await clock.advance(400)  # the leaver's deadline, the showdown's steps
    room = Room.from_json(await state_of(mgr, rid))
    assert room.rnd.no == no and room.rnd.settled
    posted = [v for v in sink.views[start:] if v.kind is ViewKind.SETTLEMENT]
    assert posted, "a settlement was posted"
    for view in posted:
        if pictures:
            check_picture(view, room, seen)
        else:
            check_text(view, room, seen)
        seen.settlements += 1
    check_page(room, seen)


@pytest.mark.parametrize("pictures", [False, True], ids=["text", "picture"])
@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant", "en"])
async def test_five_players_and_an_escape(repo, clock, lang, pictures) -> None:
    """Classic with the escape penalty on, 5 players (3 humans, 2 AI); in the
    second round a player leaves after the deal."""
    mgr, sink = make_manager(repo, clock, pictures=pictures)
    options = (f"language={lang}", "escape=on", "suit=h")
    rid, actors = await open_table(mgr, 3, ais=2, options=options)
    seen = Seen()
    await play_and_check(mgr, sink, clock, rid, actors, seen, pictures=pictures)
    await play_and_check(mgr, sink, clock, rid, actors, seen, leave=actors[2], pictures=pictures)
    assert seen.settlements >= 2
    if not pictures:
        assert seen.pairs >= 2 * 20 and {"escape", "scoop"} <= seen.kinds, seen


@pytest.mark.parametrize("pictures", [False, True], ids=["text", "picture"])
async def test_extended_with_a_joker_and_an_escape(repo, clock, pictures) -> None:
    """Extended (its escape penalty on), 4 players (2 AI), a joker, three
    rounds; a player leaves after the second deal."""
    mgr, sink = make_manager(repo, clock, pictures=pictures)
    rid, actors = await open_table(mgr, 2, ais=2, preset="extended", options=("jokers=1",))
    seen = Seen()
    await play_and_check(mgr, sink, clock, rid, actors, seen, pictures=pictures)
    await play_and_check(mgr, sink, clock, rid, actors, seen, leave=actors[1], pictures=pictures)
    await play_and_check(mgr, sink, clock, rid, actors[:1], seen, pictures=pictures)
    assert seen.settlements >= 3


@pytest.mark.parametrize("pictures", [False, True], ids=["text", "picture"])
async def test_banker_mode_caps_and_a_declared_dragon(repo, clock, pictures) -> None:
    """Classic with a banker, 4 players: P1 holds a dragon (一条龙, 36, capped
    at 7 against the banker) and declares it."""
    hands = [OTHER, DRAGON, SIX_PAIRS, rest_of_deck()[:13]]
    mgr, sink = make_manager(repo, clock, rng=RiggedRandom(hands), pictures=pictures)
    rid, actors = await open_table(mgr, 4, options=("banker=on", "language=en"))
    seen = Seen()
    await play_and_check(mgr, sink, clock, rid, actors, seen, declare=actors[1:], pictures=pictures)
    assert seen.declared >= 2 and {"special", "banker_cap"} <= seen.kinds, seen


@pytest.mark.parametrize("pictures", [False, True], ids=["text", "picture"])
async def test_declared_specials_over_two_rounds(repo, clock, pictures) -> None:
    """Classic, 4 players, rigged: a declared dragon and six pairs, the
    others compared lane by lane, twice."""
    hands = [DRAGON, SIX_PAIRS, OTHER, rest_of_deck()[:13]]
    mgr, sink = make_manager(repo, clock, rng=RiggedRandom(hands), pictures=pictures)
    rid, actors = await open_table(mgr, 4, options=("language=zh-Hans",))
    seen = Seen()
    for _ in range(2):
        await play_and_check(
            mgr, sink, clock, rid, actors, seen, declare=actors[:2], pictures=pictures
        )
    assert seen.declared >= 4 and "special" in seen.kinds, seen
