"""Every platform ``thirteen run`` can serve, in the order it names them.
A new platform is its package under ``bot/platforms`` (with its
``entry.py``) and one line here."""

from __future__ import annotations

from bot.platforms.discord.entry import ENTRY as DISCORD
from bot.platforms.entry import Entry
from bot.platforms.telegram.entry import ENTRY as TELEGRAM

ENTRIES: tuple[Entry, ...] = (TELEGRAM, DISCORD)
