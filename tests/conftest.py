"""Test-wide settings: the solver's opponent pools are built small here
(they are built per deck setting in each test process; their size changes
the quality of suggestions, not their legality)."""

from __future__ import annotations

import os

from bot.core.traits import declared
from bot.platforms.registry import ENTRIES
from bot.solver import config

# Every platform's traits (bot.core.traits) declared, as in ``thirteen
# run``: a room of any platform reads the same in every test.
assert set(declared()) >= {entry.name for entry in ENTRIES}

os.environ.setdefault("THIRTEEN_SOLVER_POOL_HANDS", "300")
os.environ.setdefault("THIRTEEN_SOLVER_POOL_HANDS_16", "100")
os.environ.setdefault("THIRTEEN_SOLVER_CACHE", "off")  # build here, never read a stale file

# The same for the solver in this process (child processes read the
# environment above through Settings).
config.configure(pool_hands=300, pool_hands_16=100, cache_dir="off")
