"""PostgreSQL's native SQL, compiled from the SQLAlchemy statements.

PostgreSQL's per-action calls run on psycopg directly (storage/postgres.py),
but they run the very statements the SQLAlchemy path runs
(storage/statements.py, storage/delivery_statements.py), compiled here by
SQLAlchemy's own psycopg compiler, as SQLAlchemy compiles them to execute
them: once per set of columns a call gives. There is no second copy of any
query to keep in step with storage/models.py.

Two differences from the SQL SQLAlchemy sends: positional placeholders
(``%s``; the plain save's ``$1``...), and a statement's own literals
(``status = 'open'``, ``seq + 1``, ``owner = NULL``) written into the SQL
instead of sent as parameters with every row. A call's values are the dicts the SQLAlchemy path binds
(storage/rows.py), each converted as SQLAlchemy converts it, by its
column's type (JSON to compact text, cast to json in the SQL; times to
naive UTC).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, ClauseElement, DateTime, Integer, String
from sqlalchemy.dialects.postgresql.psycopg import PGCompiler_psycopg, PGDialect_psycopg
from sqlalchemy.types import TypeDecorator, TypeEngine

from storage.delivery_statements import DeliveryStatements
from storage.engine import compact_json
from storage.statements import Statements

Process = Callable[[Any], Any]
Params = list[Any]


class _Compiler(PGCompiler_psycopg):
    """psycopg's compiler, with the statement's own literals inline."""

    def visit_bindparam(  # SQLAlchemy's signature, untyped there
        self,
        bindparam: Any,
        within_columns_clause: Any = False,
        literal_binds: Any = False,
        skip_bind_expression: Any = False,
        literal_execute: Any = False,
        render_postcompile: Any = False,
        is_upsert_set: Any = False,
        **kwargs: Any,
    ) -> Any:
        # A value of the statement (not required of the call): a literal.
        return super().visit_bindparam(  # type: ignore[no-untyped-call]
            bindparam,
            within_columns_clause,
            literal_binds or not bindparam.required,
            skip_bind_expression,
            literal_execute,
            render_postcompile,
            is_upsert_set,
            **kwargs,
        )


def _dialect(paramstyle: str) -> PGDialect_psycopg:
    """SQLAlchemy's psycopg dialect as the engine has it (storage/engine.py),
    with ``paramstyle`` placeholders."""
    # SQLAlchemy leaves the dialect's constructor untyped.
    dialect: PGDialect_psycopg = PGDialect_psycopg(  # type: ignore[no-untyped-call]
        json_serializer=compact_json, paramstyle=paramstyle
    )
    return dialect


# psycopg's %s placeholders; and libpq's $1, $2, ... for PREPARE.
_POSITIONAL = _dialect("format")
_NUMBERED = _dialect("numeric_dollar")


def _processor(type_: TypeEngine[Any], dialect: PGDialect_psycopg) -> Process | None:
    """How SQLAlchemy converts a value of ``type_`` for ``dialect``; for
    JSON, the serializer itself: SQLAlchemy's wrapper around it only checks
    for its own NULL markers, which nothing here passes, and measurably
    slowed the plain save."""
    if isinstance(type_, JSON) and not type_.none_as_null:
        return compact_json  # None included: JSON null, as SQLAlchemy stores it
    return type_.bind_processor(dialect)


class _Compiled:
    """``statement`` compiled for ``keys`` (the columns a call gives): its
    SQL, and per placeholder, in order, the value's key and conversion (and
    its column's type)."""

    __slots__ = ("slots", "sql", "types")

    def __init__(
        self,
        dialect: PGDialect_psycopg,
        statement: ClauseElement,
        keys: Sequence[str] | None,
        many: bool,
    ) -> None:
        # for_executemany: no RETURNING of new ids that nobody reads
        compiled = _Compiler(dialect, statement, column_keys=keys, for_executemany=many)
        self.sql: str = compiled.string
        by_name = {name: bind for bind, name in compiled.bind_names.items()}
        self.slots: list[tuple[str, Process | None]] = []
        self.types: list[TypeEngine[Any]] = []
        for name in compiled.positiontup or ():
            bind = by_name[name]
            if bind.expanding:
                raise ValueError(f"{bind.key}: an IN list is rendered per call, not once")
            self.slots.append((bind.key, _processor(bind.type, dialect)))
            self.types.append(bind.type)

    def params(self, values: Mapping[str, Any]) -> Params:
        return [
            values[key] if process is None else process(values[key]) for key, process in self.slots
        ]


class PgStatement:
    """One statement for psycopg: ``bind`` (one row) and ``bind_many`` (rows
    alike) give the SQL and its parameters for a call's values."""

    __slots__ = ("_compiled", "_statement")

    def __init__(self, statement: ClauseElement) -> None:
        self._statement = statement
        self._compiled: dict[tuple[bool, tuple[str, ...]], _Compiled] = {}

    def _for(self, values: Mapping[str, Any], many: bool) -> _Compiled:
        key = (many, tuple(values))
        compiled = self._compiled.get(key)
        if compiled is None:
            compiled = _Compiled(_POSITIONAL, self._statement, key[1], many)
            self._compiled[key] = compiled
        return compiled

    def bind(self, values: Mapping[str, Any]) -> tuple[str, Params]:
        compiled = self._for(values, False)
        return compiled.sql, compiled.params(values)

    def bind_many(self, rows: Sequence[Mapping[str, Any]]) -> tuple[str, list[Params]]:
        """``rows`` have the same keys (one ``executemany``); at least one."""
        compiled = self._for(rows[0], True)
        return compiled.sql, [compiled.params(row) for row in rows]


class PgPrepared:
    """A statement of fixed parameters prepared on a connection under
    ``name`` (``prepare`` is the SQL that does it) and run straight through
    libpq: ``args`` are its parameters, in order, as text."""

    __slots__ = ("_encoders", "name", "prepare")

    def __init__(self, name: str, statement: ClauseElement) -> None:
        compiled = _Compiled(_NUMBERED, statement, None, False)
        self.name = name
        self.prepare = f"PREPARE {name} AS {compiled.sql}"
        self._encoders = [
            (key, _encoder(bind_type, process))
            for (key, process), bind_type in zip(compiled.slots, compiled.types, strict=True)
        ]

    def args(self, values: Mapping[str, Any]) -> list[bytes | None]:
        return [
            None if (value := values[key]) is None else encode(value)
            for key, encode in self._encoders
        ]


def _encoder(type_: TypeEngine[Any], process: Process | None) -> Callable[[Any], bytes]:
    """A value (not None) of ``type_``, converted by ``process``, as text.
    Chosen once by the column's type: the plain save runs these for every
    action, and a check of the value's type per parameter cost more client
    CPU than the save's own bookkeeping."""
    column = type_.impl_instance if isinstance(type_, TypeDecorator) else type_
    if process is None and isinstance(column, String):
        return str.encode
    if process is None and isinstance(column, Integer) and not isinstance(column, Boolean):
        return b"%d".__mod__
    if process is compact_json:

        def json_text(value: Any) -> bytes:
            return compact_json(value).encode()

        return json_text
    if process is not None and isinstance(column, DateTime):

        def time_text(value: Any) -> bytes:
            return bytes(process(value).isoformat(), "utf-8")

        return time_text

    def text(value: Any) -> bytes:
        return _text(value if process is None else process(value))

    return text


def _text(value: Any) -> bytes:
    """A parameter in PostgreSQL's text format (its type comes from the
    statement's casts)."""
    if isinstance(value, str):
        return value.encode()
    if isinstance(value, bool):
        return b"t" if value else b"f"
    if isinstance(value, datetime):
        return value.isoformat().encode()
    return str(value).encode()


@dataclass(frozen=True, slots=True, kw_only=True)
class PgStatements:
    """The statements of the native path, named as in ``Statements`` and
    ``DeliveryStatements``; ``save_room`` is ``update_room``, prepared."""

    save_room: PgPrepared
    update_room: PgStatement
    insert_room: PgStatement
    room_by_id: PgStatement
    insert_round: PgStatement
    insert_settlement: PgStatement
    insert_ledger: PgStatement
    insert_arrangements: PgStatement
    upsert_players: PgStatement
    upsert_outbox: PgStatement
    upsert_timer: PgStatement


def compile_statements(sql: Statements, delivery: DeliveryStatements) -> PgStatements:
    """PostgreSQL's ``sql`` and ``delivery`` (built for "postgresql") for psycopg."""
    return PgStatements(
        # psycopg names its own prepared statements "_pg3_*": no collision.
        save_room=PgPrepared("thirteen_save_room", sql.update_room),
        update_room=PgStatement(sql.update_room),
        insert_room=PgStatement(sql.insert_room),
        room_by_id=PgStatement(sql.room_by_id),
        insert_round=PgStatement(sql.insert_round),
        insert_settlement=PgStatement(sql.insert_settlement),
        insert_ledger=PgStatement(sql.insert_ledger),
        insert_arrangements=PgStatement(sql.insert_arrangements),
        upsert_players=PgStatement(sql.upsert_players),
        upsert_outbox=PgStatement(delivery.upsert_outbox),
        upsert_timer=PgStatement(delivery.upsert_timer),
    )
