"""The game's storage: the repository of rooms, rounds, settlements and
the outbox (storage/api.py, storage/delivery.py), in memory or in a SQL
database. Assembled here: PostgreSQL's native repository
(storage/postgres.py) is registered as the one ``SqlRepository(url)`` makes
for a ``postgresql`` URL."""

from storage import postgres, sql

sql.NATIVE["postgresql"] = postgres.PgRepository
