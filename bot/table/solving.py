"""The table's calls into the rules engine and the solver, in one place.

Imports are lazy so the table package imports even while a dependency is
being rebuilt, and so the console starts fast. The solver takes 16-card
hands (多三张) itself and returns 13-card arrangements.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
import time
from collections.abc import Sequence
from typing import Any

from bot.core.hand import Suggestion
from bot.core.round import Round
from bot.core.showdown import Settlement
from bot.core.state import LANE_NAMES
from bot.rules.cards import Card, parse_card
from bot.rules.options import Rules
from bot.rules.settlement_types import SpecialResult
from bot.rules.types import Arrangement, Lane


def detect(cards: Sequence[Card], rules: Rules) -> SpecialResult | None:
    if len(cards) != 13:
        return None
    from bot.rules.specials import detect_special

    return detect_special(list(cards), rules)


def foul_lanes(arr: Arrangement, rules: Rules) -> list[list[str]]:
    from bot.rules.foul import check_foul

    report = check_foul(arr, rules)
    if report is None:
        return []
    return [[LANE_NAMES[a], LANE_NAMES[b]] for a, b in report.pairs]


def auto_arrange(cards: Sequence[Card], rules: Rules) -> Arrangement:
    from bot.solver import auto_arrange as solver_auto

    return solver_auto(list(cards), rules)


def ai_arrange(
    cards: Sequence[Card], rules: Rules, strength: str, opponents: Sequence[str | None] = ()
) -> tuple[Arrangement, bool]:
    """An AI seat's arrangement; ``opponents``: the other seats' AI levels
    (None for a person)."""
    from bot.solver import ai_arrange as solver_ai

    arr, declare = solver_ai(list(cards), rules, strength, opponents=list(opponents) or None)
    return arr, bool(declare)


def suggestions(
    cards: Sequence[Card],
    rules: Rules,
    players: int,
    top: int = 3,
    banker: bool = False,
    opponents: Sequence[str | None] = (),
) -> list[Suggestion]:
    """The solver's best arrangements, each with its expected points
    against this table (``opponents``: the other seats' AI levels, None for a
    person). A 16-card hand gets 13-card arrangements; the cards left out
    are discarded."""
    from bot.solver import suggest

    s = suggest(
        list(cards),
        rules,
        players=players,
        top=top,
        banker=banker,
        opponents=list(opponents) or None,
    )
    out: list[Suggestion] = []
    # Declaring may be worth more than any arrangement: the hand view says so.
    out_tip = s.special is not None and s.declare_recommended
    for item in s.items[:top]:
        tokens = item.arrangement.to_tokens()
        out.append(
            Suggestion(
                head=tuple(tokens["head"]),
                middle=tuple(tokens["middle"]),
                tail=tuple(tokens["tail"]),
                score=round(float(item.score), 2),
                cats=tuple(c.slug for c in item.lanes),
                declare_better=out_tip,
            )
        )
    return out


def settle_round(
    rnd: Round, rules: Rules
) -> tuple[Settlement, dict[str, tuple[str, ...]], list[str]]:
    """Settle the round's hands: the settlement, the reveal order of
    each lane (weakest first, declared specials left out) and the declared
    specials (weakest first)."""
    from bot.rules.lanes import evaluate_lane
    from bot.rules.settlement import settle
    from bot.rules.settlement_types import PlayerHand

    hands = []
    values: dict[str, list[Any]] = {}
    specials: list[tuple[int, str]] = []
    for key in rnd.seats:
        hand = rnd.hands[key]
        arr = hand.arrangement()
        special = None
        if hand.declared:
            special = detect(hand.kept_cards(), rules)
        if special is not None:
            specials.append((special.points, key))
        else:
            values[key] = [evaluate_lane(arr.lane(lane), rules) for lane in Lane]
        hands.append(PlayerHand(id=key, arrangement=arr, special=special))
    settlement = settle(hands, rules, banker=rnd.banker, escaped=tuple(rnd.escaped))

    def weakest_first(lane: Lane) -> tuple[str, ...]:
        return tuple(sorted(values, key=lambda k: (values[k][lane], rnd.seats.index(k))))

    reveal = {LANE_NAMES[lane]: weakest_first(lane) for lane in Lane}
    return Settlement.from_json(settlement.to_json()), reveal, [k for _, k in sorted(specials)]


def parse_tokens(tokens: Sequence[str]) -> list[Card]:
    return [parse_card(t) for t in tokens]


_warmed: set[tuple[Any, ...]] = set()
# Quick builds under way, one per deck setting (awaited by every caller),
# made one at a time: two settings of one pool must not both build it.
_building: dict[tuple[Any, ...], concurrent.futures.Future[bool]] = {}
_building_lock = threading.Lock()
_one_build = threading.Lock()
# Full builds, one at a time: another deck setting's waits (on two cores
# the chats keep the other), and one of the same pool finds it built.
_one_refine = threading.Lock()
log = logging.getLogger(__name__)


def _warm_key(rules: Rules) -> tuple[Any, ...]:
    return (
        rules.preset,
        rules.players,
        rules.jokers,
        rules.added_suit,
        rules.wild_rank is not None,
        rules.extra_three,
        rules.wheel,
    )


async def warm(rules: Rules) -> None:
    """Build the solver's model for these rules in a worker thread, once per
    deck setting: the first build costs seconds of CPU, which on the event
    loop would stall every room (and Discord's heartbeat). A new deck setting
    is ready after a quick build (a few seconds); its full opponent pools are
    built afterwards in the same background thread, so the round that asked
    never waits for them. Callers that ask while a build is under way wait
    for that one."""
    key = _warm_key(rules)
    if key in _warmed:
        return
    with _building_lock:
        future = _building.get(key)
        if future is None:
            future = _building[key] = concurrent.futures.Future()
            future.set_running_or_notify_cancel()  # a waiter cancelled cancels only its wait
            # A daemon thread, not the loop's executor: the full pools take
            # minutes of CPU the first time, and a process told to stop
            # (Ctrl-C in `thirteen play`, SIGTERM) must not wait for them.
            # Their files are written whole or not at all, so a build cut
            # off leaves nothing half-made.
            threading.Thread(
                target=_build, args=(rules, key, future), name="solver-warm", daemon=True
            ).start()
    await asyncio.wrap_future(future)


def _build(rules: Rules, key: tuple[Any, ...], future: concurrent.futures.Future[bool]) -> None:
    from bot.solver import prepare

    try:
        with _one_build:
            quick = prepare(rules, quick=True)
    except BaseException as e:  # handed to every waiter; the next warm tries again
        with _building_lock:
            _building.pop(key, None)
        future.set_exception(e)
        return
    _warmed.add(key)
    with _building_lock:
        _building.pop(key, None)
    future.set_result(quick)
    if quick:
        _refine(rules)


def _setting(rules: Rules) -> str:
    """The deck setting, as the log names it."""
    parts: list[str] = [rules.preset.value]
    if rules.jokers:
        parts.append(f"{rules.jokers} jokers")
    if rules.added_suit is not None:
        parts.append(f"added suit {rules.added_suit}")
    if rules.wild_rank is not None:
        parts.append("wild rank")
    if rules.extra_three:
        parts.append("16 cards")
    return ", ".join(parts)


def _refine(rules: Rules) -> None:
    from bot.solver import config, prepare, refine

    with _one_refine:
        if not prepare(rules, quick=True):  # built meanwhile (the same pool)
            return
        where = config.cache_dir()
        kept = f"kept in {where}" if where is not None else "not kept: THIRTEEN_SOLVER_CACHE=off"
        log.info(
            "solver: building the AI's full opponent pools for %s in the background "
            "(once per deck setting: a minute or two of CPU, then %s); "
            "until then suggestions and the AI use a quick model",
            _setting(rules),
            kept,
        )
        started = time.monotonic()
        try:
            refine(rules)
        except Exception:
            log.warning("the solver's full opponent pool could not be built", exc_info=True)
            return
        log.info(
            "solver: the full opponent pools for %s are built (%.0f s)",
            _setting(rules),
            time.monotonic() - started,
        )
