"""How a post reaches Discord safely: its nonce, its fingerprint, and what
Discord's errors mean for delivery (docs/delivery.md §4, §5)."""

from __future__ import annotations

import hashlib
import json
from datetime import timedelta

import aiohttp
import discord

from bot.delivery import Limits, Permanent, RetryLater
from bot.views.model import View
from storage.delivery import OutboxRow

# Discord drops a post whose nonce (with enforce_nonce) matches one of the
# same author's messages of the last few minutes; within this much of the
# first try a repeated post is certainly inside that window.
NONCE_WINDOW = timedelta(minutes=2)
NONCE_LENGTH = 25  # Discord's limit for a string nonce


def discord_limits() -> Limits:
    """The engine's own buckets for Discord. discord.py already waits out
    each route's bucket (about 5 messages per 5 s in a channel) and the
    global limit from the response headers; these only keep one channel's
    flood from queueing ahead of the others in discord.py's global lock."""
    return Limits(
        group_per_second=1.0,
        group_burst=5,
        private_per_second=1.0,
        private_burst=5,
        overall_per_second=40.0,
        overall_burst=40,
    )


def nonce_of(row: OutboxRow) -> str:
    """The post's nonce: the same for every try of one state of one row, so
    Discord (enforce_nonce) returns the first message instead of a second."""
    # created_at too: a database may give a deleted row's id to the next row
    # of the same key (SQLite does), which must not count as the same post.
    made = f"{row.created_at.timestamp():.6f}"
    text = f"{row.platform}|{row.chat_id}|{row.key}|{row.id}|{row.seq}|{made}"
    return hashlib.sha256(text.encode()).hexdigest()[:NONCE_LENGTH]


def fingerprint(view: View) -> str:
    """What a message shows (text, buttons, picture): equal fingerprints, no edit."""
    shown = {
        "kind": view.kind.value,
        "title": view.title,
        "lines": list(view.lines),
        "buttons": [
            [(b.label, b.action_id, b.url, b.style.value, b.disabled) for b in row]
            for row in view.buttons
        ],
        "language": view.language,
        "picture": view.picture.fingerprint if view.picture is not None else None,
    }
    return hashlib.sha256(json.dumps(shown, sort_keys=True).encode()).hexdigest()


def classify(error: Exception) -> RetryLater | Permanent:
    """What a failed Discord call means for delivery."""
    if isinstance(error, discord.RateLimited):  # longer than discord.py waits by itself
        return RetryLater("429 Too Many Requests", error.retry_after, "rate_limited")
    if isinstance(error, discord.HTTPException):
        if error.status == 429:
            return RetryLater("429 Too Many Requests", _retry_after(error), "rate_limited")
        if error.status >= 500:
            return RetryLater(f"Discord {error.status}", None, "server")
        if isinstance(error, discord.Forbidden):
            return Permanent(f"forbidden: {error.text}", "forbidden")
        if isinstance(error, discord.NotFound):
            return Permanent(f"channel not found: {error.text}", "chat_not_found")
        return Permanent(f"bad request {error.status}: {error.text}", "bad_request")
    return RetryLater(f"network: {error!r}", None, "network")


def _retry_after(error: discord.HTTPException) -> float | None:
    headers = getattr(error.response, "headers", None) or {}
    try:
        return float(headers.get("Retry-After", ""))
    except ValueError:
        return None


NETWORK_ERRORS = (aiohttp.ClientError, OSError, TimeoutError)
ERRORS = (discord.HTTPException, discord.RateLimited, *NETWORK_ERRORS)  # what classify reads


def maybe_posted(error: Exception) -> bool:
    """Whether a failed post may have reached Discord: a 5xx or a network
    error once the request went out (a 429 or a 4xx created nothing)."""
    return isinstance(error, ERRORS) and classify(error).kind in ("server", "network")
