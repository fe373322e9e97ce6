"""``Refused``: an action that changes nothing, and why. The table's
transitions and the arranging presses' checks (``bot.core.presses``) raise it."""

from __future__ import annotations

from typing import Any

# The reason of a button of an older round (nothing changed).
STALE = "err.stale"


class Refused(Exception):
    """An action that changes nothing: ``key`` names the catalog reason,
    ``params`` fill it in."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params
