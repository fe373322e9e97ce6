"""Card pictures (Pillow): the private hand, the showdown, the settlement.

Platform-free: adapters build an input from the room's state and render it
to PNG bytes off the event loop::

    from bot.pictures import hand_picture, render_hand, render_async
    png = await render_async(render_hand, hand_picture(state, player_key))

Inputs (``model.py``) are small frozen dataclasses; builders make them from
a room's state (``build.py``) or a judged round (``judged.py``). Cards are
drawn by our own code (``cards.py``); text uses the fonts shipped in
``fonts/`` (Noto Sans CJK SC and Noto Color Emoji subsets, SIL OFL 1.1).
"""

from .build import dealt_picture, hand_picture, settlement_picture, showdown_picture
from .cards import Marks
from .judged import judged_pictures
from .model import (
    HandPicture,
    LaneShow,
    PairCell,
    SeatShow,
    SettlementPicture,
    SettleSeat,
    ShowdownPicture,
)
from .render import (
    render_async,
    render_dealt,
    render_hand,
    render_round,
    render_settlement,
    render_showdown,
)

__all__ = [
    "HandPicture",
    "LaneShow",
    "Marks",
    "PairCell",
    "SeatShow",
    "SettleSeat",
    "SettlementPicture",
    "ShowdownPicture",
    "dealt_picture",
    "hand_picture",
    "judged_pictures",
    "render_async",
    "render_dealt",
    "render_hand",
    "render_round",
    "render_settlement",
    "render_showdown",
    "settlement_picture",
    "showdown_picture",
]
