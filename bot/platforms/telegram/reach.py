"""Private-chat reach: views held for users who never opened the bot.

Telegram refuses a bot's first message to a user (403 Forbidden). Such
views are kept here, keyed by view key (a newer state of the same message
replaces the older one), and the group gets one notice per room with a
deep-link button; when the user sends /start the held views are delivered.
"""

from __future__ import annotations

from collections import OrderedDict

from bot.platforms.telegram.deeplink import Payload, deep_link
from bot.views.i18n import t
from bot.views.model import Audience, Button, View, ViewKind


def room_of_key(key: str) -> str | None:
    """``table:<room>``, ``hand:<room>:<player>``, ``settings:<room>`` -> room."""
    parts = key.split(":")
    return parts[1] if len(parts) >= 2 and parts[1] else None


class PrivateReach:
    def __init__(self) -> None:
        self._held: dict[str, OrderedDict[str, View]] = {}
        # users whose private chat refused us; no more sends are tried for
        # them (each try would be a wasted API call) until they write to us.
        self._unreachable: set[str] = set()
        # room -> user ids waiting, for the group notice
        self._waiting: dict[str, dict[str, str]] = {}
        self.names: dict[str, str] = {}

    def is_unreachable(self, user_id: str) -> bool:
        return user_id in self._unreachable

    def hold(self, view: View) -> str | None:
        """Keep ``view`` for later; returns the room whose notice changed."""
        assert view.user_id is not None
        self._unreachable.add(view.user_id)
        self._held.setdefault(view.user_id, OrderedDict())[view.key] = view
        self._held[view.user_id].move_to_end(view.key)
        room_id = room_of_key(view.key)
        if room_id is None:
            return None
        waiting = self._waiting.setdefault(room_id, {})
        if view.user_id in waiting:
            return None
        waiting[view.user_id] = self.names.get(view.user_id) or view.user_id
        return room_id

    def opened(self, user_id: str) -> tuple[list[View], list[str]]:
        """The user wrote to us in private: their held views, and the rooms
        whose notice must be updated."""
        self._unreachable.discard(user_id)
        views = list(self._held.pop(user_id, OrderedDict()).values())
        rooms = [r for r, w in self._waiting.items() if w.pop(user_id, None) is not None]
        return views, rooms

    def held_for(self, user_id: str, room_id: str) -> bool:
        return any(room_of_key(k) == room_id for k in self._held.get(user_id, {}))

    def notice(self, room_id: str, chat_id: str, language: str, bot_username: str) -> View:
        """The group message listing who still has to open the private chat."""
        waiting = self._waiting.get(room_id, {})
        if not waiting:
            return View(
                ViewKind.TABLE,
                Audience.GROUP,
                f"reach:{room_id}",
                "",
                (t(language, "tg.reach_done"),),
                chat_id=chat_id,
                language=language,
                platform="telegram",
            )
        lines = [t(language, "tg.reach_body")] + [f"• {name}" for name in waiting.values()]
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
            platform="telegram",
        )
