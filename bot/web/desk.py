"""The arranging page's side of the table: one seated player's hand, read
from the stored room and changed only through the table manager's actions,
so the page and the chat's keyboard edit the same hand.

Every call names a :class:`~bot.web.passes.Pass` (who, which room, which
round) and is checked against the stored room first: the round is the
pass's, it is being arranged, the user holds a hand in it. The page sees
this player's cards, the lanes' categories and the table's ready count,
never another player's cards, until the table shows the round: then its
showdown, as far as revealed, and this player's review (``showdown``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from bot.core.actions import Action, Actor, Verb
from bot.core.hand import Hand, Special
from bot.core.presses import (
    FROM_PAGE,
    Judgement,
    as_special,
    check_confirm,
    check_open,
    judge,
    lay_arg,
)
from bot.core.refused import Refused
from bot.core.room import Room
from bot.core.state import LANE_NAMES, Phase
from bot.i18n import t
from bot.i18n.languages import DEFAULT_LANGUAGE
from bot.rules.cards import rank_char
from bot.views.render_common import category, clauses
from bot.views.render_common import lane as lane_word

from . import showdown
from .passes import Pass

SIZES = {"head": 3, "middle": 5, "tail": 5}
KEEP = sum(SIZES.values())  # the cards a split keeps (多三张 deals 16)
# The table's refusals that mean the hand or round moved on, as the page's codes.
_MOVED_ON = {
    "err.already_done": "web.err.already_done",
    "err.not_arranging": "web.err.not_arranging",
}
# The table's answers (bot.core.presses' checks) the page asks for before it
# calls, as the page's codes and statuses. Any other refusal is the table's
# to give, with its own words and its redrawn hand in the chat.
_ASKED = {
    "err.already_done": ("web.err.already_done", 409),
    "err.incomplete": ("web.err.incomplete", 400),
    "err.foul": ("web.err.fouled", 400),
}


class DeskTable(Protocol):
    """What the page needs of the table manager."""

    async def handle(self, action: Action) -> Any: ...  # an Outcome, with the room it stored

    async def room(self, room_id: str) -> Room | None: ...

    async def round_settlement(self, room_id: str, round_no: int) -> Any: ...


class DeskError(Exception):
    """A request the page cannot have: ``code`` is a catalog key (``web.err.*``)."""

    def __init__(
        self, code: str, status: int = 400, reply: str | None = None, language: str | None = None
    ) -> None:
        super().__init__(code)
        self.code = code
        self.status = status
        self.reply = reply  # the table's own words for a refused action, when it gave some
        self.language = language  # the room's, once known: the refusal's words are in it


@dataclass(frozen=True, slots=True)
class Draft:
    """Lanes as indexes into the dealt cards (not yet checked against a hand)."""

    head: tuple[int, ...]
    middle: tuple[int, ...]
    tail: tuple[int, ...]

    @classmethod
    def from_json(cls, body: Any) -> Draft:
        if not isinstance(body, dict):
            raise DeskError("web.err.bad_lanes")
        lanes: list[tuple[int, ...]] = []
        for lane in LANE_NAMES:
            value = body.get(lane, [])
            if not isinstance(value, list) or len(value) > SIZES[lane]:
                raise DeskError("web.err.bad_lanes")
            if not all(isinstance(i, int) and not isinstance(i, bool) for i in value):
                raise DeskError("web.err.bad_lanes")
            lanes.append(tuple(value))
        return cls(*lanes)

    def indexes(self) -> tuple[int, ...]:
        return self.head + self.middle + self.tail

    @property
    def complete(self) -> bool:
        return (len(self.head), len(self.middle), len(self.tail)) == (3, 5, 5)


@dataclass
class Desk:
    table: DeskTable
    clock: Callable[[], float] = time.time

    # ---- reading ------------------------------------------------------------------
    async def language_of(self, grant: Pass) -> str | None:
        """The language of the pass's room (None when there is no room)."""
        room = await self.table.room(grant.room_id)
        return room.language if room is not None else None

    async def _seat(self, grant: Pass) -> tuple[Room, Hand]:
        """The room (read once a request) and this player's hand; DeskError
        when the pass does not (or no longer) open one."""
        return _seated(grant, await self.table.room(grant.room_id))

    def _after(self, grant: Pass, outcome: Any) -> dict[str, Any]:
        """The hand as the action stored it (the room its outcome carries:
        nothing read again)."""
        room, hand = _seated(grant, outcome.room)
        return self._hand_json(room, hand)

    async def hand(self, grant: Pass) -> dict[str, Any]:
        room, hand = await self._seat(grant)
        return self._hand_json(room, hand)

    def _hand_json(self, room: Room, hand: Hand) -> dict[str, Any]:
        rnd = room.rnd
        language = room.language or DEFAULT_LANGUAGE
        head, middle, tail = hand.lanes()
        hands = rnd.hands
        wild = rnd.rules.wild_rank
        out: dict[str, Any] = {
            "room": room.id,
            "round": rnd.no,
            "phase": room.phase.value,
            "language": language,
            "cards": list(hand.cards),
            "order": list(hand.order),
            "lanes": {"head": head, "middle": middle, "tail": tail},
            "keep": KEEP,
            # The round's rules hold the wild rank whether the room fixed it or
            # it was drawn for this round (rnd.wild_rank is only the drawn one).
            "wild_rank": None if wild is None else rank_char(wild),
            "added_suit": rnd.rules.added_suit,
            "done": hand.done,
            "declared": bool(hand.declared),  # done by declaring the special
            "suggestions": _suggestions_json(hand),
            "deadline": rnd.deadline,
            "now": self.clock(),
            "ready": {
                "done": sum(1 for h in hands.values() if h.done),
                "seated": len(hands),
            },
        }
        out.update(self._evaluate(room, hand, Draft(*map(tuple, (head, middle, tail))), language))
        out["special"] = _special_json(language, hand.special)  # the stored hand's
        return out

    async def evaluate(self, grant: Pass, draft: Draft) -> dict[str, Any]:
        """Each full lane's category, whether the split fouls and the special
        the hand may declare (with 16 cards, of the 13 a complete draft
        keeps): the rules engine's answer for a draft, nothing stored."""
        room, hand = await self._seat(grant)
        self._check_cards(hand, draft)
        language = room.language or DEFAULT_LANGUAGE
        out = self._evaluate(room, hand, draft, language)
        if not hand.extra_cards():
            out["special"] = _special_json(language, hand.special)  # whatever the split
        return out

    def _evaluate(self, room: Room, hand: Hand, draft: Draft, language: str) -> dict[str, Any]:
        """The table's judgement of the draft (``presses.judge``, shared
        with the transition and the chat's views), in the page's words."""
        judged = _judged(room, hand, draft)
        labels = {
            lane: category(language, value.category.slug) if value else None
            for lane, value in zip(LANE_NAMES, judged.values, strict=True)
        }
        # A pair of full lanes out of order fouls whatever the third lane
        # holds: said at once (in the order of the rules engine's pairs).
        foul = None
        if judged.foul:
            foul = clauses(
                language,
                (
                    t(language, "err.foul_pair", a=lane_word(language, a), b=lane_word(language, b))
                    for a, b in judged.foul
                ),
            )
        # 多三张: which special the 13 kept cards make is the draft's to say
        # (the stored hand knows it only once laid).
        special = as_special(judged.special) if hand.extra_cards() else None
        return {"labels": labels, "foul": foul, "special": _special_json(language, special)}

    async def showdown(self, grant: Pass) -> dict[str, Any]:
        """The round's showdown and this player's review, once the round is
        being shown: every seat's lanes as the showdown reveals them, never
        before (``bot.web.showdown``). The pass's round may be one the room
        has moved past: its stored settlement then says who sat in it."""
        room = await self.table.room(grant.room_id)
        if room is None:
            raise DeskError("web.err.no_room", 404)
        language = room.language or DEFAULT_LANGUAGE
        rnd = room.round
        source: showdown.Source | None
        if rnd is not None and rnd.no == grant.round_no:
            if grant.actor_key not in rnd.hands:
                raise DeskError("web.err.not_seated", 403)
            source = showdown.from_state(room)
            if source is None:
                raise DeskError("web.err.no_showdown", 409)
        elif 1 <= grant.round_no < (rnd.no if rnd else 0):
            record = await self.table.round_settlement(grant.room_id, grant.round_no)
            source = showdown.from_record(record.detail if record is not None else None)
            if source is None or grant.actor_key not in source.seats:
                raise DeskError("web.err.not_seated", 403)
        else:
            raise DeskError("web.err.not_seated", 403)
        out = showdown.showdown_json(source, grant.actor_key, grant.round_no, language)
        return {**out, "room": grant.room_id, "now": self.clock()}

    # ---- changing the hand ----------------------------------------------------------
    def _check_cards(self, hand: Hand, draft: Draft) -> None:
        indexes = draft.indexes()
        dealt = len(hand.cards)
        if len(set(indexes)) != len(indexes) or any(not 0 <= i < dealt for i in indexes):
            raise DeskError("web.err.bad_cards")

    def _ask(self, check: Callable[..., object], *args: Any) -> None:
        """Ask the table before calling it (a ``presses`` check): a refusal
        the page has its own code for is said so; any other is left to the
        table's action."""
        try:
            check(*args)
        except Refused as refused:
            asked = _ASKED.get(refused.key)
            if asked is not None:
                raise DeskError(*asked) from None

    async def _act(self, grant: Pass, verb: Verb, arg: str | None = None) -> Any:
        actor = Actor(grant.platform, grant.user_id)
        action = Action(actor, verb, room_id=grant.room_id, round_no=grant.round_no, arg=arg)
        outcome = await self.table.handle(action)
        if not outcome.ok:
            # The hand or the round moved on since it was read (a keyboard's
            # confirm, the deadline): said as when it was seen before.
            code = _MOVED_ON.get(getattr(outcome, "refused", None) or "")
            if code is not None:
                raise DeskError(code, 409)
            raise DeskError("web.err.refused", 409, reply=outcome.reply)
        return outcome

    async def suggest(self, grant: Pass) -> dict[str, Any]:
        room, hand = await self._seat(grant)
        self._ask(check_open, hand)
        if hand.suggestions is None:
            # no chat edit for them
            return self._after(grant, await self._act(grant, Verb.SUGGEST, FROM_PAGE))
        return self._hand_json(room, hand)

    async def confirm(self, grant: Pass, draft: Draft) -> dict[str, Any]:
        """Lay the draft on the stored hand and confirm it, in one table
        action (CONFIRM with the split): accepted once, refused as a whole,
        and a keyboard tap meanwhile cannot change what is confirmed. The
        table is asked first (``presses.check_confirm``: the same judgement
        the transition makes, once). The stored hand then shows it in the
        chat too."""
        room, hand = await self._seat(grant)
        self._ask(check_open, hand)
        if room.phase != Phase.ARRANGING:
            raise DeskError("web.err.not_arranging", 409)
        self._check_cards(hand, draft)
        if not draft.complete:
            raise DeskError("web.err.incomplete")
        arg = _lay_arg(hand, draft)
        self._ask(check_confirm, hand, room.rnd.game_rules(), arg)
        return self._after(grant, await self._act(grant, Verb.CONFIRM, arg))

    async def lay(self, grant: Pass, draft: Draft) -> dict[str, Any]:
        """Store the page's draft on the hand (partial lanes too), as the
        page closes: the private hand in the chat then shows it. A draft the
        hand already shows changes nothing (no action, no view)."""
        room, hand = await self._seat(grant)
        self._ask(check_open, hand)
        if room.phase != Phase.ARRANGING:
            raise DeskError("web.err.not_arranging", 409)
        self._check_cards(hand, draft)
        head, middle, tail = hand.lanes()
        sixteen = hand.extra_cards() > 0
        if (head, middle) == (list(draft.head), list(draft.middle)) and (
            not sixteen or tail == list(draft.tail)
        ):
            return self._hand_json(room, hand)
        return self._after(grant, await self._act(grant, Verb.LAY, _lay_arg(hand, draft)))

    async def declare(self, grant: Pass, draft: Draft | None = None) -> dict[str, Any]:
        """Declare the hand's special. With 16 cards (多三张) the special is of
        the 13 the draft keeps: the draft is laid and declared in one table
        action, so it must be complete."""
        _, hand = await self._seat(grant)
        self._ask(check_open, hand)
        arg = None
        if hand.extra_cards():
            if draft is None or not draft.complete:
                raise DeskError("web.err.incomplete")
            self._check_cards(hand, draft)
            arg = _lay_arg(hand, draft)
        return self._after(grant, await self._act(grant, Verb.DECLARE, arg))


def _seated(grant: Pass, room: Room | None) -> tuple[Room, Hand]:
    if room is None:
        raise DeskError("web.err.no_room", 404)
    rnd = room.round
    hand = rnd.hands.get(grant.actor_key) if rnd else None
    if rnd is None or rnd.no != grant.round_no or hand is None:
        raise DeskError("web.err.not_seated", 403)
    return room, hand


def _judged(room: Room, hand: Hand, draft: Draft) -> Judgement:
    """The table's judgement of a draft of this hand's cards."""
    c = hand.cards
    split = tuple(tuple(c[i] for i in lane) for lane in (draft.head, draft.middle, draft.tail))
    return judge((split[0], split[1], split[2]), room.rnd.game_rules())


def _lay_arg(hand: Hand, draft: Draft) -> str:
    """The table's encoding of a draft. With 13 cards the stored tail is
    "the rest" of a full head and middle (as with taps): the draft's tail is
    not sent, so a partial draft with cards in the tail stores its head and
    middle."""
    tail = draft.tail if hand.extra_cards() else ()
    return lay_arg(draft.head, draft.middle, tail)


def _special_json(language: str, special: Special | None) -> dict[str, Any] | None:
    if not special:
        return None
    return {
        "name": t(language, f"special.{special.hand}"),
        "points": special.points,
    }


def _suggestions_json(hand: Hand) -> list[dict[str, Any]] | None:
    items = hand.suggestions
    if items is None:
        return None
    tokens = hand.cards
    out = []
    for item in items:
        free = list(range(len(tokens)))
        lanes: dict[str, list[int]] = {}
        for lane in LANE_NAMES:
            picked = []
            for token in item.lane(lane):
                index = next(i for i in free if tokens[i] == token)
                free.remove(index)
                picked.append(index)
            lanes[lane] = picked
        out.append({**lanes, "score": item.score})
    return out
