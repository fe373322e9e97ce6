"""What a superseded message keeps: the buttons that answer whatever the
round (verify, review, leaderboard, rules, help, stats). Shared by the platforms'
outboxes: last round's settlement loses its "next round" button when the
next round's table is up, and keeps these."""

from __future__ import annotations

from typing import Any

from bot.delivery.payload import view_from_payload
from bot.table.actions import ActionIdError, Verb, decode
from bot.views.model import Button

INFORMATIVE = frozenset(
    {Verb.VERIFY, Verb.REVIEW, Verb.LEADERBOARD, Verb.RULES, Verb.HELP, Verb.STATS}
)


def still_working(buttons: list[Any] | None) -> tuple[tuple[Button, ...], ...]:
    """Of ``buttons`` (payload form, as stored with a sent message), the rows
    of informative buttons."""
    rows = view_from_payload(
        {"kind": "notice", "audience": "group", "key": "", "buttons": buttons or []}
    ).buttons
    kept = []
    for row in rows:
        keep = tuple(b for b in row if _informative(b.action_id))
        if keep:
            kept.append(keep)
    return tuple(kept)


def _informative(action_id: str | None) -> bool:
    try:
        return action_id is not None and decode(action_id)[2] in INFORMATIVE
    except ActionIdError:
        return False


def room_of(key: str) -> str | None:
    """The room of a room's view key (``table:<room>``, ``settle:<room>:<n>``, …)."""
    parts = key.split(":")
    return parts[1] if len(parts) > 1 and parts[1] else None
