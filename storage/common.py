"""Helpers shared by the memory and SQL repositories.

Both repositories must behave identically (the same tests run on both), so
the small decisions live here once: how room ids look, how times are
normalised, where a leaderboard period starts and how rows are ranked.
"""

from __future__ import annotations

import json
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

from storage.api import LeaderRow, Period, RoundRecord, SettlementRecord, StorageError

_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"
ROOM_ID_LENGTH = 6  # 36**6 ≈ 2.2e9 ids: collisions are retried, and it keeps callback data short

_PERIOD_DAYS = {Period.WEEK: 7, Period.MONTH: 30}


def new_room_id() -> str:
    """A short random base-36 id (random, not a counter, so several bot
    processes sharing one database never hand out the same id)."""
    return "".join(secrets.choice(_ALPHABET) for _ in range(ROOM_ID_LENGTH))


def json_copy(value: Any) -> Any:
    """A deep copy through JSON: what the SQL repository would hand back,
    so the memory repository rejects non-JSON state exactly like SQL does."""
    try:
        return json.loads(json.dumps(value))
    except (TypeError, ValueError) as exc:
        raise StorageError(f"not storable as JSON: {exc}") from exc


def to_utc_naive(moment: datetime) -> datetime:
    """Stored times are naive UTC (SQLite keeps no zone); a naive input is
    taken to be UTC already."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return moment


def from_utc_naive(moment: datetime) -> datetime:
    """Times handed back are aware UTC."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def period_start(period: Period, now: datetime) -> datetime | None:
    """The first stored (naive UTC) instant counted in ``period``; None for all time.
    The bound is inclusive and there is no upper bound (a round settled a
    moment "after" now by another process's clock still counts)."""
    days = _PERIOD_DAYS.get(Period(period))
    if days is None:
        return None
    return to_utc_naive(now) - timedelta(days=days)


def player_key(platform: str, user_id: str) -> str:
    return f"{platform}:{user_id}"


def split_player_key(key: str) -> tuple[str, str]:
    platform, _, user_id = key.partition(":")
    return platform, user_id


def rank_leaders(rows: list[LeaderRow], limit: int) -> list[LeaderRow]:
    """Most points first; ties by more wins, then fewer rounds, then key
    (a stable order, so every backend ranks ties alike)."""
    rows.sort(key=lambda r: (-r.points, -r.wins, r.rounds, r.player_key))
    return rows[: max(limit, 0)]


def check_belongs(
    room_id: str, round_record: RoundRecord | None, settlement: SettlementRecord | None
) -> None:
    """A record for another room is a caller bug; refuse it before writing anything."""
    if round_record is not None and round_record.room_id != room_id:
        raise ValueError(f"round record of room {round_record.room_id} saved with room {room_id}")
    if settlement is not None and settlement.room_id != room_id:
        raise ValueError(f"settlement of room {settlement.room_id} saved with room {room_id}")
