"""Which views go to the outbox, under which key.

A view's outbox key names the message it shows within its chat: successive
states of ``table:<room>`` or ``hand:<room>:<player>`` are one message (a
later one supersedes an undelivered earlier one). One-off notices
(reminders, verify answers) get a unique suffix, so each is its own post.
Settings panels (one per user and room) and the information posts (rules,
help, leaderboard: one per chat; stats: one per person) are keyed too, so
repeated asks edit one message instead of posting again.
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Protocol

from bot.delivery.payload import view_to_payload
from bot.delivery.platform import DeliveryTraits
from bot.views.model import Audience, View, ViewKind
from storage.delivery import OutboxEntry

OUTBOX_META = "outbox"  # set on a view already written to the outbox
KEYED_NOTICES = ("settings:", "help:", "rules:", "leaderboard:", "stats:")
INFO_NOTICES = ("help:", "rules:", "leaderboard:", "stats:")
# The group's board and a person's record in the group: asked again within
# a short while (a flood of /leaderboard), the one just posted is edited (or
# left alone, unchanged); later, after a round, posted anew where it is seen.
BOARD_NOTICES = ("leaderboard:", "stats:")


def target_chat(view: View) -> str:
    """Where a view goes: the player's private chat, or the group."""
    if view.audience is Audience.PLAYER:
        return view.user_id or ""
    return view.chat_id


def is_one_off(view: View) -> bool:
    return view.kind is ViewKind.NOTICE and not view.key.startswith(KEYED_NOTICES)


def is_one_off_key(key: str) -> bool:
    return "#" in key


def view_entries(views: Iterable[View], tag: str | None = None) -> list[OutboxEntry]:
    """Outbox entries for ``views``; one-off notices are keyed ``<key>#<tag>.<n>``
    (``tag``: e.g. the room version that produced them, or a random one)."""
    tag = tag or uuid.uuid4().hex[:12]
    out: list[OutboxEntry] = []
    for n, view in enumerate(views):
        chat = target_chat(view)
        if not chat or not view.platform:
            continue
        key = f"{view.key}#{tag}.{n}" if is_one_off(view) else view.key
        out.append(
            OutboxEntry(
                view.platform, chat, key, view.kind.value, view_to_payload(view), view.fresh
            )
        )
    return out


def is_durable(view: View) -> bool:
    return OUTBOX_META in view.meta


PrivateChats = Mapping[tuple[str, str], str]  # (platform, user id) -> chat


class Lanes(Protocol):
    """A platform's outbox as the table manager sees it: the platform's
    traits, and its lanes to wake when rows of theirs are stored."""

    @property
    def traits(self) -> DeliveryTraits: ...

    def wake(self, chat_ids: Iterable[str]) -> None: ...


class Durable:
    """The table manager's switch for the outbox: views of the platforms in
    ``platforms`` are written with the state change that produced them and
    handed back marked (``is_durable``): their lanes are woken once the
    transaction commits (``written``), and the adapter leaves them alone.
    Platforms in ``group_only`` too have only their group views written:
    their private views are bound to the player's own interaction (Discord's
    ephemerals), which only the adapter answering it can show - except for
    players who take them by DM: ``dm_chats[platform]`` answers which of
    some user ids chose that, and their chats; the private views of those
    players that no interaction of theirs is waiting for (the deal, the
    auto-arrange, another player's move) are written with the state change,
    to that chat. Platforms' outboxes are registered where the process is
    assembled (``register``), with the store they deliver from being the
    manager's repository."""

    def __init__(self) -> None:
        self.platforms: set[str] = set()
        self.group_only: set[str] = set()
        self.dm_chats: dict[str, Callable[[Sequence[str]], Awaitable[dict[str, str]]]] = {}
        self._lanes: dict[str, Lanes] = {}

    def register(self, lanes: Lanes) -> None:
        """From now on the views of ``lanes``' platform (its outbox) are
        written with the state changes that produced them (its private
        views only where ``traits.dm_chats`` says they can be sent
        unprompted), and its lanes woken once they are stored."""
        traits = lanes.traits
        self.platforms.add(traits.name)
        self._lanes[traits.name] = lanes
        if traits.dm_chats is not None:
            self.group_only.add(traits.name)
            self.dm_chats[traits.name] = traits.dm_chats

    def written(self, entries: Iterable[OutboxEntry]) -> None:
        """``entries`` are stored (their transaction committed): the lanes
        of their chats go, by key - the adapter does not hand them back
        (within an adapter's ``answer_first`` turn: once it answered)."""
        chats: dict[str, list[str]] = {}
        for entry in entries:
            chats.setdefault(entry.platform, []).append(entry.chat_id)
        turn = _TURN.get()
        for platform, chat_ids in chats.items():
            lanes = self._lanes.get(platform)
            if lanes is None:
                continue
            if turn is not None and turn.open:
                turn.wakes.append((lanes, chat_ids))
            else:
                lanes.wake(chat_ids)

    async def private_chats(self, views: Sequence[View], actor: str | None) -> PrivateChats:
        """Where the private views of ``group_only`` platforms go in the
        transaction (read before it): every player's but the actor's
        (``platform:user``), whose own interaction answers them."""
        wanted: dict[str, set[str]] = {}
        for view in views:
            if (
                view.audience is Audience.PLAYER
                and view.platform in self.dm_chats
                and view.user_id
                and f"{view.platform}:{view.user_id}" != actor
            ):
                wanted.setdefault(view.platform, set()).add(view.user_id)
        out: dict[tuple[str, str], str] = {}
        for platform, users in wanted.items():
            chats = await self.dm_chats[platform](sorted(users))
            out.update({(platform, user): chat for user, chat in chats.items()})
        return out

    def split(
        self, views: Sequence[View], tag: str, private: PrivateChats | None = None
    ) -> tuple[list[View], list[OutboxEntry]]:
        if not self.platforms:
            return list(views), []
        marked: list[View] = []
        entries: list[OutboxEntry] = []
        for view in views:
            chat = None
            if view.audience is Audience.PLAYER and view.platform in self.group_only:
                chat = (private or {}).get((view.platform, view.user_id or ""))
                if chat is None:
                    marked.append(view)
                    continue
            if view.platform not in self.platforms:
                marked.append(view)
                continue
            found = view_entries([view], f"{tag}.{len(entries)}")
            if chat is not None:
                found = [dataclasses.replace(e, chat_id=chat) for e in found]
            if not found:
                marked.append(view)
                continue
            entries.extend(found)
            meta = {**view.meta, OUTBOX_META: found[0].key}
            marked.append(dataclasses.replace(view, meta=meta))
        return marked, entries


@dataclass(slots=True)
class _Turn:
    open: bool = True
    wakes: list[tuple[Lanes, list[str]]] = field(default_factory=list)


_TURN: ContextVar[_Turn | None] = ContextVar("delivery_turn", default=None)


@contextmanager
def answer_first() -> Iterator[None]:
    """An adapter's turn (a press, a command): the lanes of the rows its
    action writes are woken when the turn ends - the press answered, its
    other views handed on - rather than at the commit, so a lane's
    coalescing window starts where the player's next press can follow."""
    turn = _Turn()
    token = _TURN.set(turn)
    try:
        yield
    finally:
        _TURN.reset(token)
        turn.open = False  # a commit later (a task the turn started) wakes at once
        for lanes, chat_ids in turn.wakes:
            lanes.wake(chat_ids)
