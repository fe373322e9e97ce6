"""``Refused``: an action that changes nothing, and why (``bot.core.refused``,
where the arranging presses' checks raise it too)."""

from __future__ import annotations

from bot.core.refused import STALE, Refused

__all__ = ["STALE", "Refused"]
