"""Telegram adapter: python-telegram-bot v22 over the table manager.

app = build_application(settings, manager)       # handlers, AIORateLimiter, outbox
await run_telegram(settings, manager, stop_event)  # polling, or webhook by setting

(``bot.platforms.telegram.app``.) Importing the package declares Telegram's
traits (``traits.py``) and nothing more: the library is loaded only where
the bot is built.
"""

from . import traits as traits
