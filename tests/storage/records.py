"""Records the storage tests write: a round, a settlement and its entries,
at a fixed ``NOW``."""

from __future__ import annotations

from datetime import UTC, datetime

from storage.api import RoundRecord, SettlementEntry, SettlementRecord

NOW = datetime(2026, 6, 15, 12, 0, tzinfo=UTC)


def round_record(room_id: str, round_no: int = 1, **changes) -> RoundRecord:  # type: ignore[no-untyped-def]
    fields = dict(
        room_id=room_id,
        round_no=round_no,
        platform="telegram",
        chat_id="-100",
        deck=("AS", "KH", "2C", "JK1"),
        salt="c0ffee",
        deck_hash="ab" * 32,
        seats=("telegram:1", "telegram:2", "ai:3"),
        options={"preset": "classic", "jokers": 0},
        started_at=NOW,
    )
    fields.update(changes)
    return RoundRecord(**fields)


def settlement(  # type: ignore[no-untyped-def]
    room_id: str,
    round_no: int,
    entries,
    *,
    settled_at: datetime = NOW,
    chat_id: str = "-100",
    platform: str = "telegram",
) -> SettlementRecord:
    return SettlementRecord(
        room_id=room_id,
        round_no=round_no,
        platform=platform,
        chat_id=chat_id,
        settled_at=settled_at,
        entries=tuple(entries),
        detail={"round": round_no, "totals": [e.points for e in entries]},
    )


def entry(key: str, points: int, **kw) -> SettlementEntry:  # type: ignore[no-untyped-def]
    return SettlementEntry(player_key=key, name=kw.pop("name", key.upper()), points=points, **kw)


async def settle_round(repo, room, round_no, entries, **kw) -> int:  # type: ignore[no-untyped-def]
    """Save a settlement for ``room`` (a RoomRecord) on top of its latest version."""
    current = await repo.load_room(room.room_id)
    return await repo.save_room(
        room.room_id,
        {**current.state, "round": round_no},
        current.version,
        settlement=settlement(room.room_id, round_no, entries, chat_id=room.chat_id,
                              platform=room.platform, **kw),
    )  # fmt: skip
