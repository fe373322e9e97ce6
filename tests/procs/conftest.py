"""Fixtures for the multi-process tests: the fake Bot API, and databases
(a SQLite file, or a fresh PostgreSQL schema: tests/storage/conftest.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.storage.conftest import pg_schema_url  # noqa: F401 - a fixture
from tests.telegram.fakebotapi import FakeBotAPI


@pytest.fixture
async def api() -> AsyncIterator[FakeBotAPI]:
    server = FakeBotAPI()
    await server.start()
    yield server
    await server.stop()
