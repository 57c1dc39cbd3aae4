"""The databases the tests run on, as pytest fixtures for every test folder: a test that asks
for ``database_url`` runs twice, on SQLite and on PostgreSQL, with a fresh database (or
PostgreSQL schema) each time. See tests/storage/postgres.py for the server and its settings.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from tests.storage.postgres import PostgresServer, required, server_url

BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """The test server; the PostgreSQL variants skip without one (fail when required)."""
    try:
        server = PostgresServer.reach(server_url())
    except psycopg.OperationalError as error:
        reason = "no PostgreSQL server for the tests: " + " ".join(str(error).split())
        if required():
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)
    yield server
    server.close()


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def database_url(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """A fresh, empty database, not even migrated: a new SQLite file, or a new schema on the
    PostgreSQL server."""
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path / 'gammonbot.db'}"
        return
    server: PostgresServer = request.getfixturevalue("postgres")
    with server.schema() as url:
        yield url
