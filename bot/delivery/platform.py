"""The platform seam: what a way to play provides to delivery.

One outbox (``bot.delivery.outbox``) takes every view to its chat and
decides, once for all platforms, what each outbox row becomes: nothing (the
message that shows its key shows this already), an edit of that message, or
a new post - and, after a post, which old buttons go. A platform (Telegram,
Discord, the web Mini App next) implements only this protocol: how to post,
edit and strip buttons with its own API, what its errors mean, which chats
are groups, and what a message shows (its fingerprint). It is registered
where the process is assembled (``bot/cli/run.py``): its outbox's engine is
started by its adapter, and ``Durable.register`` makes the table manager
write its views in the room's own transaction.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from datetime import timedelta
from typing import Protocol

from bot.delivery.transport import Hold, Permanent, RetryLater
from bot.views.model import Button, View
from storage.delivery import OutboxRow, SentRef

ButtonRows = tuple[tuple[Button, ...], ...]
# Which of some user ids the outbox can reach privately without their
# asking, and in which chat (user id -> chat).
PrivateChats = Callable[[Sequence[str]], Awaitable[dict[str, str]]]


class Platform(Protocol):
    """One platform's side of delivery. Every call but ``chat_of`` and
    ``is_group`` is made by a delivery lane for one outbox row (``row``, its
    view decoded as ``view``); a call that fails raises the platform's own
    error, which ``classify`` then reads."""

    @property
    def name(self) -> str:
        """The platform's name in the outbox and the ``messages`` table."""

    @property
    def repeat_window(self) -> timedelta | None:
        """How long after its first try a post that may have been made
        (a crash, a lost answer) can be repeated without showing twice:
        Discord drops a repeated nonce for a few minutes. A settlement is
        posted again only within it; None: never (Telegram)."""

    @property
    def new_round_new_message(self) -> bool:
        """Whether a view of another round than the message showing its key
        is a new message rather than an edit (Telegram: a player is
        notified of a new message, never of an edit)."""

    @property
    def dm_chats(self) -> PrivateChats | None:
        """None: every private view can be sent unprompted (to the player's
        own chat). Else only those of the players this names: the others'
        are shown by the adapter answering their own interaction (Discord's
        ephemerals), which no other process can do."""

    def is_group(self, chat_id: str) -> bool:
        """Whether a chat is a group (the group's flood limit) or private."""

    def chat_of(self, view: View) -> str | None:
        """The chat ``view`` is delivered to, None when not through the outbox."""

    async def check(self, row: OutboxRow, view: View) -> None:
        """Before anything is sent: raise ``Hold`` (the user must open the
        chat first), ``Permanent`` (no such chat) or ``RetryLater`` (the
        platform's client is not ready)."""

    def fingerprint(self, view: View, known: SentRef | None) -> str:
        """What the message will show (as an edit of ``known``, or as a new
        post when ``known`` is None): equal fingerprints, no edit."""

    async def edit(self, row: OutboxRow, view: View, known: SentRef) -> bool:
        """Make ``known``'s message show ``view``; False when it cannot (it
        is gone, or cannot take this content): the view is posted anew."""

    async def post(self, row: OutboxRow, view: View) -> str:
        """Post ``view`` as a new message in ``row``'s chat; its id (as it is
        stored in the ``messages`` table)."""

    async def strip_buttons(self, chat_id: str, message_id: str, keep: ButtonRows) -> None:
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
