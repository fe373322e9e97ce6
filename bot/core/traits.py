"""What a way to play can do, as the platform declares it.

The views, the table and the core never test a platform's name: they ask
the room's platform for its ``Traits`` (``traits_of(room.platform)``) and
read what it can do. Each platform declares its traits in its own package
(``bot/platforms/<name>/traits.py``) and registers them when that package is
imported; a way to play that registers none (the terminal, an AI seat) is
``PLAIN``: commands as bare words, deadlines as clock times.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

# The commands a help text or an error names (``{cmd_<name>}`` in a
# catalog text); each platform spells them its own way.
COMMAND_NAMES = (
    "new",
    "join",
    "leave",
    "start",
    "rules",
    "settings",
    "leaderboard",
    "stats",
    "language",
    "cancel",
    "verify",
    "help",
    "rounds",
    "replay",
)


def _bare(name: str) -> str:
    return name


@dataclass(frozen=True, slots=True)
class Traits:
    """One platform's abilities, as the neutral layers need them.

    ``command``: how a player types command ``name`` (one of
    ``COMMAND_NAMES``). ``live_time``: the markup that shows a moment
    (whole seconds since the epoch) counting by itself in each reader's
    own clock ("in 2 minutes"), or None: the platform has none, and a
    deadline is written as the room's clock time. ``redraws_time_left``:
    a private hand shows the time left as a duration, which the table
    redraws at coarse steps (for a platform without ``live_time`` whose
    players read their hands in a chat of their own).
    ``answers_press_apart``: a press on a private hand is answered apart
    from the hand's redraw (two calls, the answer and the edit), so a
    redraw nobody waits on is worth leaving out: the last hand confirmed
    of a round is answered with a toast, and its result redraws it."""

    name: str
    command: Callable[[str], str] = _bare
    live_time: Callable[[int], str] | None = None
    redraws_time_left: bool = False
    answers_press_apart: bool = False


PLAIN = Traits(name="")

_DECLARED: dict[str, Traits] = {}


def register(traits: Traits) -> Traits:
    """Declare ``traits`` for the platform ``traits.name`` (once; declaring
    other traits under a name taken is a mistake)."""
    known = _DECLARED.setdefault(traits.name, traits)
    if known is not traits:
        raise ValueError(f"platform {traits.name!r} declared twice")
    return traits


def traits_of(platform: str) -> Traits:
    """The traits of ``platform``; ``PLAIN`` for one that declared none."""
    return _DECLARED.get(platform, PLAIN)


def declared() -> tuple[str, ...]:
    """The names of the platforms declared so far."""
    return tuple(_DECLARED)
