"""Backends for the storage tests: every test that takes ``backend`` or
``repo`` runs on MemoryRepository, SqlRepository on SQLite (a file under
tmp_path; inline, and threaded once more) and SqlRepository on PostgreSQL (TEST_POSTGRES_URL, a fresh
schema per test). PostgreSQL is skipped only when its server cannot be
reached, and never when CI is set."""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from functools import cache

import psycopg
import pytest
from sqlalchemy.engine import make_url

from storage.api import Repository
from storage.memory import MemoryRepository
from storage.sql import SqlRepository

PG_URL = os.environ.get("TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def _libpq_dsn(url: str) -> str:
    """The SQLAlchemy URL as a plain libpq URL for psycopg.connect."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


@cache
def _postgres_unreachable() -> str | None:
    """Why no server answers at PG_URL's address, or None when one does. Only
    this skips: a server that answers but refuses us (auth, no database) is
    a failure, not a skip."""
    url = make_url(PG_URL)
    address = (url.host or "127.0.0.1", url.port or 5432)
    try:
        socket.create_connection(address, timeout=3).close()
    except OSError as exc:
        return f"no PostgreSQL server at {address[0]}:{address[1]} ({exc})"
    return None


def require_postgres() -> None:
    problem = _postgres_unreachable()
    if problem is None:
        return
    if os.environ.get("CI"):
        pytest.fail(f"{problem}; CI is set, so the PostgreSQL tests must run")
    pytest.skip(problem)


@dataclass
class Backend:
    """One storage backend; ``new()`` opens another repository on the same
    data (for SQL: the same database), like a second bot process would."""

    name: str
    url: str | None
    threaded: bool | None = None
    opened: list[Repository] = field(default_factory=list)
    _memory: MemoryRepository | None = None

    async def new(self) -> Repository:
        repo: Repository
        if self.url is None:
            if self._memory is None:
                self._memory = MemoryRepository()
            repo = self._memory
        else:
            repo = SqlRepository(self.url, threaded=self.threaded)
        await repo.init()
        self.opened.append(repo)
        return repo


@pytest.fixture
def pg_schema_url() -> Iterator[Callable[[], str]]:
    """Makes PostgreSQL URLs whose search_path is a fresh schema, dropped afterwards."""
    schemas: list[str] = []

    def make() -> str:
        require_postgres()
        schema = f"t_storage_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(_libpq_dsn(PG_URL), autocommit=True) as conn:
            conn.execute(f'CREATE SCHEMA "{schema}"')
        schemas.append(schema)
        url = make_url(PG_URL).update_query_dict({"options": f"-csearch_path={schema}"})
        return url.render_as_string(hide_password=False)

    yield make
    if schemas:
        with psycopg.connect(_libpq_dsn(PG_URL), autocommit=True) as conn:
            for schema in schemas:
                conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


async def _backend(name: str, tmp_path, pg_schema_url) -> AsyncIterator[Backend]:  # type: ignore[no-untyped-def]
    if name == "memory":
        url = None
    elif name.startswith("sqlite"):
        url = f"sqlite:///{tmp_path / 'thirteen.db'}"
    else:
        url = pg_schema_url()
    # SQLite runs inline on the event loop by default; "sqlite_threaded" covers the option.
    backend = Backend(name, url, threaded=True if name == "sqlite_threaded" else None)
    yield backend
    for repo in backend.opened:
        await repo.close()


@pytest.fixture(params=["memory", "sqlite", "sqlite_threaded", "postgres"])
async def backend(request, tmp_path, pg_schema_url) -> AsyncIterator[Backend]:  # type: ignore[no-untyped-def]
    async for b in _backend(request.param, tmp_path, pg_schema_url):
        yield b


@pytest.fixture(params=["sqlite", "postgres"])
async def sql_backend(request, tmp_path, pg_schema_url) -> AsyncIterator[Backend]:  # type: ignore[no-untyped-def]
    async for b in _backend(request.param, tmp_path, pg_schema_url):
        yield b


@pytest.fixture
async def repo(backend: Backend) -> Repository:
    return await backend.new()
