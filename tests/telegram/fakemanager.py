"""A tiny stand-in for the TableManager, for adapter tests that must not
depend on the game: it follows the table contract (Actions in, Outcome with
Views out, action ids from ``encode``) with a toy "arrange 8 cards" round."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.table.actions import Action, Outcome, Verb, encode
from bot.views.model import Audience, Button, View, ViewKind


@dataclass
class Room:
    room_id: str
    chat_id: str
    owner: str
    players: dict[str, str] = field(default_factory=dict)  # user id -> name
    round_no: int = 0
    picked: dict[str, list[int]] = field(default_factory=dict)
    done: set[str] = field(default_factory=set)


class FakeManager:
    def __init__(self) -> None:
        self.rooms: dict[str, Room] = {}
        self.actions: list[Action] = []
        self.sink = None

    def set_sink(self, sink) -> None:  # type: ignore[no-untyped-def]
        self.sink = sink

    def _table(self, room: Room, fresh: bool = False) -> View:
        rid, rnd = room.room_id, room.round_no
        lines = tuple(
            f"{name}{' ✅' if uid in room.done else ''}" for uid, name in room.players.items()
        )
        buttons = (
            (
                Button("Join", encode(rid, rnd, Verb.JOIN)),
                Button("Start", encode(rid, rnd, Verb.START)),
            ),
        )
        return View(
            ViewKind.TABLE,
            Audience.GROUP,
            f"table:{rid}",
            f"Room {rid} round {rnd}",
            lines,
            buttons,
            platform="telegram",
            chat_id=room.chat_id,
            fresh=fresh,
        )

    def _hand(self, room: Room, uid: str, suggest: bool = False) -> View:
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
        rows = (cards[:7], cards[7:], controls)
        if suggest:
            rows += ((Button("Apply 0", encode(rid, rnd, Verb.APPLY, "0")),),)
        return View(
            ViewKind.HAND,
            Audience.PLAYER,
            f"hand:{rid}:telegram:{uid}",
            "Hand",
            (f"picked {len(picked)}", "done" if uid in room.done else "arranging"),
            rows,
            platform="telegram",
            chat_id=room.chat_id,
            user_id=uid,
        )

    def _find(self, action: Action) -> Room | None:
        if action.room_id:
            return self.rooms.get(action.room_id)
        return next((r for r in self.rooms.values() if r.chat_id == action.chat_id), None)

    async def room_state(self, room_id: str) -> dict[str, object] | None:
        room = self.rooms.get(room_id)
        if room is None:
            return None
        return {"platform": "telegram", "chat_id": room.chat_id, "owner": room.owner}

    async def handle(self, action: Action) -> Outcome:
        self.actions.append(action)
        uid, verb = action.actor.user_id, action.verb
        if verb is Verb.NEW:
            rid = f"r{len(self.rooms) + 1}"
            room = self.rooms[rid] = Room(rid, action.chat_id, uid)
            return Outcome(True, "opened", (self._table(room, fresh=True),), rid)
        room = self._find(action)
        if room is None:
            return Outcome(False, "no room")
        if action.round_no is not None and action.round_no != room.round_no:
            return Outcome(False, "stale button")
        if verb is Verb.HELP:
            return Outcome(
                True,
                None,
                (
                    View(
                        ViewKind.NOTICE,
                        Audience.GROUP,
                        f"help:{room.room_id}",
                        "Help",
                        ("play",),
                        chat_id=room.chat_id,
                    ),
                ),
                room.room_id,
            )
        if verb is Verb.STATS:
            return Outcome(
                True,
                None,
                (
                    View(
                        ViewKind.NOTICE,
                        Audience.PLAYER,
                        f"stats:{room.room_id}",
                        "Stats",
                        ("0 points",),
                        user_id=uid,
                    ),
                ),
                room.room_id,
            )
        if verb is Verb.JOIN:
            room.players[uid] = action.actor.name
            return Outcome(True, "joined", (self._table(room),), room.room_id)
        if verb is Verb.START:
            if uid != room.owner or len(room.players) < 2:
                return Outcome(False, "owner only, 2 players")
            room.round_no += 1
            room.picked = {p: [] for p in room.players}
            room.done = set()
            hands = tuple(self._hand(room, p) for p in room.players)
            return Outcome(True, None, (self._table(room), *hands), room.room_id)
        if uid not in room.players or room.round_no == 0:
            return Outcome(False, "not your game")
        picked = room.picked[uid]
        if verb is Verb.SHOW_HAND:
            return Outcome(True, None, (self._hand(room, uid),), room.room_id)
        if verb is Verb.PICK:
            i = int(action.arg or "0")
            picked.remove(i) if i in picked else picked.append(i)
            return Outcome(True, None, (self._hand(room, uid),), room.room_id)
        if verb is Verb.SUGGEST:
            return Outcome(True, None, (self._hand(room, uid, suggest=True),), room.room_id)
        if verb is Verb.APPLY:
            room.picked[uid] = list(range(8))
            return Outcome(True, None, (self._hand(room, uid),), room.room_id)
        if verb is Verb.CONFIRM:
            if len(picked) < 8:
                return Outcome(False, "pick 8 cards first")
            room.done.add(uid)
            views = [self._table(room), self._hand(room, uid)]
            if room.done == set(room.players):
                views.append(
                    View(
                        ViewKind.SETTLEMENT,
                        Audience.GROUP,
                        f"settle:{room.room_id}:{room.round_no}",
                        "Settlement",
                        tuple(f"{n}: 0" for n in room.players.values()),
                        ((Button("Next round", encode(room.room_id, room.round_no, Verb.START)),),),
                        chat_id=room.chat_id,
                        fresh=True,
                    )
                )
            return Outcome(True, "confirmed", tuple(views), room.room_id)
        return Outcome(False, "unsupported")
