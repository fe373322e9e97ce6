"""Where a player's "arrange by dragging" button leads.

Telegram opens the page as a Mini App: an inline ``web_app`` button in the
private chat (the address names the room and round; who is asking comes
from Telegram's signed launch data), and from the group a ``t.me`` link to
the bot's Mini App with the room and round as ``startapp``. Discord has no
signed launch data, so its link carries a pass for that player, room and
round in the address's fragment (never sent to a server's logs).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol
from urllib.parse import urlencode

from . import passes

# A pass ends some minutes after the round's deadline: the showdown starts
# at the deadline at the latest and takes seconds (a minute a step at worst,
# where the group cannot be reached), and the player who confirmed still
# reads the showdown and the review in the page. The table checks on every
# request what the round allows: arranging only while it is arranged, the
# showdown only once it is shown.
GRACE_SECONDS = 10 * 60


@dataclass(frozen=True)
class PageLinks:
    base_url: str  # WEBAPP_URL, without a trailing slash
    key: bytes
    telegram_app_name: str | None = None
    # The page is also a Discord Activity (DISCORD_ACTIVITY): a hand in the
    # room's channel launches it instead of carrying the link.
    activity: bool = False

    @property
    def secure(self) -> bool:
        return self.base_url.startswith("https://")

    @property
    def page(self) -> str:
        return f"{self.base_url}/app/"

    def telegram_private(self, room_id: str, round_no: int) -> str:
        return f"{self.page}?{urlencode({'room': room_id, 'round': round_no})}"

    def telegram_group(self, bot_username: str, room_id: str, round_no: int) -> str | None:
        """The group's link to the Mini App (None without a registered app name)."""
        if not self.telegram_app_name or not bot_username:
            return None
        return f"https://t.me/{bot_username}/{self.telegram_app_name}?startapp={room_id}-{round_no}"

    def discord(self, user_id: str, room_id: str, round_no: int, deadline: float) -> str:
        """A link for one Discord player; the same for the whole round (its
        expiry follows the round's deadline), so re-rendering the hand does
        not change it."""
        expires = int(deadline) + GRACE_SECONDS
        grant = passes.Pass("discord", user_id, room_id, round_no, expires)
        return f"{self.page}#{urlencode({'pass': passes.issue(grant, self.key)})}"


def room_and_round(start_param: str | None) -> tuple[str, int] | None:
    """``<room>-<round>`` from a ``startapp`` link."""
    room, _, number = (start_param or "").partition("-")
    if not room or not number.isdigit() or len(room) > 16:
        return None
    return room, int(number)


class PageUser(Protocol):
    """A platform whose players get the page's button or link (its
    transport): the links are set on it where the page is on."""

    page_links: PageLinks | None
