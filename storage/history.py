"""Read queries over settled rounds for matches, replays and skill stats
(SQL repository). Rare calls, built per call, like ``boards``.

- ``room_settlements``: a room's settlements in a range of rounds, with
  their ledger entries (the 大结算 sums these).
- ``chat_settlement``: the n-th settled round of a chat (replays).
- ``settlement_details``: the detail JSON of the rounds of a chat or of a
  person (skill and luck figures read the review stored there).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, and_, func, select

from storage.api import SettlementEntry, SettlementRecord
from storage.common import from_utc_naive, to_utc_naive
from storage.models import arrangements, score_ledger, settlements

_set = settlements.c
_led = score_ledger.c
_arr = arrangements.c


def _records(conn: Connection, rows: Sequence[Any]) -> list[SettlementRecord]:
    """Settlement rows with their ledger entries, in seat order."""
    out: list[SettlementRecord] = []
    for row in rows:
        where = and_(_led.room_id == row.room_id, _led.round_no == row.round_no)
        ledger = conn.execute(select(score_ledger).where(where)).all()
        placed = {
            r.player_key: r
            for r in conn.execute(
                select(arrangements).where(
                    and_(_arr.room_id == row.room_id, _arr.round_no == row.round_no)
                )
            ).all()
        }
        out.append(record_of(row, ledger, placed))
    return out


def record_of(row: Any, ledger: Sequence[Any], placed: dict[str, Any]) -> SettlementRecord:
    detail = row.detail or {}
    order = [p["id"] for p in detail.get("players", [])]
    ledger = sorted(
        ledger, key=lambda r: order.index(r.player_key) if r.player_key in order else len(order)
    )
    entries = []
    for r in ledger:
        a = placed.get(r.player_key)
        entries.append(
            SettlementEntry(
                player_key=r.player_key,
                name=r.name,
                points=int(r.points),
                is_ai=bool(r.is_ai),
                special=r.special,
                arrangement=a.lanes if a is not None else None,
                scoops=int(r.scoops),
                home_run=bool(r.home_run),
                auto_arranged=bool(a.auto_arranged) if a is not None else False,
                escaped=bool(a.escaped) if a is not None else False,
            )
        )
    return SettlementRecord(
        room_id=row.room_id,
        round_no=row.round_no,
        platform=row.platform,
        chat_id=row.chat_id,
        settled_at=from_utc_naive(to_utc_naive(row.settled_at)),
        entries=tuple(entries),
        detail=detail,
    )


def room_settlements(
    conn: Connection, room_id: str, first: int, last: int
) -> list[SettlementRecord]:
    rows = conn.execute(
        select(settlements)
        .where(and_(_set.room_id == room_id, _set.round_no >= first, _set.round_no <= last))
        .order_by(_set.round_no)
    ).all()
    return _records(conn, rows)


def chat_settlement(
    conn: Connection, platform: str, chat_id: str, n: int
) -> tuple[SettlementRecord | None, int]:
    where = and_(_set.platform == platform, _set.chat_id == chat_id)
    count = int(
        conn.execute(select(func.count()).select_from(settlements).where(where)).scalar() or 0
    )
    if not 1 <= n <= count:
        return None, count
    row = conn.execute(
        select(settlements)
        .where(where)
        .order_by(_set.settled_at, _set.room_id, _set.round_no)
        .offset(n - 1)
        .limit(1)
    ).first()
    return (_records(conn, [row])[0] if row is not None else None), count


def settlement_details(
    conn: Connection, platform: str, chat_id: str | None, player_key: str | None
) -> list[SettlementRecord]:
    if player_key is not None:
        query = (
            select(settlements)
            .select_from(
                settlements.join(
                    score_ledger,
                    and_(_led.room_id == _set.room_id, _led.round_no == _set.round_no),
                )
            )
            .where(_led.player_key == player_key)
        )
    else:
        query = select(settlements).where(and_(_set.platform == platform, _set.chat_id == chat_id))
    rows = conn.execute(query.order_by(_set.settled_at, _set.room_id, _set.round_no)).all()
    return [record_of(row, (), {}) for row in rows]
