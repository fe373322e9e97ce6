"""Every verb, and every fact about it in one table (``VERBS``).

A ``Verb`` is what an action does; its value is the short code in action
ids. ``VerbInfo`` says what the verb needs and how it is answered: the table
manager (which verbs need a room, change nothing, may run the solver, redraw
the owner's panel), the platform adapters (which answers go to the private
chat, which typed commands take an argument, which presses to acknowledge
before the answer is ready, which message a press was made on) and delivery
(which buttons of an old post still answer) all read it here, so a new verb
is one entry of this table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

MAX_ROUND_DIGITS = 9
_ANY_ROUND = 10**MAX_ROUND_DIGITS - 1


class Verb(StrEnum):
    """What an action does. Values are the short codes used in action ids."""

    # group / lobby
    NEW = "new"  # open a room in this chat (arg: preset)
    JOIN = "j"
    LEAVE = "l"
    START = "s"  # owner starts the round (also "next round")
    SET_OPTION = "o"  # owner: arg "name=value"
    ADD_AI = "ai"  # owner: arg "easy|normal|strong"
    REMOVE_AI = "rai"  # owner: arg seat/player id
    REMOVE_PLAYER = "rp"  # owner, before the deal: arg the seated person's user id
    LANGUAGE = "lang"  # arg: a code of bot/i18n/languages.py
    CANCEL = "x"  # owner closes the room
    SETTINGS = "set"  # show the settings panel
    # private arranging
    SHOW_HAND = "h"  # (re)send my hand view
    PICK = "p"  # arg: card index in the hand (0-based); tapping a placed card takes it back
    LANE = "ln"  # aim the next tapped cards at a lane; arg: 0 head, 1 middle, 2 tail
    UNDO = "u"
    RESET = "r"
    SORT = "so"  # arg: rank | suit | count
    SUGGEST = "sg"  # show suggestions; arg "page": the arranging page's (no chat edit)
    APPLY = "ap"  # arg: suggestion number (0-based)
    DECLARE = (
        "d"  # declare the special hand (报道); the page with 16 cards: the kept split, laid at once
    )
    CONFIRM = "c"  # the keyboard: no arg; the arranging page: presses.lay_arg's lanes, laid at once
    LAY = "ly"  # the arranging page's draft placed at once; arg: presses.lay_arg's lanes
    # information
    RULES = "ru"
    LEADERBOARD = "lb"  # arg: all | week | month
    STATS = "st"
    VERIFY = "v"  # arg: round number (default: last)
    REVIEW = "rv"  # my 复盘 of the button's round (after its showdown)
    REPLAY = "re"  # arg: round number in this chat's history (from 1)
    HELP = "?"


class Private(StrEnum):
    """A private message that presses are made on (and that their answer redraws)."""

    HAND = "hand"  # a player's hand: ``hand:<room>:<player>``
    PANEL = "panel"  # the owner's settings panel: ``settings:<room>``


@dataclass(frozen=True, slots=True)
class VerbInfo:
    """What a verb needs and how it is answered (the defaults: a verb that
    changes its room, answered at once, in the chat it was asked in)."""

    # It acts on a room; False: it also answers in a chat without one.
    room: bool = True
    # It changes nothing: answered from the stored state, nothing is written.
    read_only: bool = False
    # It answers whatever the round: an old post's button still works, and a
    # superseded message keeps it.
    informative: bool = False
    # It changes what the owner's settings panel shows: the panel is redrawn.
    panel: bool = False
    # Its answer is for the asker alone, in their private chat (never a new
    # group post each time someone asks).
    private_answer: bool = False
    # A typed command passes its first word on as the argument.
    arg: bool = False
    # Its argument is a whole number from 0 to this (checked when decoded).
    number: int | None = None
    # It may run the solver (a deal with AI seats, a leaver's hand
    # arranged, suggestions): worked out in a worker thread on a snapshot of
    # the room, outside its lock (bot/table/solved.py), and a command of it
    # is acknowledged before it is run.
    solver: bool = False
    # It may take a moment (the solver, a settlement, the history): a press
    # is acknowledged before it is run.
    slow: bool = False
    # Its button is only ever on the room's table message.
    table_only: bool = False
    # Pressed in a private chat: the message it is on.
    private: Private | None = None


_ARRANGE = VerbInfo(private=Private.HAND)
_PANEL = VerbInfo(panel=True, private=Private.PANEL)
_ASK = VerbInfo(room=False, read_only=True, informative=True, private_answer=True)
# The group's own board and a person's record: answered in the group asked in.
_BOARD = VerbInfo(room=False, read_only=True, informative=True)

VERBS: Mapping[Verb, VerbInfo] = MappingProxyType(
    {
        Verb.NEW: VerbInfo(room=False, arg=True),
        Verb.JOIN: VerbInfo(table_only=True),
        Verb.LEAVE: VerbInfo(solver=True, slow=True, table_only=True),
        Verb.START: VerbInfo(solver=True, slow=True),
        Verb.SET_OPTION: _PANEL,
        Verb.ADD_AI: _PANEL,
        Verb.REMOVE_AI: _PANEL,
        Verb.REMOVE_PLAYER: _PANEL,
        Verb.LANGUAGE: VerbInfo(panel=True, arg=True, private=Private.PANEL),
        Verb.CANCEL: VerbInfo(private=Private.PANEL),
        Verb.SETTINGS: VerbInfo(read_only=True, table_only=True, private=Private.PANEL),
        Verb.SHOW_HAND: VerbInfo(read_only=True, table_only=True, private=Private.HAND),
        Verb.PICK: VerbInfo(number=15, private=Private.HAND),
        Verb.LANE: VerbInfo(number=2, private=Private.HAND),
        Verb.UNDO: _ARRANGE,
        Verb.RESET: _ARRANGE,
        Verb.SORT: _ARRANGE,
        Verb.SUGGEST: VerbInfo(solver=True, slow=True, private=Private.HAND),
        Verb.APPLY: VerbInfo(number=19, slow=True, private=Private.HAND),
        Verb.DECLARE: VerbInfo(slow=True, private=Private.HAND),
        # arg=False: a typed command passes none; the page's confirm carries
        # its split (presses.lay_arg), laid and confirmed in one transition.
        Verb.CONFIRM: VerbInfo(slow=True, private=Private.HAND),
        Verb.LAY: _ARRANGE,
        Verb.RULES: _ASK,
        Verb.LEADERBOARD: VerbInfo(
            room=False, read_only=True, informative=True, arg=True, slow=True
        ),
        Verb.STATS: _BOARD,
        Verb.VERIFY: VerbInfo(
            read_only=True,
            informative=True,
            private_answer=True,
            arg=True,
            number=_ANY_ROUND,
            slow=True,
        ),
        Verb.REVIEW: VerbInfo(read_only=True, informative=True),
        Verb.REPLAY: VerbInfo(
            room=False, read_only=True, informative=True, arg=True, number=_ANY_ROUND
        ),
        Verb.HELP: _ASK,
    }
)
