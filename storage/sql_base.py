"""How the SQL repository's calls reach the database.

A synchronous SQLAlchemy engine (no ORM session: the hot path is one short
transaction per accepted action), each worker on one long-lived connection
(storage/engine.py: ThreadConnections).

- SQLite (default: inline). Calls run right on the event loop, on one
  long-lived connection. Measured (BENCHMARKS.md): a save costs
  ~0.25 ms of CPU, and handing it to a worker thread cost more than that in
  GIL hand-offs, with far worse p99 under load. Nothing in it waits on a
  disk: WAL with synchronous=NORMAL does no fsync per commit, and the
  checkpoints that do fsync run in a background thread (engine.Checkpointer).
  busy_timeout and ``BEGIN IMMEDIATE`` for writes cover a second process on
  the same file. ``threaded=True`` runs SQLite in one worker thread instead.
- PostgreSQL: in worker threads, one connection each (the per-action calls
  run on native async psycopg instead: storage/postgres.py).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from sqlalchemy.engine import URL
from sqlalchemy.exc import SQLAlchemyError

from storage.api import StorageError
from storage.engine import (
    Checkpointer,
    ThreadConnections,
    is_memory_sqlite,
    make_engine,
    migrate,
)

T = TypeVar("T")


class SqlBase:
    """An engine on ``url`` and ``workers`` connections, called inline on
    the event loop or (``threaded``) in as many worker threads."""

    def __init__(self, url: URL, *, workers: int, threaded: bool) -> None:
        self.url = url
        self._dialect = url.get_backend_name()
        sqlite = self._dialect == "sqlite"
        # +1 connection on SQLite files for the checkpointer.
        connections = 1 if is_memory_sqlite(url) else workers + int(sqlite)
        self._engine = make_engine(url, connections)
        self._conns = ThreadConnections(self._engine)
        self._executor = (
            ThreadPoolExecutor(max_workers=workers, thread_name_prefix="storage")
            if threaded
            else None
        )
        self._checkpointer: Checkpointer | None = None
        self._closed = False

    async def _call(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn`` inline or in a worker; database failures other than the
        protocol's own (StaleVersion, RoomExists) surface as StorageError."""
        try:
            if self._executor is None:
                return fn(*args)
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._executor, functools.partial(fn, *args))
        except SQLAlchemyError as exc:
            raise StorageError(f"database error: {exc}".splitlines()[0]) from exc

    def _write(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(conn, *args)`` in a write transaction."""
        with self._conns.write() as conn:
            return fn(conn, *args)

    def _read(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(conn, *args)`` in a read transaction."""
        with self._conns.read() as conn:
            return fn(conn, *args)

    # lifecycle

    async def init(self) -> None:
        """Migrate the schema (alembic) and start what runs beside the calls."""
        await self._call(self._write, migrate)
        if self._dialect == "sqlite" and not is_memory_sqlite(self.url) and not self._checkpointer:
            self._checkpointer = Checkpointer(self._engine)

    async def close(self) -> None:
        """Release the connections; a second close does nothing."""
        if self._closed:
            return
        self._closed = True
        if self._checkpointer is not None:
            await asyncio.to_thread(self._checkpointer.stop)
        await self._call(self._conns.close_all)
        if self._executor is not None:
            self._executor.shutdown(wait=True)

    @property
    def shared(self) -> bool:
        """Whether other processes may use this database (PostgreSQL) or it
        is one process's (SQLite: docs/deploy.md)."""
        return self._dialect != "sqlite"
