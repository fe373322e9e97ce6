"""Alembic environment, configured in code (no alembic.ini): storage.sql
passes an open connection in ``config.attributes["connection"]``; without
one (the alembic CLI), the URL comes from the ``sqlalchemy.url`` option or
DATABASE_URL."""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy import create_engine

from storage.models import metadata

config = context.config


def _run(connection) -> None:  # type: ignore[no-untyped-def]
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=connection.dialect.name == "sqlite",  # ALTER support on SQLite
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def _url() -> str:
    return config.get_main_option("sqlalchemy.url") or os.environ.get(
        "DATABASE_URL", "sqlite:///thirteen.db"
    )


if context.is_offline_mode():
    context.configure(url=_url(), target_metadata=metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    given = config.attributes.get("connection")
    if given is not None:
        _run(given)
    else:
        engine = create_engine(_url())
        with engine.connect() as connection:
            _run(connection)
        engine.dispose()
