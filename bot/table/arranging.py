"""A player's presses on their own hand while the round is arranged: pick,
lane (which lane the next taps go to), lay, undo, reset, sort, suggest,
apply, declare, confirm (the page's with its split, laid and confirmed at
once) — one function each, found by the verb (``PRESSES``). Each asks the
press's ``check_*`` of ``bot.core.presses`` before it changes anything (the
same question the views and the arranging page ask with ``can_*``). Pure
transitions on the typed room (plus solver calls), like round.py's."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from bot.core.hand import Hand, Refusal
from bot.core.presses import (
    FROM_PAGE,
    Confirmed,
    Declared,
    as_special,
    check_apply,
    check_confirm,
    check_declare,
    check_suggest,
    judge_hand,
    split_of,
)
from bot.core.room import Room
from bot.core.state import LANE_NAMES, Phase
from bot.core.verbs import Verb
from bot.rules.cards import parse_card
from bot.rules.options import Rules
from bot.rules.types import Arrangement
from bot.views.deadline import answered_apart

from . import hand as hand_moves
from .effects import Effects
from .refused import Refused
from .round import Ctx, begin_showdown, declare_hand, opponents_of, round_rules
from .solved import Solved


@dataclass(frozen=True, slots=True)
class Pressed:
    """One press: the room's state, who pressed, their hand, the round's
    rules, the button's argument, the effects being gathered and the
    solver's answers (solved.py)."""

    room: Room
    key: str
    hand: Hand
    rules: Rules
    arg: str | None
    fx: Effects
    solved: Solved


def my_hand(room: Room, key: str) -> Hand:
    rnd = room.round
    if room.phase != Phase.ARRANGING or rnd is None:
        raise Refused("err.not_arranging")
    hand = rnd.hands.get(key)
    if hand is None:
        raise Refused("err.not_in_round")
    return hand


def _pick(p: Pressed) -> None:
    hand_moves.pick(p.hand, p.arg)


def _lane(p: Pressed) -> None:
    hand_moves.aim(p.hand, p.arg)


def _lay(p: Pressed) -> None:
    hand_moves.lay(p.hand, p.arg)


def _undo(p: Pressed) -> None:
    hand_moves.undo(p.hand)


def _reset(p: Pressed) -> None:
    hand_moves.reset(p.hand)


def _sort(p: Pressed) -> None:
    hand_moves.sort(p.hand, p.arg)


def _suggest(p: Pressed) -> None:
    check_suggest(p.hand)
    if p.arg == FROM_PAGE:
        p.fx.hands.clear()
    rnd = p.room.rnd
    p.hand.suggestions = p.solved.suggestions(
        p.hand.card_list(),
        p.rules,
        len(rnd.seats),
        banker=rnd.banker == p.key,
        opponents=opponents_of(p.room, p.key),
    )


def _apply(p: Pressed) -> None:
    s = check_apply(p.hand, p.arg)
    arr = Arrangement.of(*([parse_card(t) for t in s.lane(lane)] for lane in LANE_NAMES))
    hand_moves.set_arrangement(p.hand, arr)


def _declare(p: Pressed) -> Declared:
    """Declare the hand's special (报道); with an argument (the arranging
    page's, 多三张), lay that split first in the same transition: the
    special is of the 13 cards it keeps, and a refusal stores nothing."""
    check_declare(p.hand, p.rules, p.arg)
    if p.arg is not None:
        hand_moves.lay(p.hand, p.arg)
    declare_hand(p.hand, p.rules)
    p.fx.table = True
    assert p.hand.special is not None
    return Declared(p.key, p.hand.special)


def _confirm(p: Pressed) -> Confirmed:
    """Confirm the hand's split; with an argument (the arranging page's),
    lay that split first (``presses.lay_arg``'s lanes) and confirm it in the
    same transition: a tap in between cannot change what is confirmed, and
    a refusal (a foul, cards not the hand's) stores nothing of it."""
    judged = check_confirm(p.hand, p.rules, p.arg)
    if p.arg is not None:
        hand_moves.lay(p.hand, p.arg)
        _judge(p.hand, p.rules)
    p.hand.done = True
    p.fx.table = True
    return Confirmed(p.key, split_of(p.hand), judged)


PRESSES: Mapping[Verb, Callable[[Pressed], Confirmed | Declared | None]] = MappingProxyType(
    {
        Verb.PICK: _pick,
        Verb.LANE: _lane,
        Verb.LAY: _lay,
        Verb.UNDO: _undo,
        Verb.RESET: _reset,
        Verb.SORT: _sort,
        Verb.SUGGEST: _suggest,
        Verb.APPLY: _apply,
        Verb.DECLARE: _declare,
        Verb.CONFIRM: _confirm,
    }
)
# Presses that move cards: the split is judged again afterwards.
_MOVES = frozenset({Verb.PICK, Verb.LAY, Verb.UNDO, Verb.RESET, Verb.APPLY})


def _judge(hand: Hand, rules: Rules) -> None:
    """After the cards moved: what the split's judgement marks on the hand."""
    judged = judge_hand(hand, rules)
    if hand.extra_cards():
        # 多三张: a special is judged on the 13 kept cards, once all are placed.
        hand.special = as_special(judged.special)
    # A complete split that fouls says so at once, in the words a refused
    # confirm would use: the player sees it before pressing, and the
    # refusal then changes nothing on the hand (no second edit).
    foul = judged.foul_pairs() if judged.complete else []
    hand.refused = Refusal("err.foul", {"pairs": foul}) if foul else None


def press(room: Room, key: str, verb: Verb, arg: str | None, ctx: Ctx) -> Effects:
    """Player ``key`` presses ``verb`` on their hand (the press's check of
    ``bot.core.presses`` first: a refusal changes nothing); the last hand
    done begins the showdown. A confirm or a declaration is recorded in
    ``Effects.pressed``."""
    step = PRESSES.get(verb)
    if step is None:
        raise Refused("err.unknown")
    hand = my_hand(room, key)
    rnd = room.rnd
    rules = round_rules(rnd)
    fx = Effects(hands=[key])
    fx.pressed = step(Pressed(room, key, hand, rules, arg, fx, ctx.solved))
    if verb in _MOVES:
        _judge(hand, rules)
    if all(h.done for h in rnd.hands.values()):
        begin_showdown(room, ctx, fx)
        if verb in (Verb.CONFIRM, Verb.DECLARE) and answered_apart(room):
            # The last hand confirmed (or declared): the showdown is on, and the result
            # redraws this hand (its keyboard gone) when the round is paid,
            # seconds from now; a "confirmed, waiting" edit in between would
            # be an edit nobody waits on. The press is answered with a toast.
            fx.hands.remove(key)
            fx.toast = ("toast.showdown_on", {})
    return fx
