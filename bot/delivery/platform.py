"""The platform seam: what a way to play provides to delivery.

One outbox (``bot.delivery.outbox``) takes every view to its chat and
decides, once for all platforms, what each outbox row becomes: nothing (the
message that shows its key shows this already), an edit of that message, or
a new post - and, after a post, which old buttons go. A platform (Telegram,
Discord, the web Mini App next) implements only this protocol: its traits,
how a row's view is rendered (``prepare``: once per row, with the
fingerprint of what it will show), how to post, edit and strip buttons with
its own API, what its errors mean. The outbox is built over the platform
where the process is assembled (the platform never holds it): the outbox
calls the platform, the platform never calls the outbox back; what the
platform has to say besides the row (a notice in a group) it hands back
with ``Prepared.notices`` or ``Hold.notices``, and the outbox writes it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Generic, Protocol, TypeVar

from bot.delivery.transport import Hold, Permanent, RetryLater
from bot.views.model import Button, View
from storage.delivery import OutboxRow, SentRef

ButtonRows = tuple[tuple[Button, ...], ...]
# Which of some user ids the outbox can reach privately without their
# asking, and in which chat (user id -> chat).
PrivateChats = Callable[[Sequence[str]], Awaitable[dict[str, str]]]
M = TypeVar("M")


@dataclass(frozen=True, slots=True)
class DeliveryTraits:
    """What the outbox's decision reads of a platform, once."""

    # The platform's name in the outbox and the ``messages`` table.
    name: str
    # How long after its first try a post that may have been made (a crash,
    # a lost answer) can be repeated without showing twice: Discord drops a
    # repeated nonce for a few minutes. A settlement is posted again only
    # within it; None: never (Telegram).
    repeat_window: timedelta | None = None
    # Whether a view of another round than the message showing its key is a
    # new message rather than an edit (Telegram: a player is notified of a
    # new message, never of an edit).
    new_round_new_message: bool = False
    # None: every private view can be sent unprompted (to the player's own
    # chat). Else only those of the players this names: the others' are
    # shown by the adapter answering their own interaction (Discord's
    # ephemerals), which no other process can do.
    dm_chats: PrivateChats | None = None


@dataclass(frozen=True, slots=True)
class Prepared(Generic[M]):
    """A row's view as the platform will show it: ``markup`` (the
    platform's own rendering, made once and used by the edit or the post)
    and the ``fingerprint`` of what the message will show (equal to the
    stored one: no edit). ``notices``: views the platform asks the outbox
    to write after the call (e.g. "I may not attach pictures here")."""

    view: View
    markup: M
    fingerprint: str
    notices: list[View] = field(default_factory=list)


class Platform(Protocol[M]):
    """One platform's side of delivery. ``prepare`` is called once per row
    the lane hands over, then ``edit`` or ``post`` once (``post`` again only
    when the message cannot be edited); a call that fails raises the
    platform's own error, which ``classify`` then reads."""

    @property
    def traits(self) -> DeliveryTraits: ...

    def is_group(self, chat_id: str) -> bool:
        """Whether a chat is a group (the group's flood limit) or private."""

    def chat_of(self, view: View) -> str | None:
        """The chat ``view`` is delivered to, None when not through the outbox."""

    async def prepare(self, row: OutboxRow, view: View, known: SentRef | None) -> Prepared[M]:
        """``view`` rendered for ``row``'s chat (as an edit of ``known``, or
        as a new post when ``known`` is None). Before anything is sent:
        raise ``Hold`` (the user must open the chat first), ``Permanent`` (no
        such chat) or ``RetryLater`` (the platform's client is not ready)."""

    async def edit(self, row: OutboxRow, prepared: Prepared[M], known: SentRef) -> bool:
        """Make ``known``'s message show ``prepared``; False when it cannot
        (it is gone, or cannot take this content): the view is posted anew."""

    async def post(self, row: OutboxRow, prepared: Prepared[M]) -> str:
        """Post ``prepared`` as a new message in ``row``'s chat; its id (as it
        is stored in the ``messages`` table)."""

    async def strip(self, chat_id: str, message_id: str, keep: ButtonRows) -> None:
        """The message's buttons become ``keep`` (none: no buttons). A
        message gone or not editable is left as it is."""

    async def classify(
        self, error: Exception, row: OutboxRow, view: View
    ) -> RetryLater | Permanent | Hold | None:
        """What a failed call means for the row; None: not the platform's
        error (the engine retries it a few times, then gives up)."""

    def maybe_posted(self, error: Exception) -> bool:
        """Whether a failed post may still have reached the chat: the request
        went out and its answer never came."""

    def own_button(self, action_id: str) -> tuple[str, int] | None:
        """The room and round of a button of the platform's own that is no
        action id (Discord's "my hand by DM"); None for any other."""
