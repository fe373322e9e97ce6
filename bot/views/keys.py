"""A view's key: which message of a chat a View is a state of.

Keys are stored (the outbox's rows, the sent messages' records), so their
text is a contract: ``<kind>:<field>:<field>…``, the last field taking the
rest (a player key holds a colon: ``hand:<room>:telegram:42``). An outbox
one-off adds ``#<tag>.<n>`` (each its own post). This module is the one
place that writes and reads that text (tests/test_layers.py holds the rest
of bot/ to it): ``ViewKey.parse`` and ``str()`` round-trip any string
exactly, a key of no known shape parsing as ``KeyKind.OTHER``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum


class KeyKind(StrEnum):
    TABLE = "table"  # table:<room>
    HAND = "hand"  # hand:<room>:<player key>
    SETTLE = "settle"  # settle:<room>:<round>
    SETTINGS = "settings"  # settings:<room> (the owner's panel)
    SETTINGS_READ = "settings-read"  # settings-read:<rules key> (another's read of them)
    CLOSE = "close"  # close:<room>
    VERIFY = "verify"  # verify:<room>:<round>
    NOTICE = "notice"  # notice:<room>:<catalog key>
    FINAL = "final"  # final:<room>:<match seq>
    REVIEW = "review"  # review:<room>:<round>:<user id>
    REACH = "reach"  # reach:<room> (Telegram: who must open the private chat)
    HELP = "help"  # help:<room, or chat outside a room, or -> / help:open:<user id>
    RULES = "rules"  # rules:<room, or chat outside a room, or ->
    LEADERBOARD = "leaderboard"  # leaderboard:<chat>[:<board>]
    STATS = "stats"  # stats:<player key>
    REPLAY = "replay"  # replay:<chat>:<n>
    OTHER = "other"  # none of these: kept whole in ``text``


# The fields after the kind, in order; the last takes the rest of the key.
_LAYOUT: dict[KeyKind, tuple[str, ...]] = {
    KeyKind.TABLE: ("scope",),
    KeyKind.HAND: ("scope", "player"),
    KeyKind.SETTLE: ("scope", "round"),
    KeyKind.SETTINGS: ("scope",),
    KeyKind.CLOSE: ("scope",),
    KeyKind.VERIFY: ("scope", "round"),
    KeyKind.NOTICE: ("scope", "name"),
    KeyKind.FINAL: ("scope", "name"),
    KeyKind.REVIEW: ("scope", "round", "player"),
    KeyKind.REACH: ("scope",),
    KeyKind.HELP: ("scope", "name"),
    KeyKind.RULES: ("scope",),
    KeyKind.LEADERBOARD: ("scope", "name"),
    KeyKind.STATS: ("scope",),
    KeyKind.REPLAY: ("scope", "name"),
}
# Whose ``scope`` is the room (help and rules: the room when asked in one).
_ROOM_SCOPED = frozenset(
    {
        KeyKind.TABLE,
        KeyKind.HAND,
        KeyKind.SETTLE,
        KeyKind.SETTINGS,
        KeyKind.CLOSE,
        KeyKind.VERIFY,
        KeyKind.NOTICE,
        KeyKind.FINAL,
        KeyKind.REVIEW,
        KeyKind.REACH,
        KeyKind.HELP,
        KeyKind.RULES,
    }
)
# Notices keyed by what they show, so asking again edits one message.
KEYED_NOTICES = frozenset(
    {KeyKind.SETTINGS, KeyKind.HELP, KeyKind.RULES, KeyKind.LEADERBOARD, KeyKind.STATS}
)
# The information posts (one per chat, stats one per person) …
INFO_NOTICES = frozenset({KeyKind.HELP, KeyKind.RULES, KeyKind.LEADERBOARD, KeyKind.STATS})
# … of which the group's board and a person's record in the group: asked
# again within a short while (a flood of /leaderboard), the one just posted is
# edited (or left alone, unchanged); later, after a round, posted anew.
BOARD_NOTICES = frozenset({KeyKind.LEADERBOARD, KeyKind.STATS})


@dataclass(frozen=True, slots=True)
class ViewKey:
    """A parsed view key. ``scope`` is the first field: the room (the
    room's views), the chat (leaderboard, replay) or the player key
    (stats). ``round``: settle, verify, review. ``player``: the player key
    of a hand, the user id of a review. ``name``: a notice's catalog key, a
    final's match number, a replay's number, a leaderboard's board.
    ``help:open:<user>``'s user id is its ``name``.
    ``inner``: the rules key a settings-read wraps. ``one_off``: the
    outbox's ``<tag>.<n>`` ("" for a keyed message). ``text``: an OTHER
    key's whole text."""

    kind: KeyKind
    scope: str = ""
    round: int | None = None
    player: str = ""
    name: str = ""
    inner: ViewKey | None = None
    one_off: str = ""
    text: str = ""

    @classmethod
    def parse(cls, key: str) -> ViewKey:
        base, hashed, one_off = key.partition("#")
        found = cls._fields_of(base)
        if hashed:
            found = replace(found, one_off=one_off)
        if found.kind is not KeyKind.OTHER and str(found) == key:
            return found
        return cls(KeyKind.OTHER, text=key)

    @classmethod
    def _fields_of(cls, base: str) -> ViewKey:
        head, colon, rest = base.partition(":")
        try:
            kind = KeyKind(head)
        except ValueError:
            return cls(KeyKind.OTHER)
        if not colon or kind is KeyKind.OTHER:
            return cls(KeyKind.OTHER)
        if kind is KeyKind.SETTINGS_READ:
            return cls(kind, inner=cls.parse(rest))
        layout = _LAYOUT[kind]
        scope, *more = rest.split(":", len(layout) - 1)
        others = dict(zip(layout[1:], more, strict=False))
        round_text = others.get("round")
        if round_text is not None and not round_text.isdigit():
            return cls(KeyKind.OTHER)
        return cls(
            kind,
            scope,
            round=None if round_text is None else int(round_text),
            player=others.get("player", ""),
            name=others.get("name", ""),
        )

    def __str__(self) -> str:
        if self.kind is KeyKind.OTHER:
            return self.text
        if self.kind is KeyKind.SETTINGS_READ:
            base = f"{self.kind.value}:{self.inner}"
        else:
            values = [
                "" if (value := getattr(self, name)) is None else str(value)
                for name in _LAYOUT[self.kind]
            ]
            while len(values) > 1 and not values[-1]:
                values.pop()  # an optional last field left out (leaderboard:<chat>)
            base = ":".join((self.kind.value, *values))
        return f"{base}#{self.one_off}" if self.one_off else base

    @property
    def room(self) -> str | None:
        """The room this message is of (None: a chat's or a person's)."""
        if self.kind is KeyKind.SETTINGS_READ:
            return self.inner.room if self.inner else None
        if self.kind is KeyKind.HELP and self.name:
            return None  # help:open:<user>: a member's notice to open the private chat
        return (self.scope or None) if self.kind in _ROOM_SCOPED else None

    def with_one_off(self, tag: str) -> ViewKey:
        """This key made a one-off post's (``<key>#<tag>``)."""
        if self.kind is KeyKind.OTHER:
            return replace(self, text=f"{self.text}#{tag}")
        return replace(self, one_off=tag)

    @property
    def is_one_off(self) -> bool:
        return bool(self.one_off) or (self.kind is KeyKind.OTHER and "#" in self.text)
