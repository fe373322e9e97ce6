"""Actions into the table manager and what handling one produced.

The action-id codec, ``Actor`` and ``Action`` live in
:mod:`bot.core.actions`, ``Verb`` and its facts in :mod:`bot.core.verbs`
(below both the table and the views); they are re-exported here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.core.actions import (
    ACTION_PREFIX,
    MAX_ACTION_ID_BYTES,
    MAX_ROUND_DIGITS,
    NUMBER_ARGS,
    Action,
    ActionIdError,
    Actor,
    Verb,
    decode,
    encode,
    small_number,
)
from bot.core.room import Room
from bot.core.verbs import VERBS, VerbInfo
from bot.views.model import View

from .refused import STALE


@dataclass(frozen=True, slots=True)
class Attachment:
    """A file that goes with the answer (a replay's judge line)."""

    name: str
    text: str


@dataclass(frozen=True, slots=True)
class Outcome:
    """What handling an action produced.

    ``ok`` is False when the action was refused; ``reply`` is then the short
    reason for the actor alone (Telegram answerCallbackQuery alert, Discord
    ephemeral), ``refused`` its catalog key, and nothing changed.
    ``views`` are the messages that changed and must be sent or edited, in
    order; ``file`` a file to send with the answer. ``room`` is the room as
    an accepted action stored it (the stored object itself, never changed
    in place: read it, do not change it), so a caller that shows the result
    (the arranging page) need not read it again.
    """

    ok: bool
    reply: str | None = None
    views: tuple[View, ...] = ()
    room_id: str | None = None
    refused: str | None = None
    file: Attachment | None = None
    room: Room | None = field(default=None, compare=False, repr=False)

    @property
    def stale(self) -> bool:
        """Refused as a button of another round than the room's."""
        return self.refused == STALE


__all__ = [
    "ACTION_PREFIX",
    "MAX_ACTION_ID_BYTES",
    "MAX_ROUND_DIGITS",
    "NUMBER_ARGS",
    "Action",
    "ActionIdError",
    "Actor",
    "Attachment",
    "Outcome",
    "STALE",
    "VERBS",
    "Verb",
    "VerbInfo",
    "decode",
    "encode",
    "small_number",
]
