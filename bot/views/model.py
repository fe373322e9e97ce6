"""Platform-neutral view models: what a chat shows, not how.

The table manager returns Views; each platform adapter renders them with its
own widgets (Telegram inline keyboards, Discord buttons, console text).
A View's ``key`` names the message it belongs to, so an adapter edits the
message it sent for that key instead of sending a new one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.core.actions import ActionIdError, Verb, decode
from bot.i18n.languages import DEFAULT_LANGUAGE


class ButtonStyle(StrEnum):
    PRIMARY = "primary"
    SECONDARY = "secondary"
    SUCCESS = "success"
    DANGER = "danger"


@dataclass(frozen=True, slots=True)
class Button:
    """One button. ``action_id`` is a compact action string (see
    ``bot.core.actions.encode``), at most 64 bytes; ``url`` buttons open a
    link instead (deep links to the private chat)."""

    label: str
    action_id: str | None = None
    style: ButtonStyle = ButtonStyle.SECONDARY
    url: str | None = None
    disabled: bool = False
    # Opens the arranging page for this view's room and round: the platform
    # makes the address (or leaves the button out where the page is off).
    web_app: bool = False


class ViewKind(StrEnum):
    TABLE = "table"  # the room's one lobby/table message in the group
    SETTLEMENT = "settlement"  # a round's result, posted once per round in the group
    SHOWDOWN = "showdown"  # with pictures: the showdown's own message, edited at each step
    HAND = "hand"  # a player's private hand and arranging keyboard
    NOTICE = "notice"  # a one-off message (reminder, info) to the group or a player


@dataclass(frozen=True, slots=True)
class Picture:
    """A picture that goes with a message (Telegram: the photo, the text its
    caption; Discord: the embed's image). ``render(data)`` gives the PNG: a
    pure function of ``data``, safe in a worker thread (``bot.pictures``'s
    ``render_async``), so adapters render off the event loop and only when
    they send. ``data`` (a frozen ``bot.pictures`` input) also says whether
    the picture changed: equal data, equal picture."""

    render: Callable[[Any], bytes]
    data: Any
    filename: str = "cards.png"

    @property
    def fingerprint(self) -> str:
        return f"{getattr(self.render, '__name__', '?')}:{self.data!r}"


@dataclass(frozen=True, slots=True)
class Mention:
    """A person a message mentions: their platform user id and the name
    the text shows them by."""

    user_id: str
    name: str


class Audience(StrEnum):
    GROUP = "group"  # the room's group chat / channel
    PLAYER = "player"  # one player, privately (DM / ephemeral)


@dataclass(frozen=True, slots=True)
class View:
    """One message's content, addressed to the group or to one player.

    ``key`` identifies the message to edit in place (``table:<room>``,
    ``hand:<room>:<player>``); two Views with the same key are successive
    states of one message. ``user_id`` is the platform user id for PLAYER
    views. ``lines`` are the text, one item per line; ``title`` is a short
    heading (Discord embed title, bold first line elsewhere).
    """

    kind: ViewKind
    audience: Audience
    key: str
    title: str
    lines: tuple[str, ...]
    buttons: tuple[tuple[Button, ...], ...] = ()
    platform: str = ""
    chat_id: str = ""  # the group chat / channel id
    user_id: str | None = None  # the player, for PLAYER views
    language: str = DEFAULT_LANGUAGE
    # New message instead of an edit (e.g. the settlement of each round).
    fresh: bool = False
    meta: dict[str, str] = field(default_factory=dict, compare=False)
    # The card picture sent with this message; None: text only (pictures off,
    # or a message without one).
    picture: Picture | None = field(default=None, compare=False)
    # People the message names who are to be notified (Telegram: a mention
    # of the user over their name in the text; Discord: ``<@id>``).
    mentions: tuple[Mention, ...] = ()

    @property
    def text(self) -> str:
        body = "\n".join(self.lines)
        return f"{self.title}\n{body}" if self.title else body

    def acting(self, verb: Verb) -> tuple[str, int] | None:
        """The room and round of this view's first button of ``verb`` (None:
        it has none)."""
        for row in self.buttons:
            for button in row:
                try:
                    room_id, round_no, found, _arg = decode(button.action_id or "")
                except ActionIdError:
                    continue
                if found is verb:
                    return room_id, round_no
        return None
