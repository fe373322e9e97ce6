"""What the Bot API's errors mean: for delivery (docs/delivery.md §4, §5)
and for the adapter's direct calls (a press's answer, a short reply)."""

from __future__ import annotations

import asyncio
import logging
import warnings
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any, TypeVar

import httpx
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
    TimedOut,
)
from telegram.warnings import PTBDeprecationWarning

from bot.delivery import Permanent, RetryLater

log = logging.getLogger(__name__)
T = TypeVar("T")


def seconds_of(error: RetryAfter) -> float:
    with warnings.catch_warnings():  # int-vs-timedelta deprecation: both handled here
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        value = error.retry_after
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


async def call_once_more(fn: Callable[..., Awaitable[T]], /, **kwargs: Any) -> T:
    """A direct Bot API call (a press's answer, a short reply): on 429 wait
    the time Telegram asks for and try once more."""
    try:
        return await fn(**kwargs)
    except RetryAfter as error:
        delay = seconds_of(error)
        log.warning("flood limit: waiting %.1fs before retrying %s", delay, fn.__name__)
        await asyncio.sleep(delay)
        return await fn(**kwargs)


def unreachable(error: Exception) -> bool:
    """Whether a private chat refused us: the user never opened it, or blocked the bot."""
    if isinstance(error, Forbidden):
        return True
    return isinstance(error, BadRequest) and "chat not found" in error.message.lower()


def not_modified(error: BadRequest) -> bool:
    return "not modified" in error.message.lower()


def gone(error: BadRequest) -> bool:
    """Whether an edit was refused because the message is gone or cannot
    take the edit (a new message is needed)."""
    text = error.message.lower()
    return "not found" in text or "can't be edited" in text or "no caption" in text


def maybe_posted(error: Exception) -> bool:
    """Whether a failed send may have reached Telegram: the request went
    out and its answer never came (a read timeout, a dropped connection).
    A connection never made created nothing, and a 5xx is Telegram's own
    answer that it did not handle the call (docs/delivery.md §5)."""
    if not isinstance(error, TelegramError):
        return False
    cause = error.__cause__
    if isinstance(cause, httpx.ConnectError | httpx.ConnectTimeout | httpx.PoolTimeout):
        return False
    return isinstance(error, TimedOut) or isinstance(cause, httpx.TransportError)


def classify(error: TelegramError) -> RetryLater | Permanent:
    """What a Bot API error means for delivery."""
    if isinstance(error, RetryAfter):
        return RetryLater("429 Too Many Requests", seconds_of(error), "rate_limited")
    if isinstance(error, ChatMigrated):
        return RetryLater("group migrated", 0.0, "migrated")
    if isinstance(error, Forbidden):
        return Permanent(f"forbidden: {error.message}", "forbidden")
    if isinstance(error, BadRequest):
        if "chat not found" in error.message.lower():
            return Permanent(error.message, "chat_not_found")
        return Permanent(f"bad request: {error.message}", "bad_request")
    if isinstance(error, NetworkError):  # timeouts, 5xx, connection errors
        return RetryLater(f"network: {error.message}", None, "network")
    return RetryLater(f"{type(error).__name__}: {error.message}", None, "other")
