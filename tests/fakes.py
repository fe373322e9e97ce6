"""The one stand-in for the TableManager, for the adapter tests of both
platforms that must not depend on the game (tests/telegram/test_adapter.py,
tests/telegram/test_runner.py, tests/discord/test_adapter_fake.py). It
follows the table contract (``TableLike``, bot/table/contract.py) — Actions
in, an Outcome with Views out, action ids from ``encode``, the room as a
typed ``Room``, views of timers through the sink — with a toy round: 13
numbered "cards" to pick, confirm, a settlement.

The platforms differ in what their adapter tests need of it, said by the
arguments: whose views they are (``platform``), whether opening a room
seats its opener (``opener_sits``), how many cards a hand needs before it
can be confirmed (``cards_to_confirm``), and how long each action takes
(``delay``: a busy lock, a slow database)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from bot.core.room import Room, RoomOptions, Seat
from bot.core.state import Phase
from bot.table.actions import Action, Outcome, Verb, encode
from bot.views.model import Audience, Button, ButtonStyle, View, ViewKind

Sink = Callable[[Sequence[View]], Awaitable[None]]


@dataclass
class FakeRoom:
    room_id: str
    chat_id: str
    owner: str
    seats: dict[str, str] = field(default_factory=dict)  # user id -> name
    round_no: int = 0
    arranging: bool = False
    picked: dict[str, list[int]] = field(default_factory=dict)
    confirmed: set[str] = field(default_factory=set)
    totals: dict[str, int] = field(default_factory=dict)


class FakeManager:
    def __init__(
        self,
        platform: str = "telegram",
        *,
        opener_sits: bool = False,
        cards_to_confirm: int = 8,
        delay: float = 0.0,
    ) -> None:
        self.platform = platform
        self.opener_sits = opener_sits
        self.cards_to_confirm = cards_to_confirm
        self.delay = delay
        self.rooms: dict[str, FakeRoom] = {}
        self.actions: list[Action] = []
        self.sink: Sink | None = None

    def set_sink(self, sink: Sink) -> None:
        self.sink = sink

    # -- views
    def table_view(self, room: FakeRoom, fresh: bool = False) -> View:
        rid, rnd = room.room_id, room.round_no
        lines = tuple(
            f"{name}{' ✅' if uid in room.confirmed else ''}" for uid, name in room.seats.items()
        )
        if room.arranging:
            rows: tuple[tuple[Button, ...], ...] = (
                (Button("Hand", encode(rid, rnd, Verb.SHOW_HAND)),),
            )
        else:
            rows = (
                (
                    Button("Join", encode(rid, rnd, Verb.JOIN)),
                    Button("Leave", encode(rid, rnd, Verb.LEAVE)),
                    Button("Start", encode(rid, rnd, Verb.START), ButtonStyle.PRIMARY),
                ),
            )
        return View(
            ViewKind.TABLE,
            Audience.GROUP,
            f"table:{rid}",
            f"Room {rid} round {rnd}",
            lines,
            rows,
            platform=self.platform,
            chat_id=room.chat_id,
            fresh=fresh,
        )

    def hand_view(self, room: FakeRoom, uid: str, suggest: bool = False) -> View:
        rid, rnd = room.room_id, room.round_no
        picked = room.picked[uid]
        cards = tuple(
            Button(f"{'*' if i in picked else ''}c{i}", encode(rid, rnd, Verb.PICK, str(i)))
            for i in range(13)
        )
        controls = (
            Button("Suggest", encode(rid, rnd, Verb.SUGGEST)),
            Button("Confirm", encode(rid, rnd, Verb.CONFIRM)),
            Button("-", disabled=True),
        )
        rows = (cards[:5], cards[5:10], cards[10:], controls)  # Discord: 5 a row
        if suggest:
            rows += ((Button("Apply 0", encode(rid, rnd, Verb.APPLY, "0")),),)
        return View(
            ViewKind.HAND,
            Audience.PLAYER,
            f"hand:{rid}:{self.platform}:{uid}",
            "Hand",
            (
                f"picked {len(picked)}: {picked}",
                "confirmed" if uid in room.confirmed else "arranging",
            ),
            rows,
            platform=self.platform,
            chat_id=room.chat_id,
            user_id=uid,
        )

    def _settle(self, room: FakeRoom) -> list[View]:
        room.arranging = False
        for uid in room.seats:
            room.totals[uid] = room.totals.get(uid, 0) + len(room.picked[uid])
        settlement = View(
            ViewKind.SETTLEMENT,
            Audience.GROUP,
            f"settle:{room.room_id}:{room.round_no}",
            f"Settlement round {room.round_no}",
            tuple(f"{room.seats[uid]}: {points}" for uid, points in room.totals.items()),
            ((Button("Next round", encode(room.room_id, room.round_no, Verb.START)),),),
            platform=self.platform,
            chat_id=room.chat_id,
            fresh=True,
        )
        return [settlement, self.table_view(room)]

    def _notice(self, room: FakeRoom, key: str, title: str, line: str, **to: str) -> View:
        audience = Audience.PLAYER if "user_id" in to else Audience.GROUP
        where = to if to else {"chat_id": room.chat_id}
        return View(ViewKind.NOTICE, audience, f"{key}:{room.room_id}", title, (line,), **where)

    # -- the table contract
    def _find(self, action: Action) -> FakeRoom | None:
        if action.room_id:
            return self.rooms.get(action.room_id)
        return next((r for r in self.rooms.values() if r.chat_id == action.chat_id), None)

    async def room(self, room_id: str) -> Room | None:
        room = self.rooms.get(room_id)
        if room is None:
            return None
        return Room(
            platform=self.platform,
            chat_id=room.chat_id,
            owner=room.owner,
            phase=Phase.ARRANGING if room.arranging else Phase.LOBBY,
            language="en",
            preset="classic",
            options=RoomOptions(),
            players=[Seat(f"{self.platform}:{uid}", name) for uid, name in room.seats.items()],
            names={f"{self.platform}:{uid}": name for uid, name in room.seats.items()},
            round_no=room.round_no,
            room_id=room_id,
        )

    async def handle(self, action: Action) -> Outcome:
        self.actions.append(action)
        if self.delay:
            await asyncio.sleep(self.delay)
        uid, verb = action.actor.user_id, action.verb
        if verb is Verb.NEW:
            rid = f"r{len(self.rooms) + 1}"
            room = self.rooms[rid] = FakeRoom(rid, action.chat_id, uid)
            if self.opener_sits:
                room.seats[uid] = action.actor.name
            return Outcome(True, "opened", (self.table_view(room, fresh=True),), rid)
        room = self._find(action)
        if room is None:
            return Outcome(False, "no room")
        if action.round_no is not None and action.round_no != room.round_no:
            return Outcome(False, "stale button")
        rid = room.room_id
        if verb is Verb.HELP:
            return Outcome(True, None, (self._notice(room, "help", "Help", "play"),), rid)
        if verb is Verb.STATS:
            stats = self._notice(room, "stats", "Stats", "0 points", user_id=uid)
            return Outcome(True, None, (stats,), rid)
        if verb is Verb.JOIN and not room.arranging:
            room.seats[uid] = action.actor.name
            return Outcome(True, "joined", (self.table_view(room),), rid)
        if verb is Verb.START and not room.arranging:
            if uid != room.owner:
                return Outcome(False, "not yours")
            if len(room.seats) < 2:
                return Outcome(False, "2 players needed")
            room.round_no += 1
            room.arranging = True
            room.picked = {p: [] for p in room.seats}
            room.confirmed = set()
            hands = tuple(self.hand_view(room, p) for p in room.seats)
            return Outcome(True, None, (self.table_view(room), *hands), rid)
        if uid not in room.seats or not room.arranging:
            return Outcome(False, "not your game")
        picked = room.picked[uid]
        if verb is Verb.SHOW_HAND:
            return Outcome(True, None, (self.hand_view(room, uid),), rid)
        if uid in room.confirmed:
            return Outcome(False, "already confirmed")
        if verb is Verb.PICK:
            i = int(action.arg or "0")
            picked.remove(i) if i in picked else picked.append(i)
            return Outcome(True, None, (self.hand_view(room, uid),), rid)
        if verb is Verb.SUGGEST:
            return Outcome(True, None, (self.hand_view(room, uid, suggest=True),), rid)
        if verb is Verb.APPLY:
            room.picked[uid] = list(range(8))
            return Outcome(True, None, (self.hand_view(room, uid),), rid)
        if verb is Verb.CONFIRM:
            if len(picked) < self.cards_to_confirm:
                return Outcome(False, f"pick {self.cards_to_confirm} cards first")
            room.confirmed.add(uid)
            views = [self.hand_view(room, uid)]
            if room.confirmed == set(room.seats):
                views += self._settle(room)
            else:
                views.append(self.table_view(room))
            return Outcome(True, "confirmed", tuple(views), rid)
        return Outcome(False, "unsupported")

    async def expire(self, room_id: str) -> None:
        """What a deadline does: confirm everyone, views through the sink."""
        room = self.rooms[room_id]
        room.confirmed = set(room.seats)
        views = [self.hand_view(room, uid) for uid in room.seats] + self._settle(room)
        assert self.sink is not None
        await self.sink(views)
