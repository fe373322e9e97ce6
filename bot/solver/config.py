"""The solver's knobs, set once by the program that runs it.

The values come from the project's Settings (``THIRTEEN_SOLVER_*`` in the
environment or ``.env``): ``bot.cli.configure_solver`` hands them over
before the first model or pool is built. The solver itself reads no
environment; without a call it uses the defaults below.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path


@dataclass(frozen=True, slots=True)
class SolverConfig:
    model_hands: int = 1000  # random hands that build a lane-strength model
    pool_hands: int = 6000  # arranged opponents per deck setting (13 cards)
    pool_hands_16: int = 600  # the same for 多三张 (16 cards dealt)
    cache_dir: str = ""  # where built pools are kept; "" = the user's cache; "off" = never


_current = SolverConfig()


def current() -> SolverConfig:
    return _current


def configure(**changes: int | str) -> SolverConfig:
    """Change some knobs (models and pools built before keep theirs)."""
    global _current
    _current = replace(_current, **changes)  # type: ignore[arg-type]
    return _current


def cache_dir() -> Path | None:
    """The folder of built pools, or None when caching is off."""
    where = _current.cache_dir
    if where == "off":
        return None
    if where:
        return Path(where)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "thirteen-water"
