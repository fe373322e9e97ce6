"""Fixtures for the multi-process tests: the fake Bot API (the same as
tests/telegram's), the browser (tests/web's), and databases (a SQLite
file, or a fresh PostgreSQL schema: tests/storage/conftest.py)."""

from __future__ import annotations

from tests.storage.conftest import pg_schema_url  # noqa: F401 - a fixture
from tests.telegram.conftest import api  # noqa: F401 - a fixture
from tests.web.conftest import browser  # noqa: F401 - a fixture
