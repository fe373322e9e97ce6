from __future__ import annotations

import os
import secrets
import socket

import pytest

from bot.table.clock import FakeClock
from storage.memory import MemoryRepository

PG_URL = os.environ.get("TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(1_700_000_000.0)


@pytest.fixture
async def repo():
    r = MemoryRepository()
    await r.init()
    yield r
    await r.close()


def _pg_schema_url() -> tuple[str, str, str]:
    """A fresh schema on the PostgreSQL test server (skipped where no server
    answers, never in CI): (SQLAlchemy URL, libpq DSN, schema)."""
    from sqlalchemy.engine import make_url

    url = make_url(PG_URL)
    try:
        socket.create_connection((url.host or "127.0.0.1", url.port or 5432), timeout=3).close()
    except OSError as exc:
        if os.environ.get("CI"):
            pytest.fail(f"no PostgreSQL at {PG_URL}: {exc}")
        pytest.skip(f"no PostgreSQL at {PG_URL}: {exc}")
    import psycopg

    dsn = url.set(drivername="postgresql").render_as_string(hide_password=False)
    schema = "table_" + secrets.token_hex(4)
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"create schema {schema}")
    scoped = url.update_query_dict({"options": f"-csearch_path={schema}"})
    return scoped.render_as_string(hide_password=False), dsn, schema


@pytest.fixture(params=["memory", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def any_repo(request, tmp_path):
    """The same tests on the in-memory repository, SQLite and PostgreSQL."""
    schema = dsn = None
    if request.param == "memory":
        r = MemoryRepository()
    else:
        from storage.sql import SqlRepository

        if request.param == "sqlite":
            r = SqlRepository(f"sqlite:///{tmp_path / 'rooms.db'}")
        else:
            url, dsn, schema = _pg_schema_url()
            r = SqlRepository(url)
    await r.init()
    yield r
    await r.close()
    if schema:
        import psycopg

        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(f"drop schema {schema} cascade")
