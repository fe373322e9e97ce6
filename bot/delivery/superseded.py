"""What a superseded message keeps: the buttons that answer whatever the
round (verify, review, leaderboard, rules, help, stats). The outbox
(outbox.py) retires old messages by it: last round's settlement loses its
"next round" button when the next round's table is up, and keeps these.

A press refused as stale is judged against the message it came from, never
against the data it carried (a modified client sends any data for a message
it can see): a message the outbox keeps current is not touched, and of any
other only the buttons that are themselves of another round than their
room's go."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from bot.core.actions import ActionIdError, decode
from bot.core.room import Room
from bot.core.verbs import VERBS, Verb
from bot.delivery.payload import view_from_payload
from bot.views.keys import KeyKind, ViewKey
from bot.views.model import Button
from storage.delivery import DeliveryStore

# The round a room is playing now (None: no such room).
RoundNow = Callable[[str], Awaitable[int | None]]


class RoomSource(Protocol):
    """Where the rooms are read as stored now (the table manager)."""

    async def room(self, room_id: str) -> Room | None: ...


# The verbs that answer whatever the round (``VerbInfo.informative``).
INFORMATIVE = frozenset(v for v, info in VERBS.items() if info.informative)


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


# What a private result carries besides the informative buttons: the
# owner's Next round, a watcher's Join next round.
RESULT_VERBS = INFORMATIVE | {Verb.START, Verb.JOIN}


def shows_a_result(buttons: list[Any] | None) -> bool:
    """Whether a hand's stored ``buttons`` (payload form) are a result's
    (no card, lane or confirm button of the arranging left on it)."""
    rows = view_from_payload(
        {"kind": "notice", "audience": "group", "key": "", "buttons": buttons or []}
    ).buttons
    return all(_verb(b.action_id) in RESULT_VERBS for row in rows for b in row)


def _verb(action_id: str | None) -> Verb | None:
    try:
        return decode(action_id)[2] if action_id is not None else None
    except ActionIdError:
        return None


def _informative(action_id: str | None) -> bool:
    try:
        return action_id is not None and decode(action_id)[2] in INFORMATIVE
    except ActionIdError:
        return False


def rounds_of(rooms: RoomSource) -> RoundNow:
    """The round each room is playing, as the table manager stores it (each
    room read once per press)."""
    seen: dict[str, int | None] = {}

    async def now(room_id: str) -> int | None:
        if room_id not in seen:
            room = await rooms.room(room_id)
            seen[room_id] = None if room is None else room.round_no
        return seen[room_id]

    return now


async def kept_current(
    store: DeliveryStore, platform: str, chat_id: str, message_id: str, round_now: RoundNow
) -> bool:
    """Whether the message is one the outbox keeps current: the stored
    message of its view key, for the room's table or for a view of the round
    being played (or of no round). Its next edit is the outbox's; a press
    never changes it."""
    key = await store.sent_key(platform, chat_id, message_id)
    if key is None:
        return False
    parsed = ViewKey.parse(key)
    if parsed.kind is KeyKind.TABLE:
        return True
    ref = await store.sent_message(platform, chat_id, key)
    if ref is None or ref.message_id != message_id:
        return False
    room = parsed.room
    now = await round_now(room) if room else None
    return ref.round_tag is None or now is None or ref.round_tag == str(now)


async def without_stale(
    buttons: list[Any],
    round_now: RoundNow,
    *,
    also: Callable[[str], tuple[str, int] | None] | None = None,
) -> tuple[tuple[Button, ...], ...] | None:
    """Of ``buttons`` (payload form, as a message shows them), the rows left
    once the stale ones go: game buttons of another round than their own
    room's, judged one by one. ``also`` reads the room and round of a
    platform's own buttons (Discord's "my hand by DM"). None when none of
    them is stale (nothing to change)."""
    rows = view_from_payload(
        {"kind": "notice", "audience": "group", "key": "", "buttons": buttons}
    ).buttons
    kept: list[tuple[Button, ...]] = []
    stale = False
    for row in rows:
        keep = []
        for button in row:
            if await _stale(button.action_id, round_now, also):
                stale = True
            else:
                keep.append(button)
        if keep:
            kept.append(tuple(keep))
    return tuple(kept) if stale else None


async def _stale(
    action_id: str | None,
    round_now: RoundNow,
    also: Callable[[str], tuple[str, int] | None] | None,
) -> bool:
    if not action_id:
        return False  # a link, or a disabled button
    try:
        room_id, round_no, verb, _arg = decode(action_id)
    except ActionIdError:
        other = also(action_id) if also else None
        if other is None:
            return False
        room_id, round_no = other
    else:
        if verb in INFORMATIVE:
            return False
    now = await round_now(room_id)
    return now is not None and round_no != now
