"""Telegram adapter: python-telegram-bot v22 over the table manager.

app = build_application(settings, manager)       # handlers, AIORateLimiter, outbox
await run_telegram(settings, manager, stop_event)  # polling, or webhook by setting
"""

from bot.platforms.telegram.app import adapter_of, build_application, run_telegram

__all__ = ["adapter_of", "build_application", "run_telegram"]
