from tests.table.conftest import clock, repo  # noqa: F401  (the same fixtures)
