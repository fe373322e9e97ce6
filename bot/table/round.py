"""A round: the deal, arranging presses, the deadline, showdown and settlement.

Pure transitions on the room's JSON state (plus solver calls); the manager
stores the result before any view goes out.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from bot.core.state import LANE_NAMES, Phase
from bot.rules.options import Rules, make_rules
from storage.api import RoundRecord, SettlementEntry, SettlementRecord

from . import hand as H
from . import match, solving
from .deal import make_deal
from .effects import Effects
from .options import rules_for
from .refused import Refused


@dataclass(frozen=True, slots=True)
class Ctx:
    now: float
    rng: random.Random
    strength: str = "normal"
    step_seconds: float = 1.5
    reminder_seconds: float = 30.0


@lru_cache(maxsize=256)
def _rules_cached(key: str) -> Rules:
    d = json.loads(key)
    preset, players = d.pop("preset"), d.pop("players")
    return make_rules(preset, players, d)


def rules_of(rules: dict[str, Any]) -> Rules:
    """The Rules of a stored round's ``rules`` (a preset, the players and the
    overrides), built once per distinct value."""
    return _rules_cached(json.dumps(rules, sort_keys=True))


def round_rules(rnd: dict[str, Any]) -> Rules:
    return rules_of(rnd["rules"])


def player(state: dict[str, Any], key: str) -> dict[str, Any] | None:
    return next((p for p in state["players"] if p["key"] == key), None)


def name_of(state: dict[str, Any], key: str) -> str:
    return state["names"].get(key, key)


# ---------------------------------------------------------------- the deal


def start_round(state: dict[str, Any], ctx: Ctx) -> Effects:
    players = state["players"]
    n = len(players)
    rules = rules_for(state, n)  # raises OptionError: the reason goes to the owner
    banker = None
    if rules.banker:
        if player(state, state["owner"]) is None:
            raise Refused("err.banker_seat")
        banker = state["owner"]
    seats = [p["key"] for p in players]
    ctx.rng.shuffle(seats)  # 座位随机
    opts = state["options"]
    deal = make_deal(
        rules,
        n,
        style=opts["deal_style"],
        random_wild_rank=bool(opts.get("random_wild_rank")),
        rng=ctx.rng,
    )
    rules = rules_for(state, n, deal.wild_rank)
    match.before_deal(state)
    state["round_no"] += 1
    no = state["round_no"]
    deadline = ctx.now + opts["arrange_seconds"]
    remind = ctx.reminder_seconds
    rnd: dict[str, Any] = {
        "no": no,
        "seats": seats,
        "dice": list(deal.dice),
        "first_seat": deal.first_seat,
        "deal_style": opts["deal_style"],
        "hash": deal.hash,
        "deck": list(deal.deck),
        "salt": deal.salt,
        "wild_rank": deal.wild_rank,
        "rules": {"preset": rules.preset.value, **rules.to_dict()},
        "banker": banker,
        "hands": {},
        "deadline": deadline,
        "remind_at": deadline - remind if 0 < remind < opts["arrange_seconds"] else None,
        "reminded": False,
        "escaped": [],
        "leaving": [],
        "step": -1,
        "next_at": None,
        "result": None,
        "settled": False,
    }
    rnd["rules"]["players"] = n
    for seat, key in enumerate(seats):
        hand = H.new_hand(deal.hands[seat])
        if H.extra_cards(hand) == 0:
            hand["special"] = solving.special_of(H.cards_of(hand), rules)
        rnd["hands"][key] = hand
    state["round"] = rnd
    state["phase"] = Phase.ARRANGING
    fx = Effects(table=True, table_fresh=True)
    fx.hands = [k for k in seats if not k.startswith("ai:")]
    for p in players:
        if p.get("ai"):
            _ai_arrange(rnd, p["key"], p["ai"], rules, opponents_of(state, p["key"]))
    fx.round_record = RoundRecord(
        room_id=state["room_id"],
        round_no=no,
        platform=state["platform"],
        chat_id=state["chat_id"],
        deck=deal.deck,
        salt=deal.salt,
        deck_hash=deal.hash,
        seats=tuple(seats),
        options=dict(rnd["rules"]),
        started_at=datetime.fromtimestamp(ctx.now, UTC),
    )
    if all(h["done"] for h in rnd["hands"].values()):
        begin_showdown(state, ctx, fx)
    return fx


def opponents_of(state: dict[str, Any], key: str) -> list[str | None]:
    """Each other seat's AI level this round (None for a person): who the
    solver models this seat as playing against."""
    levels = {p["key"]: p.get("ai") for p in state["players"]}
    return [levels.get(k) for k in state["round"]["seats"] if k != key]


def _ai_arrange(
    rnd: dict[str, Any], key: str, level: str, rules: Rules, opponents: list[str | None]
) -> None:
    hand = rnd["hands"][key]
    arr, declare = solving.ai_arrange(H.cards_of(hand), rules, level, opponents)
    H.set_arrangement(hand, arr, undoable=False)
    if declare and hand["special"]:
        declare_hand(hand, rules)
    hand["done"] = True


# ---------------------------------------------------------------- arranging


def declare_hand(hand: dict[str, Any], rules: Rules) -> None:
    """Declare the hand's special (报道): it is arranged and done."""
    special = solving.detect(H.kept_cards(hand), rules)
    if special is None:
        raise Refused("err.no_special")
    arr = special.arrangement or H.arrangement(hand)
    H.set_arrangement(hand, arr, undoable=False)
    hand["declared"] = special.hand.value
    hand["special"] = {"hand": special.hand.value, "points": special.points}
    hand["done"] = True


def auto_arrange(state: dict[str, Any], key: str) -> None:
    hand = state["round"]["hands"][key]
    if hand["done"]:
        return
    arr = solving.auto_arrange(H.cards_of(hand), round_rules(state["round"]))
    H.set_arrangement(hand, arr, undoable=False)
    hand["done"] = True
    hand["auto"] = True


def deadline(state: dict[str, Any], ctx: Ctx) -> Effects:
    """The arranging time is over: every unfinished hand is auto-arranged."""
    rnd = state["round"]
    fx = Effects(table=True)
    for key, hand in rnd["hands"].items():
        if not hand["done"]:
            auto_arrange(state, key)
            if not key.startswith("ai:"):
                fx.hands.append(key)
    begin_showdown(state, ctx, fx)
    return fx


def remind(state: dict[str, Any], ctx: Ctx) -> Effects:
    rnd = state["round"]
    rnd["reminded"] = True
    waiting = [name_of(state, k) for k, h in rnd["hands"].items() if not h["done"]]
    left = max(0, round(rnd["deadline"] - ctx.now))
    fx = Effects(table=True)
    fx.notices.append(("notice.reminder", {"seconds": left, "names": ", ".join(waiting)}))
    # Players arranging in private may not see the group: their hand shows the time left too.
    fx.hands.extend(k for k, h in rnd["hands"].items() if not h["done"] and not k.startswith("ai:"))
    return fx


def escape(state: dict[str, Any], key: str, ctx: Ctx) -> Effects:
    """LEAVE after the deal: the hand is auto-arranged and the player is
    listed as escaped (the penalty applies where the rules say)."""
    rnd = state["round"]
    auto_arrange(state, key)
    if key not in rnd["escaped"]:
        rnd["escaped"].append(key)
    fx = Effects(table=True, toast=("toast.escaped", {}))
    fx.notices.append(("notice.escaped", {"name": name_of(state, key)}))
    if all(h["done"] for h in rnd["hands"].values()):
        begin_showdown(state, ctx, fx)
    return fx


# ---------------------------------------------------------------- showdown


def begin_showdown(state: dict[str, Any], ctx: Ctx, fx: Effects) -> None:
    rnd = state["round"]
    rules = round_rules(rnd)
    settlement, reveal, specials = solving.settle_round(rnd, rules)
    steps = list(LANE_NAMES) + (["specials"] if specials else [])
    rnd["result"] = {
        "settlement": settlement,
        "reveal": reveal,
        "specials": specials,
        "steps": steps,
    }
    rnd["step"] = 0
    rnd["next_at"] = ctx.now + ctx.step_seconds
    state["phase"] = Phase.SHOWDOWN
    fx.table = True


def finishing(state: dict[str, Any]) -> bool:
    """The next showdown step pays the round."""
    rnd = state.get("round")
    return (
        state["phase"] == Phase.SHOWDOWN
        and rnd is not None
        and rnd["step"] + 1 >= len(rnd["result"]["steps"])
    )


def showdown_step(state: dict[str, Any], ctx: Ctx) -> Effects:
    rnd = state["round"]
    fx = Effects(table=True)
    rnd["step"] += 1
    if rnd["step"] < len(rnd["result"]["steps"]):
        rnd["next_at"] = ctx.now + ctx.step_seconds
    else:
        finish_round(state, ctx, fx)
    return fx


def finish_round(state: dict[str, Any], ctx: Ctx, fx: Effects) -> None:
    """Pay the round: totals, the settlement record (written once, with this
    state change), and players who left drop out of the room."""
    rnd = state["round"]
    result = rnd["result"]
    settlement = result["settlement"]
    totals = settlement["totals"]
    for key, pts in totals.items():
        state["totals"][key] = state["totals"].get(key, 0) + pts
    rnd["next_at"] = None
    rnd["settled"] = True
    state["phase"] = Phase.LOBBY
    scoops: dict[str, int] = {}
    for pair in settlement["pairs"]:
        if pair["scoop"]:
            scoops[pair["scoop"]] = scoops.get(pair["scoop"], 0) + 1
    entries = []
    for key in rnd["seats"]:
        hand = rnd["hands"][key]
        entries.append(
            SettlementEntry(
                player_key=key,
                name=name_of(state, key),
                points=totals.get(key, 0),
                is_ai=key.startswith("ai:"),
                special=hand["declared"],
                arrangement=H.arrangement_tokens(hand),
                scoops=scoops.get(key, 0),
                home_run=settlement["home_run"] == key,
                auto_arranged=hand["auto"],
                escaped=key in rnd["escaped"],
            )
        )
    fx.settlement_record = SettlementRecord(
        room_id=state["room_id"],
        round_no=rnd["no"],
        platform=state["platform"],
        chat_id=state["chat_id"],
        settled_at=datetime.fromtimestamp(ctx.now, UTC),
        entries=tuple(entries),
        detail={
            **settlement,
            "deck_hash": rnd["hash"],
            "salt": rnd["salt"],
            "deck": rnd["deck"],
            "round": replay_detail(state),
            "review": rnd.get("review") or {},
        },
    )
    fx.settlement = True
    fx.final = match.after_pay(state)
    gone = set(rnd["escaped"]) | set(rnd["leaving"])
    if gone:
        state["players"] = [p for p in state["players"] if p["key"] not in gone]
        fix_owner(state)


def replay_detail(state: dict[str, Any]) -> dict[str, Any]:
    """What a replay and the judge line need of a round, kept with its
    settlement: the hands as played, the rules, seats, names, banker and
    escapes, and the match round it was."""
    rnd = state["round"]
    m = match.current(state)
    return {
        "seats": list(rnd["seats"]),
        "names": {k: name_of(state, k) for k in rnd["seats"]},
        "hands": {k: H.arrangement_tokens(rnd["hands"][k]) for k in rnd["seats"]},
        "cards": {k: list(rnd["hands"][k]["cards"]) for k in rnd["seats"]},
        "declared": {k: rnd["hands"][k]["declared"] for k in rnd["seats"]},
        "rules": dict(rnd["rules"]),
        "banker": rnd["banker"],
        "escaped": list(rnd["escaped"]),
        "match": None
        if m is None
        else {"seq": m["seq"], "no": rnd["no"] - m["start"], "of": m["rounds"]},
    }


def fix_owner(state: dict[str, Any]) -> None:
    """After someone left: the owner passes to the first human still seated;
    with nobody seated the room closes."""
    if not state["players"]:
        state["phase"] = Phase.CLOSED
        return
    if player(state, state["owner"]) is None:
        humans = [p for p in state["players"] if not p.get("ai")]
        if humans:
            state["owner"] = humans[0]["key"]
