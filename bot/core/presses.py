"""What a player may press on their hand while it is arranged, asked the
same way by everyone: the table's transitions, the views and the arranging
page (PokerKit's triad).

For each press — pick, lane, lay, undo, reset, sort, suggest, apply,
declare, confirm — ``check_<press>`` raises :class:`Refused` with the reason
the table gives (and returns what it read: the card, the lane, the laid
lanes, the suggestion, the special, the judgement), ``can_<press>`` answers
whether it would be accepted, and the table does it
(``bot.table.arranging``, which calls ``check_<press>`` first). The views ask
``can_<press>`` to grey out or hide a button; the page asks before it calls.

Whether a split fouls, is complete and which special its 13 kept cards
make is one judgement (``judge``), cached by the split's cards and the
rules: a confirm judges its split once however many ask (the page, the
transition, the hand's view and picture).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, fields
from typing import Any

from bot.rules.lanes import evaluate_lane
from bot.rules.options import Rules
from bot.rules.placing import placed_lanes
from bot.rules.settlement_types import SpecialResult
from bot.rules.types import LaneValue

from .actions import small_number
from .hand import Hand, LaneIndexes, Special, Suggestion
from .lanes import card_of
from .refused import Refused
from .state import LANE_NAMES

__all__ = [
    "FROM_PAGE",
    "SORTS",
    "Confirmed",
    "Declared",
    "Judgement",
    "Refused",
    "Split",
    "as_special",
    "can_apply",
    "can_confirm",
    "can_declare",
    "can_lane",
    "can_lay",
    "can_pick",
    "can_reset",
    "can_sort",
    "can_suggest",
    "can_undo",
    "check_apply",
    "check_confirm",
    "check_declare",
    "check_lane",
    "check_lay",
    "check_open",
    "check_pick",
    "check_reset",
    "check_sort",
    "check_suggest",
    "check_undo",
    "judge",
    "judge_hand",
    "lay_arg",
    "special_of",
    "split_of",
]

SORTS = ("rank", "suit", "count")
LANE_SIZES = (3, 5, 5)
# SUGGEST's argument from the arranging page: the suggestions are stored
# (the page shows them; the chat's hand shows them with its next change) but
# the chat's hand is not redrawn for them: the player is in the page.
FROM_PAGE = "page"
LAY_DIGITS = "0123456789abcdefghij"  # a card index as one character (20 cards at most)
# The pairs of lanes a foul names, in the rules engine's order (check_foul's).
_PAIRS = ((0, 1), (1, 2), (0, 2))

# Each lane's card tokens.
Split = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]


# ------------------------------------------------------------ judging a split


@dataclass(frozen=True, slots=True)
class Judgement:
    """A split judged under a round's rules: each full lane's value (None
    while a lane is not full), the pairs of full lanes out of order (a foul,
    said as soon as two full lanes are), whether all 13 are placed, how many
    are, and the special the 13 make once complete."""

    values: tuple[LaneValue | None, LaneValue | None, LaneValue | None]
    foul: tuple[tuple[str, str], ...]
    complete: bool
    placed: int
    special: SpecialResult | None

    def foul_pairs(self) -> list[list[str]]:
        """The foul's pairs as a refusal names them (``err.foul``'s ``pairs``)."""
        return [list(pair) for pair in self.foul]


class _Cache:
    """A bounded memo: the oldest answer goes first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[Hashable, Any] = OrderedDict()

    def get(self, key: Hashable, make: Callable[[], Any]) -> Any:
        try:
            value = self.items[key]
        except KeyError:
            value = self.items[key] = make()
            if len(self.items) > self.size:
                self.items.popitem(last=False)
        return value


_JUDGED = _Cache(2048)
_SPECIALS = _Cache(2048)
_RULE_FIELDS = tuple(f.name for f in fields(Rules))


def _rules_key(rules: Rules) -> tuple[object, ...]:
    return tuple(
        tuple(sorted(rules.special_points.items()))
        if name == "special_points"
        else getattr(rules, name)
        for name in _RULE_FIELDS
    )


def special_of(tokens: Sequence[str], rules: Rules) -> SpecialResult | None:
    """The highest special 13 cards may declare (None: none, or not 13),
    cached by the cards in the order given (the order decides the special's
    own arrangement, not which special it is: sorted tokens share answers)."""
    if len(tokens) != 13:
        return None
    from bot.rules.specials import detect_special  # the console starts without it

    cards = tuple(tokens)
    found: SpecialResult | None = _SPECIALS.get(
        (cards, _rules_key(rules)), lambda: detect_special([card_of(t) for t in cards], rules)
    )
    return found


def as_special(found: SpecialResult | None) -> Special | None:
    """What a hand keeps of a special found: which, and its points."""
    return Special(found.hand.value, found.points) if found else None


def judge(split: Split, rules: Rules) -> Judgement:
    """The judgement of a split (each lane's card tokens, any order)."""
    lanes = tuple(tuple(sorted(lane)) for lane in split)
    return _JUDGED.get((lanes, _rules_key(rules)), lambda: _judged(lanes, rules))  # type: ignore[no-any-return]


def _judged(lanes: tuple[tuple[str, ...], ...], rules: Rules) -> Judgement:
    values = tuple(
        evaluate_lane([card_of(t) for t in lane], rules) if len(lane) == size else None
        for lane, size in zip(lanes, LANE_SIZES, strict=True)
    )
    foul = tuple(
        (LANE_NAMES[a], LANE_NAMES[b])
        for a, b in _PAIRS
        if (x := values[a]) is not None and (y := values[b]) is not None and x > y
    )
    complete = all(v is not None for v in values)
    kept = sorted(t for lane in lanes for t in lane)
    return Judgement(
        values=(values[0], values[1], values[2]),
        foul=foul,
        complete=complete,
        placed=len(kept),
        special=special_of(kept, rules) if complete else None,
    )


def split_of(hand: Hand, lanes: LaneIndexes | None = None) -> Split:
    """Each lane's card tokens (the hand's lanes as they stand, or ``lanes``)."""
    h, m, t = hand.lanes() if lanes is None else lanes
    c = hand.cards
    return tuple(c[i] for i in h), tuple(c[i] for i in m), tuple(c[i] for i in t)


def judge_hand(hand: Hand, rules: Rules, lanes: LaneIndexes | None = None) -> Judgement:
    """The judgement of the hand's split as it stands (or of ``lanes``)."""
    return judge(split_of(hand, lanes), rules)


# ------------------------------------------------------------ the checks


def check_open(hand: Hand) -> None:
    """A hand confirmed (declared, arranged by the table) takes no more presses."""
    if hand.done:
        raise Refused("err.already_done")


def check_pick(hand: Hand, arg: str | None) -> int:
    """A card tap: the card's index. A placed card comes back; an unplaced
    one needs an open lane."""
    check_open(hand)
    i = small_number(arg, len(hand.cards) - 1)
    if i is None:
        raise Refused("err.bad_card")
    if i not in hand.placed() and not hand.open_lanes():
        # 多三张, every lane full: the cards left are the discards.
        raise Refused("err.lane_full")
    return i


def check_lane(hand: Hand, arg: str | None) -> str:
    """Aiming at lane ``arg`` (0 head, 1 middle, 2 tail): its name. A full
    lane cannot be aimed at."""
    check_open(hand)
    n = small_number(arg, 2)
    if n is None:
        raise Refused("err.bad_lane")
    name = LANE_NAMES[n]
    if name not in hand.open_lanes():
        raise Refused("err.lane_full")
    return name


def lay_arg(head: Sequence[int], middle: Sequence[int], tail: Sequence[int]) -> str:
    """The argument of LAY (and of the page's DECLARE and CONFIRM): each
    lane's card indexes, one character a card, lanes joined by ``-``
    (``012-34567-89abc``)."""
    return "-".join("".join(LAY_DIGITS[i] for i in lane) for lane in (head, middle, tail))


def check_lay(hand: Hand, arg: str | None) -> LaneIndexes:
    """Laying a whole draft (``lay_arg``'s lanes): the lanes to store. With
    13 cards a whole split keeps its tail as "the rest" (as taps of head and
    middle leave it)."""
    check_open(hand)
    parts = (arg or "").split("-")
    dealt = len(hand.cards)
    if len(parts) != 3 or any(ch not in LAY_DIGITS[:dealt] for part in parts for ch in part):
        raise Refused("err.bad_card")
    head, middle, tail = ([LAY_DIGITS.index(ch) for ch in part] for part in parts)
    every = head + middle + tail
    if len(set(every)) != len(every) or len(head) > 3 or len(middle) > 5 or len(tail) > 5:
        raise Refused("err.bad_card")
    if not hand.extra_cards() and len(every) == 13:
        tail = []
    return head, middle, tail


def _laid(hand: Hand, arg: str | None) -> LaneIndexes:
    """The hand's lanes as they stand, or as they would once ``arg`` is laid."""
    if arg is None:
        return hand.lanes()
    head, middle, tail = check_lay(hand, arg)
    return placed_lanes(hand.order, head, middle, tail, len(hand.cards))


def check_undo(hand: Hand) -> None:
    check_open(hand)
    if not hand.undo:
        raise Refused("err.nothing_to_undo")


def check_reset(hand: Hand) -> None:
    check_open(hand)
    if not hand.placed():
        raise Refused("err.nothing_to_reset")


def check_sort(hand: Hand, how: str | None) -> str:
    """Re-ordering the cards as shown (a confirmed hand too): the order's name."""
    if how not in SORTS:
        raise Refused("err.bad_sort", value=(how or "")[:24])
    return how


def check_suggest(hand: Hand) -> None:
    check_open(hand)


def check_apply(hand: Hand, arg: str | None) -> Suggestion:
    """Applying suggestion ``arg`` (from 0) of those shown."""
    check_open(hand)
    items = hand.suggestions or []
    n = small_number(arg, len(items) - 1)
    if n is None:
        raise Refused("err.no_suggestion")
    return items[n]


def check_declare(hand: Hand, rules: Rules, arg: str | None = None) -> Special:
    """Declaring the hand's special (报道): which, and its points. It is the
    special the table marked on the hand (of the 13 dealt, at the deal; with
    16 cards, 多三张, of the 13 a complete split keeps); with ``arg`` (16
    cards: the split laid first) of the 13 that split keeps."""
    check_open(hand)
    special = hand.special
    if arg is not None:
        lanes = _laid(hand, arg)
        if hand.extra_cards():
            special = as_special(judge_hand(hand, rules, lanes).special)
    if special is None:
        raise Refused("err.no_special")
    return special


def check_confirm(hand: Hand, rules: Rules, arg: str | None = None) -> Judgement:
    """Confirming the split (with ``arg``: the split laid first): its
    judgement. All 13 must be placed, and a foul is never accepted
    (docs/rules.md §3)."""
    check_open(hand)
    judged = judge_hand(hand, rules, _laid(hand, arg))
    if not judged.complete:
        raise Refused("err.incomplete", placed=judged.placed)
    if judged.foul:
        raise Refused("err.foul", pairs=judged.foul_pairs())
    return judged


# ------------------------------------------------------------ the answers


def _can(check: Callable[..., object], *args: Any) -> bool:
    try:
        check(*args)
    except Refused:
        return False
    return True


def can_pick(hand: Hand, arg: str | None) -> bool:
    return _can(check_pick, hand, arg)


def can_lane(hand: Hand, arg: str | None) -> bool:
    return _can(check_lane, hand, arg)


def can_lay(hand: Hand, arg: str | None) -> bool:
    return _can(check_lay, hand, arg)


def can_undo(hand: Hand) -> bool:
    return _can(check_undo, hand)


def can_reset(hand: Hand) -> bool:
    return _can(check_reset, hand)


def can_sort(hand: Hand, how: str | None) -> bool:
    return _can(check_sort, hand, how)


def can_suggest(hand: Hand) -> bool:
    return _can(check_suggest, hand)


def can_apply(hand: Hand, arg: str | None) -> bool:
    return _can(check_apply, hand, arg)


def can_declare(hand: Hand, rules: Rules, arg: str | None = None) -> bool:
    return _can(check_declare, hand, rules, arg)


def can_confirm(hand: Hand, rules: Rules, arg: str | None = None) -> bool:
    return _can(check_confirm, hand, rules, arg)


# ------------------------------------------------------------ what was done


@dataclass(frozen=True, slots=True)
class Confirmed:
    """A hand confirmed: whose, and the split as judged."""

    player: str
    split: Split
    judgement: Judgement


@dataclass(frozen=True, slots=True)
class Declared:
    """A hand's special declared (报道): whose, and the special."""

    player: str
    special: Special
