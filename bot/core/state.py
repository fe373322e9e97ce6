"""Names of a room's stored state that the table, the views and the pictures
all read: the room's phase and the three lanes of a hand.

The room is stored as JSON; ``Phase`` is a ``StrEnum``, so a member compares
equal to the string stored (``state["phase"] == Phase.LOBBY``) and writing a
member stores the same string as before.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class Phase(StrEnum):
    LOBBY = "lobby"  # seats taken, waiting for a round to start
    ARRANGING = "arranging"  # cards dealt, players placing them
    SHOWDOWN = "showdown"  # lanes compared step by step
    CLOSED = "closed"  # the room is over


# A round is live (it holds hands) in these phases.
LIVE_PHASES: Final = frozenset((Phase.ARRANGING, Phase.SHOWDOWN))

# The lanes of a hand, head first, as stored in a hand's JSON.
LANE_NAMES: Final = ("head", "middle", "tail")

# The time zone deadlines are shown in where a room keeps none.
DEFAULT_TIMEZONE: Final = "Asia/Shanghai"
