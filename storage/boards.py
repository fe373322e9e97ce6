"""Leaderboard and stats queries over the score ledger (SQL repository).

Both are one aggregate query over ``score_ledger`` (indexed by chat and
time, and by player); AI seats are never counted. Rare calls, so the
statements are built per call.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Connection, and_, case, func, select

from storage.api import LeaderRow, PlayerStats
from storage.common import rank_leaders
from storage.models import players, score_ledger

_led = score_ledger.c
_WINS = func.sum(case((_led.win, 1), else_=0))
_HOME_RUNS = func.sum(case((_led.home_run, 1), else_=0))
_SPECIALS = func.sum(case((_led.special.is_not(None), 1), else_=0))


def leaderboard(
    conn: Connection, platform: str, chat_id: str, since: datetime | None, limit: int
) -> list[LeaderRow]:
    """Rows for one chat, ``since`` (naive or aware UTC) onwards, best first."""
    conditions = [_led.platform == platform, _led.chat_id == chat_id, _led.is_ai.is_(False)]
    if since is not None:
        conditions.append(_led.settled_at >= since)
    points = func.sum(_led.points)
    rounds_played = func.count()
    query = (
        select(
            _led.player_key,
            func.coalesce(players.c.name, _led.player_key),
            points,
            rounds_played,
            _WINS,
            func.sum(_led.scoops),
            _HOME_RUNS,
            _SPECIALS,
        )
        .select_from(score_ledger.outerjoin(players, players.c.player_key == _led.player_key))
        .where(and_(*conditions))
        .group_by(_led.player_key, players.c.name)
        .order_by(points.desc(), _WINS.desc(), rounds_played, _led.player_key)
        .limit(max(limit, 0))
    )
    rows = conn.execute(query).all()
    return rank_leaders([LeaderRow(*_int_tail(row, 2)) for row in rows], limit)


def player_stats(conn: Connection, key: str) -> PlayerStats | None:
    """One player's record across every chat of their platform (the key says which)."""
    query = select(
        func.sum(_led.points),
        func.count(),
        _WINS,
        func.sum(_led.scoops),
        _HOME_RUNS,
        _SPECIALS,
        func.count(_led.chat_id.distinct()),
        func.max(_led.points),
    ).where(_led.player_key == key, _led.is_ai.is_(False))
    row = conn.execute(query).one()
    if not row[1]:
        return None
    name = conn.execute(select(players.c.name).where(players.c.player_key == key)).scalar()
    points, count, wins, scoops, home_runs, specials, chats, best = (int(v) for v in row)
    return PlayerStats(
        player_key=key,
        name=name or key,
        points=points,
        rounds=count,
        wins=wins,
        scoops=scoops,
        home_runs=home_runs,
        specials=specials,
        chats=chats,
        best_round=max(0, best),
    )


def _int_tail(row: Any, keep: int) -> list[Any]:
    """The first ``keep`` columns as they are, the rest as ints (PostgreSQL
    sums come back as Decimal)."""
    values = list(row)
    return values[:keep] + [int(v or 0) for v in values[keep:]]
