"""What Discord can do, for the neutral layers (``bot.core.traits``): its
commands are subcommands of ``/thirteen``, and a deadline is a timestamp
``<t:UNIX:R>`` that each reader's client shows live, in their own clock
("in 2 minutes"), so nothing is redrawn to keep it true. Imports no
Discord library; declared when the package is imported."""

from __future__ import annotations

from bot.core.traits import Traits, register

PLATFORM = "discord"


def command(name: str) -> str:
    """``/thirteen new``."""
    return f"/thirteen {name}"


def live_time(seconds: int) -> str:
    """A moment as Discord's relative timestamp markup."""
    return f"<t:{seconds}:R>"


TRAITS = register(Traits(name=PLATFORM, command=command, live_time=live_time))
