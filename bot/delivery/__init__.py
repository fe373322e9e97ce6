"""Durable delivery (docs/delivery.md): views written to the outbox with
the state change that produced them, delivered per chat by an engine that
survives restarts, 429 storms, floods and several processes.

Platform-neutral: the engine decides when, in which order and how often to
try a row; the outbox (outbox.py) decides, for every platform alike, whether
a row is skipped, edited or posted; a platform supplies only its side of it
(``Platform``, platform.py: how to post, edit and strip buttons, what its
errors mean).
"""

from bot.delivery.engine import DeliveryEngine
from bot.delivery.entries import Durable, is_durable, view_entries
from bot.delivery.limits import Limits
from bot.delivery.payload import view_from_payload, view_to_payload
from bot.delivery.transport import Permanent, RetryLater, Transport

__all__ = [
    "DeliveryEngine",
    "Durable",
    "Limits",
    "Permanent",
    "RetryLater",
    "Transport",
    "is_durable",
    "view_entries",
    "view_from_payload",
    "view_to_payload",
]
