"""A tiny stand-in for the TableManager (same handle/set_sink contract), used by
the adapter's unit-level SimCord tests so they do not depend on game rules:
a lobby, a deal of 13 numbered "cards", picking, confirm, settlement."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from bot.table.actions import Action, Outcome, Verb, encode
from bot.views.model import Audience, Button, ButtonStyle, View, ViewKind

Sink = Callable[[Sequence[View]], Awaitable[None]]


@dataclass
class FakeRoom:
    room_id: str
    chat_id: str
    owner: str
    seats: dict[str, str] = field(default_factory=dict)  # user_id -> name
    round_no: int = 0
    arranging: bool = False
    picked: dict[str, list[int]] = field(default_factory=dict)
    confirmed: set[str] = field(default_factory=set)
    totals: dict[str, int] = field(default_factory=dict)


class FakeManager:
    def __init__(self) -> None:
        self.rooms: dict[str, FakeRoom] = {}
        self.sink: Sink | None = None
        self.actions: list[Action] = []
        self.delay = 0.0  # seconds each action takes (a busy lock, a slow database)
        self._next = 1

    def set_sink(self, sink: Sink) -> None:
        self.sink = sink

    # -- views
    def table_view(self, room: FakeRoom) -> View:
        r = room.room_id
        if room.arranging:
            rows = ((Button("hand", encode(r, room.round_no, Verb.SHOW_HAND)),),)
            lines = (f"round {room.round_no}", f"done {len(room.confirmed)}/{len(room.seats)}")
        else:
            rows = (
                (
                    Button("join", encode(r, room.round_no, Verb.JOIN)),
                    Button("leave", encode(r, room.round_no, Verb.LEAVE)),
                    Button("start", encode(r, room.round_no, Verb.START), ButtonStyle.PRIMARY),
                ),
            )
            lines = tuple(f"seat {name}" for name in room.seats.values())
        return View(
            ViewKind.TABLE,
            Audience.GROUP,
            f"table:{r}",
            f"table {r}",
            lines,
            rows,
            platform="discord",
            chat_id=room.chat_id,
        )

    def hand_view(self, room: FakeRoom, user_id: str) -> View:
        r, n = room.room_id, room.round_no
        picked = room.picked[user_id]
        cards = [
            Button(f"c{i}" + ("*" if i in picked else ""), encode(r, n, Verb.PICK, str(i)))
            for i in range(13)
        ]
        rows = [tuple(cards[0:5]), tuple(cards[5:10]), tuple(cards[10:13])]
        rows.append(
            (Button("undo", encode(r, n, Verb.UNDO)), Button("confirm", encode(r, n, Verb.CONFIRM)))
        )
        lines = (f"picked {picked}", "confirmed" if user_id in room.confirmed else "arranging")
        return View(
            ViewKind.HAND,
            Audience.PLAYER,
            f"hand:{r}:discord:{user_id}",
            "hand",
            lines,
            tuple(rows),
            platform="discord",
            chat_id=room.chat_id,
            user_id=user_id,
        )

    def _room_for(self, action: Action) -> FakeRoom | None:
        if action.room_id is not None:
            return self.rooms.get(action.room_id)
        return next((x for x in self.rooms.values() if x.chat_id == action.chat_id), None)

    async def handle(self, action: Action) -> Outcome:
        self.actions.append(action)
        if self.delay:
            await asyncio.sleep(self.delay)
        uid = action.actor.user_id
        if action.verb is Verb.NEW:
            room = FakeRoom(f"r{self._next}", action.chat_id, uid, {uid: action.actor.name})
            self._next += 1
            self.rooms[room.room_id] = room
            return Outcome(True, None, (self.table_view(room),), room.room_id)
        room = self._room_for(action)
        if room is None:
            return Outcome(False, "no room")
        if action.round_no is not None and action.round_no != room.round_no:
            return Outcome(False, "stale")
        if action.verb is Verb.JOIN and not room.arranging:
            room.seats[uid] = action.actor.name
            return Outcome(True, "joined", (self.table_view(room),), room.room_id)
        if action.verb is Verb.START and uid == room.owner and not room.arranging:
            room.round_no += 1
            room.arranging = True
            room.confirmed.clear()
            room.picked = {u: [] for u in room.seats}
            hands = tuple(self.hand_view(room, u) for u in room.seats)
            return Outcome(True, None, (self.table_view(room), *hands), room.room_id)
        if uid not in room.seats or not room.arranging:
            return Outcome(False, "not yours")
        if action.verb is Verb.SHOW_HAND:
            return Outcome(True, None, (self.hand_view(room, uid),), room.room_id)
        if action.verb is Verb.PICK and uid not in room.confirmed:
            room.picked[uid].append(int(action.arg or 0))
            return Outcome(True, None, (self.hand_view(room, uid),), room.room_id)
        if action.verb is Verb.CONFIRM:
            room.confirmed.add(uid)
            views = [self.hand_view(room, uid)]
            if room.confirmed == set(room.seats):
                views.extend(self._settle(room))
            else:
                views.append(self.table_view(room))
            return Outcome(True, None, tuple(views), room.room_id)
        return Outcome(False, "refused")

    def _settle(self, room: FakeRoom) -> list[View]:
        room.arranging = False
        for u in room.seats:
            room.totals[u] = room.totals.get(u, 0) + len(room.picked[u])
        settle = View(
            ViewKind.SETTLEMENT,
            Audience.GROUP,
            f"settle:{room.room_id}:{room.round_no}",
            f"round {room.round_no}",
            tuple(f"{u} {p}" for u, p in room.totals.items()),
            ((Button("next", encode(room.room_id, room.round_no, Verb.START)),),),
            platform="discord",
            chat_id=room.chat_id,
            fresh=True,
        )
        return [settle, self.table_view(room)]

    async def expire(self, room_id: str) -> None:
        """What a deadline does: confirm everyone, views through the sink."""
        room = self.rooms[room_id]
        room.confirmed = set(room.seats)
        views = [self.hand_view(room, u) for u in room.seats] + self._settle(room)
        assert self.sink is not None
        await self.sink(views)
