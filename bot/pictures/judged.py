"""Picture inputs for a round settled outside any room (``thirteen picture``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.core.showdown import Settlement
from bot.rules.options import Rules
from bot.rules.settlement_types import PlayerHand

from .build import marks_of
from .model import SettlementPicture, ShowdownPicture
from .outcome import PictureRound, PictureSeat, settlement, showdown


def judged_pictures(
    hands: Sequence[PlayerHand],
    result: Mapping[str, Any],
    rules: Rules,
    language: str,
    banker: str | None = None,
    escaped: Sequence[str] = (),
) -> tuple[ShowdownPicture, SettlementPicture]:
    """The fully revealed showdown and the settlement of a judged round.

    ``result`` is the judge's output object (``Settlement.to_json()``);
    players are named by their ids and shown with the lanes of their hand's
    arrangement (a special declared from ``cards`` shows the split it makes).
    """
    seats = []
    for h in hands:
        arr = h.arrangement
        seats.append(
            PictureSeat(
                id=h.id,
                name=h.id,
                lanes=(arr.head, arr.middle, arr.tail),
                special_points=h.special.points if h.special else 0,
                banker=h.id == banker,
                escaped=h.id in escaped,
            )
        )
    r = PictureRound(language, None, tuple(seats), Settlement.from_json(result), marks_of(rules))
    return showdown(r), settlement(r)
