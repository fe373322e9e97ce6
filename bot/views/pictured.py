"""Which messages carry a card picture, and the picture's input.

A room shows pictures unless its owner turned them off (the room option
``pictures``) or the bot's PICTURES setting is off: the table manager is
built with ``pictures=settings.pictures`` and passes it to every renderer
here as the keyword ``pictures`` (False: every room is text only). With
pictures, the private hand, the round's table (every seat's lanes face down
while the hands are arranged; the same message then turned up step by step
is the showdown, and stays the round's record) and the settlement each carry
a :class:`~bot.views.model.Picture`; the text stays as the caption / embed
text.
"""

from __future__ import annotations

import dataclasses

from bot.core.final import MatchSummary
from bot.core.room import Room
from bot.pictures import (
    dealt_picture,
    hand_picture,
    render_dealt,
    render_hand,
    render_settlement,
    render_showdown,
    settlement_picture,
    showdown_picture,
)
from bot.pictures.final import final_picture, render_final

from .model import Picture, View, ViewKind


def pictures_on(room: Room, *, pictures: bool = True) -> bool:
    """Pictures for this room: the bot's setting (``pictures``) and the
    room's own option."""
    return pictures and room.pictures_on


def with_hand(view: View, room: Room, key: str, *, pictures: bool = True) -> View:
    """The private hand's picture while the round is live, and once it is
    paid (its status the player's result)."""
    if not pictures_on(room, pictures=pictures):
        return view
    if not room.live and not (room.round is not None and room.round.settled):
        return view
    return dataclasses.replace(view, picture=Picture(render_hand, hand_picture(room, key)))


def with_dealt(view: View, room: Room, *, pictures: bool = True) -> View:
    """The round's table while it is arranged, with the picture of every
    seat's lanes face down: the message the showdown then turns up."""
    if not pictures_on(room, pictures=pictures):
        return view
    return dataclasses.replace(view, picture=Picture(render_dealt, dealt_picture(room)))


def showdown_view(view: View, room: Room, *, pictures: bool = True) -> View:
    """The showdown, in the round's own table message (its key), with the
    picture of the lanes revealed so far (edited at each step): the message
    that showed the seats face down turns them up, and stays the round's
    record. Without pictures (the setting or the room's option), ``view`` as
    it is (the table's text shows the steps)."""
    if not pictures_on(room, pictures=pictures):
        return view
    return dataclasses.replace(
        view,
        kind=ViewKind.SHOWDOWN,
        buttons=(),
        # a round of AI seats only is its showdown from the deal: posted anew
        picture=Picture(render_showdown, showdown_picture(room)),
    )


def with_settlement(view: View, room: Room, *, pictures: bool = True) -> View:
    if not pictures_on(room, pictures=pictures):
        return view
    return dataclasses.replace(view, picture=Picture(render_settlement, settlement_picture(room)))


def with_final(view: View, room: Room, final: MatchSummary, *, pictures: bool = True) -> View:
    """The 大结算 with its picture: totals, ranking and the match's counts."""
    if not pictures_on(room, pictures=pictures):
        return view
    picture = Picture(render_final, final_picture(view.language, final), "final.png")
    return dataclasses.replace(view, picture=picture)
