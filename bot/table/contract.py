"""What a way to play needs of the table manager: the one seam every
platform's adapter is wired through (Telegram, Discord; the arranging page
has its own, ``bot.web.desk.DeskTable``). ``TableManager`` is one; the adapter
tests use a fake (tests/fakes.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from bot.core.room import Room
from bot.views.model import View

from .actions import Action, Outcome

# Where the views made without an action (timers) go: a platform's adapter.
Sink = Callable[[Sequence[View]], Awaitable[None]]


class ActionObserver(Protocol):
    """What is told of every action the manager handled (the process's
    metrics): given to the manager at construction."""

    def action_done(self, action: Action, outcome: Outcome, seconds: float) -> None: ...


class TableLike(Protocol):
    """Actions in, an ``Outcome`` with views out; the room as stored now;
    and the adapter that takes the views of the manager's timers."""

    async def handle(self, action: Action) -> Outcome: ...

    async def room(self, room_id: str) -> Room | None: ...

    def set_sink(self, sink: Sink) -> None: ...
