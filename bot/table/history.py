"""Looking back: the 大结算 of a match, the private review (复盘), replays
with their judge line, and the skill / luck figures. Read-only handlers the
manager calls; everything comes from the room's state or the stored
settlements (``Repository.room_settlements``, ``chat_settlement``,
``settlement_details``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot.core.replay import ReplayDetail
from bot.core.review import SeatReview, SkillFigures
from bot.core.room import Match, Room
from bot.core.showdown import Settlement
from bot.core.state import LANE_NAMES
from bot.i18n import t
from bot.views import render_match
from storage.api import Repository, SettlementRecord

from . import final, match
from .actions import MAX_ROUND_DIGITS, Action, Attachment, Outcome, small_number
from .refused import Refused
from .round import rules_of

if TYPE_CHECKING:
    from .rooms import Held

if TYPE_CHECKING:
    from bot.views.model import View

ARRANGERS_MIN_ROUNDS = 20


async def final_views(
    repo: Repository,
    state: Room,
    m: Match,
    pending: SettlementRecord | None = None,
    *,
    pictures: bool = True,
) -> list[View]:
    """The 大结算 of match ``m`` (over, or ended early) as one group view;
    ``pending`` is a settlement being stored in the same transaction;
    ``pictures``: the bot's PICTURES setting (the manager's)."""
    first, last = match.round_span(m, state.round_no)
    if last < first:
        return []
    records = await repo.room_settlements(state.id, first, last)
    if pending is not None and first <= pending.round_no <= last:
        records = [r for r in records if r.round_no != pending.round_no] + [pending]
        records.sort(key=lambda r: r.round_no)
    if not records:
        return []
    summary = final.summary(state, m, records)
    return [render_match.final_view(state, summary, pictures=pictures)]


async def review(repo: Repository, rec: Held, action: Action) -> Outcome:
    """A person's review of the button's round: only after its showdown."""
    state = rec.room
    key = action.actor.key
    no = action.round_no if action.round_no is not None else state.round_no
    rnd = state.round
    data: SeatReview | None
    if rnd is not None and rnd.no == no:
        if not rnd.settled:
            raise Refused("err.review_not_yet")
        data = (rnd.review or {}).get(key)
    elif 1 <= no < state.round_no:
        records = await repo.room_settlements(rec.room_id, no, no)
        stored = (records[0].detail.get("review") or {}).get(key) if records else None
        data = None if stored is None else SeatReview.from_json(stored)
    else:
        raise Refused("err.review_not_yet")
    if data is None:
        raise Refused("err.no_review")
    view = render_match.review_view(state, no, key, action.actor.user_id, data)
    reply = t(state.language, "toast.review_sent") if action.chat_id else None
    return Outcome(ok=True, reply=reply, views=(view,), room_id=rec.room_id)


# ---------------------------------------------------------------- replays


def judge_line(info: ReplayDetail) -> str:
    """The round as one ``thirteen judge`` input line (docs/judge.md)."""
    rules = dict(info.rules)
    preset = rules.pop("preset")
    rules.pop("players", None)
    players = []
    for key in info.seats:
        entry: dict[str, Any] = {"id": key, **{n: list(info.hands[key][n]) for n in LANE_NAMES}}
        if info.declared.get(key):
            entry["declare"] = True
        players.append(entry)
    line = {
        "preset": preset,
        "options": judge_options(rules),
        "players": players,
        "banker": info.banker,
        "escaped": list(info.escaped),
    }
    return json.dumps(line, ensure_ascii=False, separators=(",", ":"))


def judge_options(rules: dict[str, Any]) -> dict[str, Any]:
    """The stored Rules (``Rules.to_dict``) as the judge's ``options``."""
    from bot.rules.options import SETTLEMENT_OPTIONS

    return {k: v for k, v in rules.items() if k in SETTLEMENT_OPTIONS}


async def replay(repo: Repository, action: Action, lang: str) -> Outcome:
    """``/replay N``: round N of this chat's history."""
    if not action.chat_id:
        raise Refused("err.no_chat")
    n = small_number(action.arg, 10**MAX_ROUND_DIGITS - 1)
    if n is None or n < 1:
        raise Refused("err.replay_number")
    record, count = await repo.chat_settlement(action.actor.platform, action.chat_id, n)
    if record is None:
        raise Refused("err.replay_range", count=count, n=n)
    if "round" not in record.detail:
        raise Refused("err.replay_old")
    info = ReplayDetail.from_json(record.detail["round"])
    line = judge_line(info)
    view = render_match.replay_view(
        lang,
        action.actor.platform,
        action.chat_id,
        n,
        count,
        Settlement.from_json(record.detail),
        info,
        line,
    )
    return Outcome(ok=True, views=(view,), file=Attachment(f"round-{n}.jsonl", line + "\n"))


# ---------------------------------------------------------------- skill and luck


def skill_of(records: Sequence[SettlementRecord], key: str) -> SkillFigures:
    """One person's figures over the reviewed rounds among ``records``."""
    rounds = 0
    given = luck = 0.0
    fouls = specials = 0
    name = key
    for rec in records:
        d = rec.detail or {}
        stored = (d.get("review") or {}).get(key)
        if stored is None:
            continue
        review = SeatReview.from_json(stored)
        rounds += 1
        given += float(review.given_up)
        luck += float(review.best_ev)
        specials += int(bool(review.declared))
        info = d.get("round") or {}
        name = info.get("names", {}).get(key, name)
        rules = info.get("rules")
        if rules and not review.declared:
            mine = {lane: list(tokens) for lane, tokens in review.mine.items()}
            fouls += int(final._fouled(mine, None, rules_of(rules)))
    per = 100.0 / rounds if rounds else 0.0
    return SkillFigures(
        key=key,
        name=name,
        rounds=rounds,
        given_up=given / rounds if rounds else 0.0,
        luck=luck / rounds if rounds else 0.0,
        fouls_100=fouls * per,
        specials_100=specials * per,
    )


def arrangers(
    records: Sequence[SettlementRecord], minimum: int | None = None, limit: int = 10
) -> list[SkillFigures]:
    """The chat's people with at least ``minimum`` reviewed rounds, fewest
    expected points given up per round first."""
    keys: set[str] = set()
    for rec in records:
        keys.update((rec.detail.get("review") or {}).keys())
    rows = [skill_of(records, k) for k in sorted(keys)]
    least = ARRANGERS_MIN_ROUNDS if minimum is None else minimum
    rows = [r for r in rows if r.rounds >= least]
    rows.sort(key=lambda r: (r.given_up, -r.rounds, r.key))
    return rows[:limit]
