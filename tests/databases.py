"""The databases the tests run on, as pytest fixtures for every test folder: a test that asks
for ``database_url`` or ``migrated_url`` gets a fresh database (or PostgreSQL schema) each time.

Where the dialect matters it runs twice, on SQLite and on PostgreSQL: the storage tests, the
process tests (tests/system), and every test marked ``both_databases`` (races between
processes, settled by the database's locks and constraints). The services' tests elsewhere
(commands, chat adapters, web pages) run on SQLite only: they exercise the same storage calls
the storage tests already run on both. See tests/storage/postgres.py for the server and its
settings.

``database_url`` is empty, not even migrated: for the tests of the migrations and of the
bot's start. ``migrated_url`` is at the newest migration, as the bot leaves it at its start,
without migrating per test (70 ms on SQLite, 120-190 ms on PostgreSQL, most of a storage
test's setup): each worker migrates one SQLite file and copies it for every test, and lends
its PostgreSQL schemas, migrated once, one test at a time, emptying them after each test.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest
from psycopg import sql

from storage import Database, schema
from storage.health import newest_revision
from tests.storage.postgres import PostgresServer, required, server_url

BACKENDS = ("sqlite", "postgresql")
# Test folders whose every database test runs on both databases.
BOTH_DATABASES_FOLDERS = ("storage", "system")
# The tables that hold the bot's data, children first: the order to empty them in.
_EMPTIED_FIRST = [table.name for table in reversed(schema.metadata.sorted_tables)]
LOCK_TIMEOUT = "5s"  # emptying a schema a test left locked: give up and drop it instead


def migrate(url: str) -> None:
    """``Database.migrate()`` on ``url``, as the bot does at start, from synchronous code (a
    fixture, or a test inside a running event loop)."""

    async def migrated() -> None:
        database = Database(url)
        try:
            await database.migrate()
        finally:
            await database.close()

    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, migrated()).result()


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


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "both_databases: run a database test on PostgreSQL as well as SQLite (a race between "
        "processes, which each database settles its own way)",
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" in metafunc.fixturenames:
        metafunc.parametrize("backend", backends_for(metafunc), indirect=True)


def backends_for(metafunc: pytest.Metafunc) -> tuple[str, ...]:
    """Both databases for the storage and process tests and the tests marked
    ``both_databases``; SQLite alone for the rest."""
    folder = Path(metafunc.definition.path).parent
    tests = Path(__file__).parent
    if folder.parent == tests and folder.name in BOTH_DATABASES_FOLDERS:
        return BACKENDS
    if metafunc.definition.get_closest_marker("both_databases") is not None:
        return BACKENDS
    return ("sqlite",)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    return str(getattr(request, "param", "sqlite"))


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
def migrated_url(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """A fresh database at the newest migration, holding no data: a copy of a migrated SQLite
    file, or a migrated PostgreSQL schema that no other test is using, emptied."""
    if "database_url" in request.fixturenames:  # two databases, where one was meant
        raise pytest.UsageError(f"{request.node.nodeid}: database_url and migrated_url both")
    if backend == "sqlite":
        template: Path = request.getfixturevalue("migrated_sqlite")
        yield sqlite_copy(template, tmp_path / "gammonbot.db")
        return
    schemas: MigratedSchemas = request.getfixturevalue("migrated_schemas")
    with schemas.lend() as url:
        yield url


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file at the newest migration, to copy (never to open: see ``migrated_url``)."""
    path = tmp_path_factory.mktemp("migrated") / "gammonbot.db"
    migrate(f"sqlite:///{path}")
    left = [str(p) for p in path.parent.iterdir() if p != path]
    assert not left, f"the migrated SQLite file is not all in one file: {left}"
    return path


def sqlite_copy(template: Path, path: Path) -> str:
    """The URL of a copy of the migrated SQLite file ``template`` at ``path``."""
    shutil.copyfile(template, path)
    return f"sqlite:///{path}"


@pytest.fixture(scope="session")
def migrated_schemas(postgres: PostgresServer) -> MigratedSchemas:
    return MigratedSchemas(postgres)


class MigratedSchemas:
    """PostgreSQL schemas migrated once and lent to one test at a time. After its test a
    schema's rows are deleted and its sequences start again at 1, in one transaction; a
    schema that cannot be emptied, or no longer holds exactly the newest migration's tables,
    is dropped instead (the next test gets a new one)."""

    def __init__(self, server: PostgresServer) -> None:
        self.server = server
        self.newest = newest_revision()
        self._free: list[tuple[str, str]] = []  # (name, URL) of the emptied schemas
        self._sequences: dict[str, list[str]] = {}  # schema -> its sequences, qualified

    @contextmanager
    def lend(self) -> Iterator[str]:
        name, url = self._free.pop() if self._free else self._new()
        try:
            yield url
        finally:
            if self._emptied(name):
                self._free.append((name, url))
            else:
                self.server.drop_schema(name)
                del self._sequences[name]

    def _new(self) -> tuple[str, str]:
        name, url = self.server.create_schema()
        migrate(url)
        rows = self.server.session.execute(
            "SELECT sequence_name FROM information_schema.sequences WHERE sequence_schema = %s",
            [name],
        ).fetchall()
        self._sequences[name] = [f"{name}.{sequence}" for (sequence,) in rows]
        return name, url

    def _emptied(self, name: str) -> bool:
        session = self.server.session
        try:
            with session.transaction():
                session.execute(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT}'")
                tables = session.execute(
                    "SELECT tablename FROM pg_tables WHERE schemaname = %s", [name]
                ).fetchall()
                if {table for (table,) in tables} != {*_EMPTIED_FIRST, "alembic_version"}:
                    return False
                version = session.execute(
                    sql.SQL("SELECT version_num FROM {}.alembic_version").format(
                        sql.Identifier(name)
                    )
                ).fetchall()
                if version != [(self.newest,)]:
                    return False
                for table in _EMPTIED_FIRST:
                    session.execute(
                        sql.SQL("DELETE FROM {}.{}").format(
                            sql.Identifier(name), sql.Identifier(table)
                        )
                    )
                session.execute(
                    "SELECT setval(name::regclass, 1, false) FROM unnest(%s::text[]) AS name",
                    [self._sequences[name]],
                )
        except psycopg.Error:
            return False
        return True
