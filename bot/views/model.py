"""Platform-neutral view models: what a chat shows, not how.

The table manager returns Views; each platform adapter renders them with its
own widgets (Telegram inline keyboards, Discord buttons, console text).
A View's ``key`` names the message it belongs to, so an adapter edits the
message it sent for that key instead of sending a new one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.core.actions import ActionIdError, Verb, decode
from bot.core.state import Phase
from bot.i18n.languages import DEFAULT_LANGUAGE
from bot.views.keys import ViewKey


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


def _number(value: object) -> int | None:
    text = str(value) if value is not None else ""
    return int(text) if text.isdigit() else None


@dataclass(frozen=True, slots=True)
class ViewMeta:
    """What a view says of itself besides its content, for the delivery and
    the platforms (never shown): its round, the table's phase, the hand's
    deadline. Stored with the view in the outbox as the strings it always
    was (``to_payload`` / ``from_payload``), so rows written before it read."""

    round: int | None = None  # the room's round the message is of
    phase: Phase | None = None  # the table's phase (table views)
    player: str | None = None  # the player a hand is of
    deadline: int | None = None  # a hand's deadline, Unix seconds
    lobby_lines: int = 0  # a settlement's first lines that are the lobby's
    final: bool = False  # a match's final results
    file_name: str | None = None  # a replay's judge line, as a file
    file_text: str | None = None
    outbox: str | None = None  # the outbox key it was written under already

    @property
    def round_tag(self) -> str | None:
        """The round as the sent messages' records keep it."""
        return None if self.round is None else str(self.round)

    def to_payload(self) -> dict[str, str]:
        out = {
            "round": self.round_tag,
            "phase": None if self.phase is None else self.phase.value,
            "player": self.player,
            "deadline": None if self.deadline is None else str(self.deadline),
            "lobby_lines": str(self.lobby_lines) if self.lobby_lines else None,
            "final": "1" if self.final else None,
            "file_name": self.file_name,
            "file_text": self.file_text,
            "outbox": self.outbox,
        }
        return {k: v for k, v in out.items() if v is not None}

    @classmethod
    def from_payload(cls, data: Mapping[str, object] | None) -> ViewMeta:
        """The meta of a stored view (any other entry an older row holds is
        left out; a value of no known form reads as absent)."""
        d = {str(k): str(v) for k, v in (data or {}).items()}
        phase = d.get("phase")
        return cls(
            round=_number(d.get("round")),
            phase=Phase(phase) if phase in _PHASES else None,
            player=d.get("player"),
            deadline=_number(d.get("deadline")),
            lobby_lines=_number(d.get("lobby_lines")) or 0,
            final=bool(d.get("final")),
            file_name=d.get("file_name"),
            file_text=d.get("file_text"),
            outbox=d.get("outbox"),
        )


_PHASES = frozenset(p.value for p in Phase)


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
    meta: ViewMeta = field(default=ViewMeta(), compare=False)
    # The card picture sent with this message; None: text only (pictures off,
    # or a message without one).
    picture: Picture | None = field(default=None, compare=False)
    # People the message names who are to be notified (Telegram: a mention
    # of the user over their name in the text; Discord: ``<@id>``).
    mentions: tuple[Mention, ...] = ()

    @property
    def view_key(self) -> ViewKey:
        """``key``, parsed."""
        return ViewKey.parse(self.key)

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
