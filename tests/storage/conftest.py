"""Every storage test that touches a database runs on SQLite and on PostgreSQL: a fresh
database (or PostgreSQL schema) per test, see tests/storage/postgres.py for the server and its
settings; with a chat and two players where a test asks for the ``table``."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import psycopg
import pytest

from storage import Database
from tests.storage.players import Table, open_table
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


@pytest.fixture
async def databases(database_url: str) -> AsyncIterator[tuple[Database, Database]]:
    """Two Database objects on one database, each with its own connections: two processes."""
    first, second = Database(database_url), Database(database_url)
    await first.migrate()
    yield first, second
    await first.close()
    await second.close()


@pytest.fixture
async def table(database_url: str) -> AsyncIterator[Table]:
    opened = await open_table(database_url)
    yield opened
    await opened.database.close()
