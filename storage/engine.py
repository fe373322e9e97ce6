"""Engines, connections and migrations for the SQL repository.

Profiling showed that on SQLite a pool checkout per call (plus per-call
execution options) cost about as much as the write itself, so each worker
thread keeps ONE connection for its whole life (``ThreadConnections``), and
the BEGIN flavour is chosen through a flag in the connection's info dict.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.pool import StaticPool

from storage.api import StorageError

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
_MIGRATION_LOCK_ID = 0x1357A7E  # pg advisory lock: one process migrates at a time
_IMMEDIATE = "thirteen_begin_immediate"


def normalize_url(database_url: str | URL) -> URL:
    """``postgresql://`` / ``postgres://`` use psycopg 3 (the driver we ship)."""
    url = make_url(database_url)
    if url.drivername in ("postgresql", "postgres"):
        url = url.set(drivername="postgresql+psycopg")
    return url


def compact_json(value: Any) -> str:
    """JSON as stored: compact, UTF-8 kept (both dialects, both code paths)."""
    try:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    except (TypeError, ValueError) as exc:
        # psycopg calls this outside SQLAlchemy's error wrapping: name it here.
        raise StorageError(f"not storable as JSON: {exc}") from exc


def libpq_conninfo(url: URL) -> str:
    """The SQLAlchemy URL as a libpq URI for psycopg itself (query options,
    such as ``options=-csearch_path=...``, carried over)."""
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


def is_memory_sqlite(url: URL) -> bool:
    return url.get_backend_name() == "sqlite" and url.database in (None, "", ":memory:")


def make_engine(url: URL, connections: int) -> Engine:
    common: dict[str, Any] = {"json_serializer": compact_json}
    if url.get_backend_name() != "sqlite":
        return create_engine(
            url, pool_size=connections, max_overflow=2, pool_pre_ping=True, **common
        )
    in_memory = is_memory_sqlite(url)
    if in_memory:
        # One shared connection, or every checkout would see its own empty database.
        engine = create_engine(
            url, poolclass=StaticPool, connect_args={"check_same_thread": False}, **common
        )
    else:
        engine = create_engine(
            url,
            pool_size=connections,
            max_overflow=2,
            connect_args={"check_same_thread": False},
            **common,
        )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Take BEGIN away from the sqlite3 module so our BEGIN (IMMEDIATE for
        # writes) is the one that runs, and DDL is transactional.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        if not in_memory:
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: no fsync per commit
            # The Checkpointer thread does the checkpoints (and their fsyncs);
            # a committing connection only does one if the WAL outgrows this.
            cursor.execute("PRAGMA wal_autocheckpoint=8192")
            cursor.execute("PRAGMA journal_size_limit=67108864")
        cursor.execute("PRAGMA busy_timeout=5000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        # A write that starts as a reader can fail to upgrade its lock without
        # the busy handler ever waiting (another process on the same file);
        # IMMEDIATE takes the write lock up front.
        immediate = conn.info.get(_IMMEDIATE, False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine


class ThreadConnections:
    """One long-lived connection per worker thread."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._local = threading.local()
        self._all: list[Connection] = []
        self._lock = threading.Lock()

    def _get(self) -> Connection:
        conn: Connection | None = getattr(self._local, "conn", None)
        if conn is None or conn.closed:
            conn = self._engine.connect()
            self._local.conn = conn
            with self._lock:
                self._all.append(conn)
        return conn

    @contextmanager
    def write(self) -> Iterator[Connection]:
        conn = self._get()
        conn.info[_IMMEDIATE] = True
        try:
            with conn.begin():
                yield conn
        finally:
            if not conn.invalidated:
                conn.info[_IMMEDIATE] = False

    @contextmanager
    def read(self) -> Iterator[Connection]:
        conn = self._get()
        with conn.begin():
            yield conn

    def close_all(self) -> None:
        with self._lock:
            conns, self._all = self._all, []
        for conn in conns:
            conn.close()
        self._engine.dispose()


class Checkpointer:
    """Checkpoints a SQLite WAL from a background thread.

    With WAL and synchronous=NORMAL a commit does no fsync; the checkpoint
    that copies the WAL back into the database does. Left to SQLite, that
    checkpoint runs inside whichever commit crosses the threshold, stalling
    that caller (and, for inline calls, the event loop). Here a PASSIVE
    checkpoint (it never blocks readers or writers) runs every ``interval``
    seconds on its own connection; sqlite3 releases the GIL while it works.
    """

    def __init__(self, engine: Engine, interval: float = 0.2) -> None:
        self._engine = engine
        self._interval = interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sqlite-checkpoint", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        raw = self._engine.raw_connection()
        try:
            sqlite = raw.driver_connection
            assert sqlite is not None  # a checked-out connection holds its DBAPI connection
            while not self._stop.wait(self._interval):
                try:
                    sqlite.execute("PRAGMA wal_checkpoint(PASSIVE)").close()
                except Exception:  # noqa: BLE001 - a failed checkpoint is retried next tick
                    continue
        finally:
            raw.close()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


def _chatter(record: logging.LogRecord) -> bool:
    return not record.getMessage().startswith(("Context impl ", "Will assume "))


_QUIET = _chatter


def migrate(conn: Connection) -> None:
    """alembic upgrade head on ``conn``, configured in code (no alembic.ini),
    so it works the same from a source tree and an installed package."""
    # alembic logs each of its autogenerate plugins at INFO as it loads them
    # (seven lines on every start), and which dialect it uses: nothing a
    # person running the bot needs. The migrations it runs are still logged.
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)
    migration_log = logging.getLogger("alembic.runtime.migration")
    if _QUIET not in migration_log.filters:
        migration_log.addFilter(_QUIET)
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK_ID})")
    config.attributes["connection"] = conn
    _refuse_a_newer_schema(conn, config)
    command.upgrade(config, "head")


def _refuse_a_newer_schema(conn: Connection, config: Any) -> None:
    """A database a newer version of the bot upgraded: alembic would fail
    on the revision it does not know, with a traceback; say it plainly."""
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    from storage.api import StorageError

    script = ScriptDirectory.from_config(config)
    known = {rev.revision for rev in script.walk_revisions()}
    current = MigrationContext.configure(conn).get_current_heads()
    newer = [rev for rev in current if rev not in known]
    if newer:
        raise StorageError(
            f"its schema is at revision {newer[0]}, which this version of the bot does not "
            f"know (it knows up to {script.get_current_head()}): run the version that upgraded "
            "it, or restore a backup taken before that upgrade (docs/deploy.md)"
        )
