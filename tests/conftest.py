"""Test-wide settings: the solver's opponent pools are built small here
(they are built per deck setting in each test process; their size changes
the quality of suggestions, not their legality)."""

from __future__ import annotations

import os

os.environ.setdefault("THIRTEEN_SOLVER_POOL_HANDS", "300")
os.environ.setdefault("THIRTEEN_SOLVER_POOL_HANDS_16", "100")
os.environ.setdefault("THIRTEEN_SOLVER_CACHE", "off")  # build here, never read a stale file
