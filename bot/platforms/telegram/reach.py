"""Private-chat reach: who has not opened the private chat with the bot.

Telegram refuses a bot's first message to a user (403 Forbidden). The views
for such a user are held in the outbox (state ``held``); the user is marked
unreachable and listed on the room's group notice (one per room, with a
deep-link button); when the user writes to the bot the held views are sent
and the notices updated. The list lives in the database (``prefs``), so
every process - a restarted one, another one behind the same webhook -
knows it:

- ``reach`` = ``1``: the private chat refused us; no send is tried for
  this user (each try would be a wasted API call) until they write to us.
- ``reach:<room>``: the user is listed on that room's notice; the value
  holds their name and the room's group and language (JSON), so any process
  can redraw the notice.
"""

from __future__ import annotations

import json

from bot.i18n import t
from bot.i18n.languages import DEFAULT_LANGUAGE
from bot.platforms.telegram.deeplink import Payload, deep_link
from bot.platforms.telegram.traits import PLATFORM
from bot.views.model import Audience, Button, View, ViewKind
from storage.delivery import DeliveryStore

UNREACHABLE = "reach"
WAITING = "reach:"
_NAME_CHARS = 64  # a pref's value holds at most 256 characters


def room_of_key(key: str) -> str | None:
    """``table:<room>``, ``hand:<room>:<player>``, ``settings:<room>`` -> room."""
    parts = key.split(":")
    return parts[1] if len(parts) >= 2 and parts[1] else None


class PrivateReach:
    def __init__(self, store: DeliveryStore) -> None:
        self.store = store
        # The names this process has seen (a notice lists people by name).
        self.names: dict[str, str] = {}

    async def is_unreachable(self, user_id: str) -> bool:
        return await self.store.get_pref(PLATFORM, user_id, UNREACHABLE) is not None

    async def hold(self, view: View) -> str | None:
        """The private chat of ``view``'s user refused us: mark them and
        list them on the room's notice; returns the room whose notice
        changed (None when they were listed already)."""
        assert view.user_id is not None
        user = view.user_id
        if not await self.is_unreachable(user):
            await self.store.set_pref(PLATFORM, user, UNREACHABLE, "1")
        room_id = room_of_key(view.key)
        if room_id is None or await self.store.get_pref(PLATFORM, user, WAITING + room_id):
            return None
        entry = {
            "name": (self.names.get(user) or user)[:_NAME_CHARS],
            "chat": view.chat_id,
            "language": view.language,
        }
        await self.store.set_pref(PLATFORM, user, WAITING + room_id, json.dumps(entry))
        return room_id

    async def opened(self, user_id: str) -> list[tuple[str, str, str]]:
        """The user wrote to us in private: they are reachable now. The
        rooms whose notice listed them: (room, group chat, language)."""
        # Called on every private message and press: a read when there is
        # nothing to clear (``reach:<room>`` entries come with ``reach``).
        if not await self.is_unreachable(user_id):
            return []
        gone = await self.store.pop_prefs(PLATFORM, user_id, UNREACHABLE)
        rooms = []
        for name, value in gone.items():
            if name.startswith(WAITING):
                entry = _entry(value)
                rooms.append((name[len(WAITING) :], entry["chat"], entry["language"]))
        return rooms

    async def notice(self, room_id: str, chat_id: str, language: str, bot_username: str) -> View:
        """The group message listing who still has to open the private chat."""
        waiting = await self.store.prefs_named(PLATFORM, WAITING + room_id)
        if not waiting:
            return View(
                ViewKind.TABLE,
                Audience.GROUP,
                f"reach:{room_id}",
                "",
                (t(language, "tg.reach_done"),),
                chat_id=chat_id,
                language=language,
                platform=PLATFORM,
            )
        names = [_entry(value)["name"] for value in waiting.values()]
        lines = [t(language, "tg.reach_body")] + [f"• {name}" for name in names]
        button = Button(
            t(language, "tg.reach_button"), url=deep_link(bot_username, Payload.HAND, room_id)
        )
        return View(
            ViewKind.TABLE,
            Audience.GROUP,
            f"reach:{room_id}",
            t(language, "tg.reach_title"),
            tuple(lines),
            buttons=((button,),),
            chat_id=chat_id,
            language=language,
            platform=PLATFORM,
        )


def _entry(value: str) -> dict[str, str]:
    try:
        entry = json.loads(value)
    except ValueError:
        entry = None
    if not isinstance(entry, dict):
        entry = {}
    return {
        "name": str(entry.get("name") or "?"),
        "chat": str(entry.get("chat") or ""),
        "language": str(entry.get("language") or DEFAULT_LANGUAGE),
    }
