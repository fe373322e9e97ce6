"""Short signed passes to the arranging page, bound to (user, room, round).

Two ways in, one kind of pass: a Telegram user trades checked launch data
(``initdata.verify``) for one; a Discord player's ephemeral hand carries a
link with one. A pass is stateless (HMAC-SHA256 with the bot's web secret
over its fields), so any process of several answers it from the database
alone; it ends at its expiry (some minutes after the round's deadline, to
read the showdown: ``links.GRACE_SECONDS``), and the table still checks on
every request that the user is seated in that round and what its phase
allows: a pass says who, never what is allowed.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from dataclasses import asdict, dataclass

MAX_PASS_LENGTH = 512


class PassError(ValueError):
    """A pass that is forged, malformed or expired."""


@dataclass(frozen=True, slots=True)
class Pass:
    """``platform:user`` may open ``room``'s round ``round_no`` until ``expires``
    (seconds since the epoch)."""

    platform: str
    user_id: str
    room_id: str
    round_no: int
    expires: int

    @property
    def actor_key(self) -> str:
        return f"{self.platform}:{self.user_id}"


def _mac(secret: bytes, body: bytes) -> str:
    digest = hmac.new(secret, body, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def issue(grant: Pass, secret: bytes) -> str:
    body = json.dumps(asdict(grant), separators=(",", ":"), sort_keys=True).encode()
    text = base64.urlsafe_b64encode(body).decode().rstrip("=")
    return f"{text}.{_mac(secret, body)}"


def check(token: str, secret: bytes, now: float) -> Pass:
    """The pass ``token`` carries; raises :class:`PassError`."""
    if not token or len(token) > MAX_PASS_LENGTH or token.count(".") != 1:
        raise PassError("malformed pass")
    text, mac = token.split(".")
    try:
        body = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except ValueError as error:
        raise PassError("malformed pass") from error
    if not hmac.compare_digest(_mac(secret, body).encode(), mac.encode()):
        raise PassError("bad signature")
    try:
        fields = json.loads(body)
        grant = Pass(
            platform=str(fields["platform"]),
            user_id=str(fields["user_id"]),
            room_id=str(fields["room_id"]),
            round_no=int(fields["round_no"]),
            expires=int(fields["expires"]),
        )
    except (KeyError, ValueError, TypeError) as error:
        raise PassError("malformed pass") from error
    if now >= grant.expires:
        raise PassError("expired pass")
    return grant
