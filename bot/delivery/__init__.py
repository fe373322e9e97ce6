"""Durable delivery (docs/delivery.md): views written to the outbox with
the state change that produced them, delivered per chat by an engine that
survives restarts, 429 storms, floods and several processes.

Platform-neutral: a platform supplies a ``Transport`` (how to post or edit
one view); the engine decides when, in which order and how often to try.
"""

from bot.delivery.engine import DeliveryEngine, Limits
from bot.delivery.entries import Durable, is_durable, view_entries
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
