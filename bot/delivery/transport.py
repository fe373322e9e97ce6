"""What a platform supplies to the delivery engine, and how it reports failures."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

from storage.delivery import OutboxRow, OutboxState, SentRef

if TYPE_CHECKING:
    from bot.views.model import View


class RetryLater(Exception):  # noqa: N818 - a signal, not a failure
    """A transient failure (429, 5xx, network): try again after ``after``
    seconds (the platform's retry_after), or after the engine's back-off."""

    def __init__(self, reason: str, after: float | None = None, kind: str = "transient") -> None:
        super().__init__(reason)
        self.after = after
        self.kind = kind


# The reason of a retry whose post may have been made already (the request
# went out, the answer never came): kept on the row until the row is
# delivered, so every later try of it knows it may be a repeat.
UNSURE = "posted?: "


def is_unsure(row: OutboxRow) -> bool:
    """Whether an earlier try of ``row`` may have posted it (a try cut off
    by a crash, or one whose answer was lost)."""
    return row.state is OutboxState.SENDING or (row.last_error or "").startswith(UNSURE)


def as_unsure(found: RetryLater) -> RetryLater:
    """``found``, marked as a retry of a post that may have been made."""
    reason = str(found)
    return RetryLater(
        reason if reason.startswith(UNSURE) else UNSURE + reason, found.after, found.kind
    )


def first_handed(row: OutboxRow) -> datetime:
    """No later than the first time ``row`` was handed to the platform: the
    due time of a try cut off by a crash, or (once a try failed unsure) the
    row's creation."""
    if (row.last_error or "").startswith(UNSURE):
        return row.created_at
    return row.next_attempt_at


class Permanent(Exception):  # noqa: N818
    """A failure that retrying cannot cure (blocked, chat gone): recorded, not retried."""

    def __init__(self, reason: str, kind: str = "permanent") -> None:
        super().__init__(reason)
        self.kind = kind


class Hold(Exception):  # noqa: N818
    """The chat cannot be reached until its user does something (opens the
    private chat): kept, and sent when the platform releases it. ``notices``:
    views the outbox writes then (the group told whom to wait for)."""

    def __init__(self, reason: str, notices: Sequence[View] = ()) -> None:
        super().__init__(reason)
        self.notices = tuple(notices)


class Transport(Protocol):
    platform: str

    def is_group(self, chat_id: str) -> bool:
        """Whether the chat is a group (the group limit applies) or private."""

    async def deliver(self, row: OutboxRow) -> SentRef | None:
        """Post or edit the message for ``row``; the message now showing it
        (None for a one-off or a view dropped on purpose). Raises RetryLater
        or Permanent. ``row.state`` SENDING means an earlier try may have
        posted it just before a crash."""
