"""What Telegram can do, for the neutral layers (``bot.core.traits``):
its command names (the menu's, ``menu.GROUP_COMMANDS``), no live time
markup, so a deadline is the room's clock time and a private hand shows
the time left, redrawn by the table; a press is answered apart from the
hand's redraw. Imports no Telegram library; declared
when the package is imported."""

from __future__ import annotations

from bot.core.traits import Traits, register

PLATFORM = "telegram"

# command (bot.core.traits.COMMAND_NAMES) -> as typed in a Telegram chat
COMMANDS = {
    "new": "/newgame",
    "join": "/join",
    "leave": "/leave",
    "start": "/startgame",
    "rules": "/rules",
    "settings": "/settings",
    "leaderboard": "/leaderboard",
    "stats": "/stats",
    "language": "/language",
    "cancel": "/cancel",
    "verify": "/verify",
    "help": "/help",
    "rounds": "/rounds",
    "replay": "/replay",
}

TRAITS = register(
    Traits(
        name=PLATFORM,
        command=COMMANDS.__getitem__,
        redraws_time_left=True,
        # answerCallbackQuery, then the hand's edit: two Bot API calls
        answers_press_apart=True,
    )
)
