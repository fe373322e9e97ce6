"""A round (一局): the deal, arranging presses, the deadline, showdown and
settlement.

Pure transitions on the typed room (``bot.core.room.Room``, plus solver
calls); the manager stores the result before any view goes out.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime

from bot.core.hand import Hand, Special
from bot.core.presses import as_special, special_of
from bot.core.replay import ReplayDetail
from bot.core.room import Room, Seat
from bot.core.round import Round, rules_of
from bot.core.showdown import SPECIALS_STEP, Showdown
from bot.core.state import LANE_NAMES, Phase
from bot.rules.options import Rules
from bot.views.deadline import counts_down, time_steps
from storage.api import RoundRecord, SettlementEntry, SettlementRecord

from . import match, solving
from .deal import make_deal
from .effects import Effects
from .hand import new_hand, set_arrangement
from .options import rules_for
from .refused import Refused
from .solved import Solved

__all__ = ["Ctx", "player", "round_rules", "rules_of", "start_round"]


@dataclass(frozen=True, slots=True)
class Ctx:
    now: float
    rng: random.Random
    strength: str = "normal"
    step_seconds: float = 1.5
    reminder_seconds: float = 30.0
    # The solver's answers (worked out ahead of the room's lock, solved.py).
    solved: Solved = field(default_factory=Solved)


def round_rules(rnd: Round) -> Rules:
    """The Rules a round was dealt under."""
    return rnd.game_rules()


def player(room: Room, key: str) -> Seat | None:
    return room.seat(key)


def name_of(room: Room, key: str) -> str:
    return room.name_of(key)


def is_ai(key: str) -> bool:
    return key.startswith("ai:")


# ---------------------------------------------------------------- the deal


def start_round(room: Room, ctx: Ctx) -> Effects:
    players = room.players
    n = len(players)
    rules = rules_for(room, n)  # raises OptionError: the reason goes to the owner
    banker = None
    if rules.banker:
        if room.seat(room.owner) is None:
            raise Refused("err.banker_seat")
        banker = room.owner
    seats = [p.key for p in players]
    ctx.rng.shuffle(seats)  # 座位随机
    opts = room.options
    deal = make_deal(
        rules,
        n,
        style=opts.deal_style,
        random_wild_rank=opts.random_wild_rank,
        rng=ctx.rng,
    )
    rules = rules_for(room, n, deal.wild_rank)
    match.before_deal(room)
    room.round_no += 1
    no = room.round_no
    deadline = ctx.now + opts.arrange_seconds
    remind = ctx.reminder_seconds
    rnd = Round(
        no=no,
        seats=tuple(seats),
        dice=tuple(deal.dice),
        first_seat=deal.first_seat,
        deal_style=opts.deal_style,
        hash=deal.hash,
        deck=tuple(deal.deck),
        salt=deal.salt,
        wild_rank=deal.wild_rank,
        rules=rules,
        banker=banker,
        hands={},
        deadline=deadline,
        remind_at=deadline - remind if 0 < remind < opts.arrange_seconds else None,
    )
    for seat, key in enumerate(seats):
        hand = new_hand(deal.hands[seat])
        if hand.extra_cards() == 0:
            # The cards sorted: the answer the judgements of its splits share.
            hand.special = as_special(special_of(sorted(hand.cards), rules))
        rnd.hands[key] = hand
    room.round = rnd
    room.phase = Phase.ARRANGING
    if counts_down(room):
        rnd.left_shown = opts.arrange_seconds  # what the hands dealt show
    fx = Effects(table=True, table_fresh=True)
    fx.hands = [k for k in seats if not is_ai(k)]
    for p in players:
        if p.ai:
            _ai_arrange(rnd, p.key, p.ai, rules, opponents_of(room, p.key), ctx.solved)
    fx.round_record = RoundRecord(
        room_id=room.id,
        round_no=no,
        platform=room.platform,
        chat_id=room.chat_id,
        deck=deal.deck,
        salt=deal.salt,
        deck_hash=deal.hash,
        seats=tuple(seats),
        options=rnd.rules_json(),
        started_at=datetime.fromtimestamp(ctx.now, UTC),
    )
    if all(h.done for h in rnd.hands.values()):
        begin_showdown(room, ctx, fx)
    return fx


def opponents_of(room: Room, key: str) -> list[str | None]:
    """Each other seat's AI level this round (None for a person): who the
    solver models this seat as playing against."""
    levels = {p.key: p.ai for p in room.players}
    return [levels.get(k) for k in room.rnd.seats if k != key]


def _ai_arrange(
    rnd: Round, key: str, level: str, rules: Rules, opponents: list[str | None], solved: Solved
) -> None:
    hand = rnd.hands[key]
    arr, declare = solved.ai_arrange(hand.card_list(), rules, level, opponents)
    set_arrangement(hand, arr, undoable=False)
    if declare and hand.special:
        declare_hand(hand, rules)
    hand.done = True


# ---------------------------------------------------------------- arranging


def declare_hand(hand: Hand, rules: Rules) -> None:
    """Declare the hand's special (报道): it is arranged as the special lays
    it out, and done."""
    kept = [hand.cards[i] for i in sorted(hand.placed())] if hand.extra_cards() else hand.cards
    special = special_of(kept, rules)
    if special is None:
        raise Refused("err.no_special")
    arr = special.arrangement or hand.arrangement()
    set_arrangement(hand, arr, undoable=False)
    hand.declared = special.hand.value
    hand.special = Special(special.hand.value, special.points)
    hand.done = True


def auto_arrange(room: Room, key: str, solved: Solved) -> None:
    rnd = room.rnd
    hand = rnd.hands[key]
    if hand.done:
        return
    arr = solved.auto_arrange(hand.card_list(), round_rules(rnd))
    set_arrangement(hand, arr, undoable=False)
    hand.done = True
    hand.auto = True


def deadline(room: Room, ctx: Ctx) -> Effects:
    """The arranging time is over: every unfinished hand is auto-arranged."""
    rnd = room.rnd
    fx = Effects(table=True)
    for key, hand in rnd.hands.items():
        if not hand.done:
            auto_arrange(room, key, ctx.solved)
            if not is_ai(key):
                fx.hands.append(key)
    begin_showdown(room, ctx, fx)
    return fx


def remind(room: Room, ctx: Ctx) -> Effects:
    """Once a round, shortly before the deadline: the group is told who is
    still arranging (each of them mentioned, so they are notified), and
    each of them sees it in their private hand, where their cards are
    (its time line turns into the warning)."""
    rnd = room.rnd
    rnd.reminded = True
    waiting = [k for k, h in rnd.hands.items() if not h.done]
    left = max(0, round(rnd.deadline - ctx.now))
    if rnd.left_shown is not None:
        rnd.left_shown = left
    fx = Effects(table=True)
    names = ", ".join(room.name_of(k) for k in waiting)
    fx.notices.append(("notice.reminder", {"seconds": left, "names": names}))
    fx.mentions = [k for k in waiting if not is_ai(k)]
    fx.hands.extend(k for k in waiting if not is_ai(k))
    return fx


def tick(room: Room, ctx: Ctx) -> Effects:
    """A step of the countdown (``time_steps``): the hands still being
    arranged are redrawn with the time left."""
    rnd = room.rnd
    left = rnd.deadline - ctx.now
    passed = [s for s in time_steps(room) if s >= left and s < (rnd.left_shown or 0)]
    if passed:
        rnd.left_shown = min(passed)
    fx = Effects()
    fx.hands.extend(k for k, h in rnd.hands.items() if not h.done and not is_ai(k))
    return fx


def next_tick(room: Room) -> float | None:
    """When the countdown's next step is due (None: no step left, or the
    room's hands do not count down)."""
    rnd = room.round
    if rnd is None or rnd.left_shown is None or room.phase != Phase.ARRANGING:
        return None
    below = [s for s in time_steps(room) if s < rnd.left_shown]
    return rnd.deadline - max(below) if below else None


def escape(room: Room, key: str, ctx: Ctx) -> Effects:
    """LEAVE after the deal: the hand is auto-arranged and the player is
    listed as escaped (the penalty applies where the rules say)."""
    rnd = room.rnd
    auto_arrange(room, key, ctx.solved)
    if key not in rnd.escaped:
        rnd.escaped.append(key)
    fx = Effects(table=True, toast=("toast.escaped", {}))
    fx.notices.append(("notice.escaped", {"name": room.name_of(key)}))
    if all(h.done for h in rnd.hands.values()):
        begin_showdown(room, ctx, fx)
    return fx


# ---------------------------------------------------------------- showdown


def begin_showdown(room: Room, ctx: Ctx, fx: Effects) -> None:
    rnd = room.rnd
    rules = round_rules(rnd)
    settlement, reveal, specials = solving.settle_round(rnd, rules)
    steps = (*LANE_NAMES, SPECIALS_STEP) if specials else LANE_NAMES
    rnd.result = Showdown(settlement, reveal, tuple(specials), tuple(steps))
    rnd.step = 0
    rnd.next_at = ctx.now + ctx.step_seconds
    room.phase = Phase.SHOWDOWN
    fx.table = True


def finishing(room: Room) -> bool:
    """The next showdown step pays the round."""
    rnd = room.round
    return (
        room.phase == Phase.SHOWDOWN and rnd is not None and rnd.step + 1 >= len(rnd.showdown.steps)
    )


def showdown_step(room: Room, ctx: Ctx) -> Effects:
    rnd = room.rnd
    fx = Effects(table=True)
    rnd.step += 1
    if rnd.step < len(rnd.showdown.steps):
        rnd.next_at = ctx.now + ctx.step_seconds
    else:
        finish_round(room, ctx, fx)
    return fx


def finish_round(room: Room, ctx: Ctx, fx: Effects) -> None:
    """Pay the round: totals, the settlement record (written once, with this
    state change), and players who left drop out of the room."""
    rnd = room.rnd
    settlement = rnd.showdown.settlement
    totals = settlement.totals
    for key, pts in totals.items():
        room.totals[key] = room.totals.get(key, 0) + pts
    rnd.next_at = None
    rnd.settled = True
    room.phase = Phase.LOBBY
    scoops: dict[str, int] = {}
    for pair in settlement.pairs:
        if pair.scoop:
            scoops[pair.scoop] = scoops.get(pair.scoop, 0) + 1
    entries = []
    for key in rnd.seats:
        hand = rnd.hands[key]
        entries.append(
            SettlementEntry(
                player_key=key,
                name=room.name_of(key),
                points=totals.get(key, 0),
                is_ai=is_ai(key),
                special=hand.declared,
                arrangement=hand.arrangement_tokens(),
                scoops=scoops.get(key, 0),
                home_run=settlement.home_run == key,
                auto_arranged=hand.auto,
                escaped=key in rnd.escaped,
            )
        )
    fx.settlement_record = SettlementRecord(
        room_id=room.id,
        round_no=rnd.no,
        platform=room.platform,
        chat_id=room.chat_id,
        settled_at=datetime.fromtimestamp(ctx.now, UTC),
        entries=tuple(entries),
        detail={
            **settlement.to_json(),
            "deck_hash": rnd.hash,
            "salt": rnd.salt,
            "deck": list(rnd.deck),
            "round": ReplayDetail.of(room).to_json(),
            "review": {k: v.to_json() for k, v in (rnd.review or {}).items()},
        },
    )
    fx.settlement = True
    # Each person's private hand becomes their result (render_result).
    fx.hands = [k for k in rnd.seats if not is_ai(k)]
    fx.final = match.after_pay(room)
    gone = set(rnd.escaped) | set(rnd.leaving)
    if gone:
        room.players = [p for p in room.players if p.key not in gone]
        fix_owner(room)


def fix_owner(room: Room) -> None:
    """After someone left: the owner passes to the first human still seated;
    with nobody seated the room closes."""
    if not room.players:
        room.phase = Phase.CLOSED
        return
    if room.seat(room.owner) is None:
        humans = [p for p in room.players if not p.ai]
        if humans:
            room.owner = humans[0].key
