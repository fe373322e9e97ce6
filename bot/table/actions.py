"""Actions into the table manager and what handling one produced.

The action-id codec, ``Verb``, ``Actor`` and ``Action`` live in
:mod:`bot.core.actions` (below both the table and the views); they are
re-exported here for existing callers.
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
from bot.views.model import View

# Outcome.extra["refused"] of a button of an older round (nothing changed).
STALE = "err.stale"


@dataclass(frozen=True, slots=True)
class Outcome:
    """What handling an action produced.

    ``ok`` is False when the action was refused; ``reply`` is then the short
    reason for the actor alone (Telegram answerCallbackQuery alert, Discord
    ephemeral), ``extra["refused"]`` its catalog key, and nothing changed.
    ``views`` are the messages that changed and must be sent or edited, in
    order.
    """

    ok: bool
    reply: str | None = None
    views: tuple[View, ...] = ()
    room_id: str | None = None
    extra: dict[str, str] = field(default_factory=dict)


__all__ = [
    "ACTION_PREFIX",
    "MAX_ACTION_ID_BYTES",
    "MAX_ROUND_DIGITS",
    "NUMBER_ARGS",
    "Action",
    "ActionIdError",
    "Actor",
    "Outcome",
    "STALE",
    "Verb",
    "decode",
    "encode",
    "small_number",
]
