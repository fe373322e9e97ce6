"""Views of matches and of looking back: the match line on the table, the
大结算, the private review (复盘), a replayed round, skill figures in /stats
and the "best arrangers" board. Catalog keys: ``locales/*/matches.json``."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core import match
from bot.core.actions import Verb
from bot.core.final import MatchSummary
from bot.core.replay import ReplayDetail
from bot.core.review import LaneTokens, SeatReview, SkillFigures
from bot.core.room import Room
from bot.core.showdown import Settlement
from bot.core.state import LANE_NAMES, Phase
from bot.i18n import t

from . import pictured
from .keys import KeyKind, ViewKey
from .model import Audience, Button, ButtonStyle, View, ViewKind, ViewMeta
from .render_common import (
    button,
    category,
    labelled,
    lane,
    lane_text,
    lang_of,
    noted,
    rows,
    signed,
    special,
)


def match_line(room: Room) -> str | None:
    """ "第 3/10 局" while a match runs; "match over" once it ended."""
    pos = match.position(room)
    if pos is None:
        return None
    lang = lang_of(room)
    if match.is_over(room) and room.phase == Phase.LOBBY:
        return t(lang, "match.over_line", rounds=pos[1])
    if room.phase == Phase.LOBBY:
        return t(lang, "match.next_line", k=min(pos[0] + 1, pos[1]), n=pos[1])
    return t(lang, "match.line", k=pos[0], n=pos[1])


def match_lines(room: Room) -> list[str]:
    line = match_line(room)
    return [line] if line else []


def start_label(room: Room) -> str | None:
    """The START button's label when a match has ended: rematch."""
    return t(lang_of(room), "btn.rematch") if match.is_over(room) else None


def next_rounds(now: int) -> int:
    """The settings panel's match-length cycle: off → 6 → 8 → … → 20 → off."""
    later = [n for n in match.PRESETS if n > now]
    return later[0] if later else 0


def final_view(room: Room, final: MatchSummary, *, pictures: bool = True) -> View:
    """The 大结算 posted in the group after a match's last round; with
    pictures (``pictures``, the bot's setting, and the room's option), its
    picture."""
    lang = lang_of(room)
    lines = [
        t(lang, "final.played_early", played=final.played, rounds=final.rounds)
        if final.early
        else t(lang, "final.played", rounds=final.rounds)
    ]
    medals = {1: "🥇", 2: "🥈", 3: "🥉"}
    for r in final.players:
        lines.append(
            t(
                lang,
                "final.row",
                medal=medals.get(r.rank, f"{r.rank}."),
                name=r.name,
                total=signed(r.total),
                wins=r.wins,
                rounds=r.rounds,
            )
        )
    lines.append(t(lang, "final.counts_title"))
    for r in final.players:
        lines.append(
            t(
                lang,
                "final.counts",
                name=r.name,
                scoops=r.scoops,
                home_runs=r.home_runs,
                specials=r.specials,
                fouls=r.fouls,
            )
        )
    big = final.biggest
    if big:
        lines.append(
            t(lang, "final.biggest", name=big.name, points=signed(big.points), k=big.round)
        )
    bests = [(r.name, r.best_lane) for r in final.players if r.best_lane]
    if bests:
        lines.append(t(lang, "final.best_lanes"))
        for name_, b in bests:
            lines.append(
                t(
                    lang,
                    "final.best_lane",
                    name=name_,
                    lane=lane(lang, b.lane),
                    category=category(lang, b.category),
                    k=b.round,
                )
            )
    buttons: list[Button] = []
    if room.phase != Phase.CLOSED:
        lines.append(t(lang, "final.next"))
        rid, no = room.id, room.round_no
        buttons = [
            button(t(lang, "btn.rematch"), rid, no, Verb.START, style=ButtonStyle.PRIMARY),
            button(t(lang, "btn.close"), rid, no, Verb.CANCEL, style=ButtonStyle.DANGER),
        ]
    view = View(
        kind=ViewKind.NOTICE,
        audience=Audience.GROUP,
        key=str(ViewKey(KeyKind.FINAL, room.id, name=str(final.seq))),
        title=t(lang, "final.title", seq=final.seq),
        lines=tuple(lines),
        buttons=tuple(rows(buttons)),
        platform=room.platform,
        chat_id=room.chat_id,
        language=lang,
        fresh=True,
        meta=ViewMeta(final=True),
    )
    return pictured.with_final(view, room, final, pictures=pictures)


def review_button(room: Room, round_no: int) -> Button:
    return button(
        t(lang_of(room), "btn.review"),
        room.id,
        round_no,
        Verb.REVIEW,
        style=ButtonStyle.PRIMARY,
    )


def _arr_lines(lang: str, arr: LaneTokens) -> list[str]:
    return ["  " + labelled(lang, lane(lang, n), lane_text(arr[n])) for n in LANE_NAMES]


def review_view(room: Room, round_no: int, key: str, user_id: str, review: SeatReview) -> View:
    """One person's 复盘 of one round, privately."""
    lang = lang_of(room)
    # An arrangement the table made at the deadline is called the table's, not
    # the player's: they did not choose it.
    lines = [t(lang, "review.table" if review.auto else "review.mine")]
    if review.declared:
        lines.append("  " + t(lang, "review.declared", special=special(lang, review.declared)))
    lines += _arr_lines(lang, review.mine)
    lines.append(t(lang, "review.best"))
    if review.best_declare:
        lines.append("  " + t(lang, "review.declared", special=special(lang, review.best_declare)))
    lines += _arr_lines(lang, review.best)
    lines.append(
        t(
            lang,
            "review.expected",
            mine=signed(float(review.mine_ev)),
            best=signed(float(review.best_ev)),
        )
    )
    lines.append(
        t(
            lang,
            "review.actual",
            mine=signed(int(review.actual)),
            best=signed(int(review.best_actual)),
        )
    )
    given = float(review.given_up)
    if given > 0.005:
        key = "review.table_given_up" if review.auto else "review.given_up"
        lines.append(t(lang, key, points=f"{given:.2f}"))
    else:
        lines.append(t(lang, "review.table_best" if review.auto else "review.perfect"))
    return View(
        kind=ViewKind.NOTICE,
        audience=Audience.PLAYER,
        key=str(ViewKey(KeyKind.REVIEW, room.id, round=round_no, player=user_id)),
        title=t(lang, "review.title", round=round_no),
        lines=tuple(lines),
        platform=room.platform,
        chat_id=room.chat_id,
        user_id=user_id,
        language=lang,
        fresh=True,
    )


def replay_view(
    lang: str,
    platform: str,
    chat_id: str,
    n: int,
    count: int,
    settlement: Settlement,
    info: ReplayDetail,
    judge_line: str,
) -> View:
    """Round ``n`` of the chat's history: hands as arranged, the settlement,
    and the judge input line that reproduces it."""
    players = settlement.by_id()
    names = info.names
    lines = [t(lang, "replay.head", n=n, count=count)]
    if info.match:
        lines.append(t(lang, "match.line", k=info.match.no, n=info.match.of))
    for key in info.seats:
        p = players.get(key)
        mark = ""
        declared = info.declared.get(key)
        if declared:
            mark = " · " + special(lang, declared)
        total = signed(int(settlement.totals.get(key, 0)))
        lines.append(labelled(lang, names.get(key, key), total) + mark)
        lanes = p.lanes if p is not None else None
        for i, name_ in enumerate(LANE_NAMES):
            cards = lane_text(info.hands[key][name_])
            if lanes:
                cards = noted(lang, cards, category(lang, lanes[i].category))
            lines.append("  " + labelled(lang, lane(lang, name_), cards))
    for q in settlement.pairs:
        scoop = " · " + t(lang, "replay.scoop", name=names.get(q.scoop, q.scoop)) if q.scoop else ""
        pair = f"{names.get(q.a, q.a)} – {names.get(q.b, q.b)}"
        lines.append("  " + labelled(lang, pair, signed(int(q.score))) + scoop)
    if settlement.home_run:
        home_run = settlement.home_run
        lines.append(t(lang, "replay.home_run", name=names.get(home_run, home_run)))
    lines.append(t(lang, "replay.judge"))
    lines.append(judge_line)
    return View(
        kind=ViewKind.NOTICE,
        audience=Audience.GROUP,
        key=str(ViewKey(KeyKind.REPLAY, chat_id, name=str(n))),
        title=t(lang, "replay.title", n=n),
        lines=tuple(lines),
        platform=platform,
        chat_id=chat_id,
        language=lang,
        fresh=True,
        meta=ViewMeta(file_name=f"round-{n}.jsonl", file_text=judge_line + "\n"),
    )


def skill_lines(lang: str, skill: SkillFigures | None) -> list[str]:
    if not skill or not skill.rounds:
        return [t(lang, "skill.none")]
    return [
        t(
            lang,
            "skill.line1",
            given_up=f"{skill.given_up:.2f}",
            luck=signed(skill.luck),
            rounds=skill.rounds,
        ),
        t(
            lang,
            "skill.line2",
            fouls=f"{skill.fouls_100:.1f}",
            specials=f"{skill.specials_100:.1f}",
        ),
    ]


def arrangers_view(lang: str, rows_: Sequence[SkillFigures], chat_id: str, minimum: int) -> View:
    lines = [t(lang, "arrangers.hint", minimum=minimum)]
    if not rows_:
        lines.append(t(lang, "arrangers.empty", minimum=minimum))
    for i, r in enumerate(rows_, 1):
        lines.append(
            t(
                lang,
                "arrangers.row",
                n=i,
                name=r.name,
                given_up=f"{r.given_up:.2f}",
                luck=signed(r.luck),
                rounds=r.rounds,
            )
        )
    return View(
        kind=ViewKind.NOTICE,
        audience=Audience.GROUP,
        # the group's other board: one message, merged
        key=str(ViewKey(KeyKind.LEADERBOARD, chat_id, name="skill")),
        title=t(lang, "arrangers.title"),
        lines=tuple(lines),
        chat_id=chat_id,
        language=lang,
    )
