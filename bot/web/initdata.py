"""Telegram Mini App launch data (``initData``): checked, then trusted.

Telegram signs the query string it hands the page: ``hash`` is
HMAC-SHA256 over the data-check-string (every other field as ``key=value``,
sorted by key, joined by line feeds) with the key HMAC-SHA256("WebAppData",
bot token). The page sends that string unchanged; identity comes only from
a string whose signature holds, never from any other parameter.
``start_param`` is a pointer (which room the page was opened for), not a
permission.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from urllib.parse import parse_qsl

# How old launch data may be. A page opened for a round stays open through
# it (arranging is at most 15 minutes), and a session is issued at once.
MAX_AGE_SECONDS = 3600
# A client clock a little ahead of ours is not a forgery.
CLOCK_SKEW_SECONDS = 60
MAX_LENGTH = 4096  # Telegram's initData is well under this


class InitDataError(ValueError):
    """Launch data that is not Telegram's, not this bot's, or too old."""


@dataclass(frozen=True, slots=True)
class WebAppUser:
    """Who opened the page, as Telegram vouches for it."""

    id: int
    first_name: str
    language_code: str | None
    start_param: str | None
    auth_date: int


def sign(fields: dict[str, str], token: str) -> str:
    """The ``hash`` Telegram would put on ``fields`` (tests sign with it)."""
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    return hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()


def verify(raw: str, token: str, now: float, max_age: int = MAX_AGE_SECONDS) -> WebAppUser:
    """The user of ``raw`` launch data; raises :class:`InitDataError`."""
    if not raw or len(raw) > MAX_LENGTH:
        raise InitDataError("missing or oversized launch data")
    try:
        pairs = parse_qsl(raw, keep_blank_values=True, strict_parsing=True)
    except ValueError as error:
        raise InitDataError("unreadable launch data") from error
    fields: dict[str, str] = {}
    for key, value in pairs:
        if key in fields:
            raise InitDataError(f"duplicate field {key!r}")
        fields[key] = value
    given = fields.pop("hash", "")
    if not hmac.compare_digest(sign(fields, token).encode(), given.encode()):
        raise InitDataError("bad signature")
    try:
        auth_date = int(fields["auth_date"])
        user = json.loads(fields["user"])
        user_id = int(user["id"])
    except (KeyError, ValueError, TypeError) as error:
        raise InitDataError("no user or auth_date") from error
    if auth_date > now + CLOCK_SKEW_SECONDS:
        raise InitDataError("launch data from the future")
    if now - auth_date > max_age:
        raise InitDataError("launch data expired")
    language = user.get("language_code")
    return WebAppUser(
        id=user_id,
        first_name=str(user.get("first_name", ""))[:64],
        language_code=str(language) if language else None,
        start_param=fields.get("start_param") or None,
        auth_date=auth_date,
    )
