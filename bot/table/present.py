"""Presenting a change: the views a transition's effects ask for, the
settings panel redrawn after an owner's change and the hand that shows why
an arrangement was refused."""

from __future__ import annotations

import dataclasses

from bot.core.room import Room
from bot.core.state import Phase
from bot.core.verbs import VERBS
from bot.views import render
from bot.views.model import Mention, View

from .actions import Action
from .effects import Effects
from .refused import Refused


def views_of(room: Room, fx: Effects, now: float, *, pictures: bool = True) -> list[View]:
    """The views ``fx`` asks for, of ``room`` as it is now; ``pictures``:
    the bot's PICTURES setting (the manager's)."""
    out: list[View] = []
    # Once paid, the table is the settlement: posted once, not twice.
    if fx.table and not (fx.settlement and render.lobby_is_settlement(room)):
        out.append(render.table_view(room, now, fresh=fx.table_fresh, pictures=pictures))
    if fx.settlement:
        out.append(render.settlement_view(room, pictures=pictures))
    for key in fx.hands:
        out.append(render.hand_view(room, key, now=now, pictures=pictures))
    mentions = tuple(Mention(k.split(":", 1)[-1], room.name_of(k)) for k in fx.mentions)
    for key, params in fx.notices:
        out.append(dataclasses.replace(render.notice_view(room, key, params), mentions=mentions))
    out.extend(fx.views)
    return out


def with_panel(room: Room, action: Action, views: list[View]) -> list[View]:
    """After an owner's change the settings panel shows the new values too:
    its view comes with the others (the press on it edits it in place)."""
    if VERBS[action.verb].panel and room.phase != Phase.CLOSED:
        return [*views, render.settings_view(room, action.actor)]
    return views


def refused_views(
    room: Room, key: str, refused: Refused, *, now: float | None = None, pictures: bool = True
) -> tuple[View, ...]:
    """What a refusal shows besides its reason: a fouled arrangement's hand,
    with why."""
    if refused.key == "err.foul" and room.round:
        why = (refused.key, refused.params)
        return (render.hand_view(room, key, refused=why, now=now, pictures=pictures),)
    return ()
