from __future__ import annotations

import pytest

from bot.table.clock import FakeClock
from storage.memory import MemoryRepository


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(1_700_000_000.0)


@pytest.fixture
async def repo():
    r = MemoryRepository()
    await r.init()
    yield r
    await r.close()


@pytest.fixture(params=["memory", "sqlite"])
async def any_repo(request, tmp_path):
    """The same tests on the in-memory repository and on SQLite."""
    if request.param == "memory":
        r = MemoryRepository()
    else:
        from storage.sql import SqlRepository

        r = SqlRepository(f"sqlite:///{tmp_path / 'rooms.db'}")
    await r.init()
    yield r
    await r.close()
