"""PostgreSQL for the storage tests: a fresh, empty schema for every test, on the server that
``GAMMONBOT_TEST_POSTGRES_URL`` names (default ``postgresql://postgres@127.0.0.1:5432/test``,
any driver spelling; its database is only used to create and drop the test database).

One database is created per test session (``gammonbot_test_<pid>_session``); each test gets a
schema of its own in it, named in its URL (``?options=-csearch_path%3Dt_<n>``: every
connection the bot opens, and every process a test starts, works in that schema; in this
database no commit waits for the disk, see :data:`SYNCHRONOUS_COMMIT`). A schema
costs a few milliseconds, where a database cloned from a migrated template costs about 0.4 s
(``CREATE DATABASE ... TEMPLATE``, PostgreSQL 15, measured here). An empty schema is dropped
after its test; a migrated one (tests/databases.py) is emptied and lent to the next test, since
migrating a schema costs 120-190 ms and emptying it 2 ms. The database is dropped at the end of
the session; test databases left by a run that was killed are dropped when the next run starts
(never those of a run still going: its process id is alive).

When the server cannot be reached the PostgreSQL variants of the tests are skipped, unless
``GAMMONBOT_POSTGRES_TESTS=required`` (as CI should set it): then they fail.
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg import sql
from sqlalchemy.engine import make_url

DEFAULT_SERVER = "postgresql://postgres@127.0.0.1:5432/test"
# The tests' connections do not wait for the server's disk at each commit: what a commit makes
# visible, and when, is the same, only a crash of the server itself could lose the last ones
# (no test crashes the server; the bot's processes are killed, not the database's). Waiting
# for the disk was a tenth of the time of the tests that write most.
SYNCHRONOUS_COMMIT = "off"
PREFIX = "gammonbot_test_"
_LEFT_BEHIND = re.compile(rf"^{PREFIX}(\d+)_")


def server_url() -> str:
    return os.environ.get("GAMMONBOT_TEST_POSTGRES_URL") or DEFAULT_SERVER


def required() -> bool:
    return os.environ.get("GAMMONBOT_POSTGRES_TESTS", "") == "required"


def sync_url(url: str) -> str:
    """``url`` with the driver for SQLAlchemy engines the tests make themselves (to run
    Alembic by hand or inspect a schema): pysqlite, or psycopg as storage uses it."""
    parsed = make_url(url)
    driver = "sqlite" if parsed.get_backend_name() == "sqlite" else "postgresql+psycopg"
    return parsed.set(drivername=driver).render_as_string(hide_password=False)


def _libpq(url: str, database: str | None = None) -> str:
    """``url`` as libpq reads it, naming ``database`` when given; password and all."""
    parsed = make_url(url).set(drivername="postgresql")
    if database is not None:
        parsed = parsed.set(database=database)
    return parsed.render_as_string(hide_password=False)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class PostgresServer:
    """The test server, through an administrative connection (autocommit: CREATE DATABASE
    runs outside transactions), and the test session's database on it."""

    def __init__(self, url: str, admin: psycopg.Connection[Any]) -> None:
        self.url = url
        self._admin = admin
        self._schemas = (f"t_{number}" for number in itertools.count())
        self._name = f"{PREFIX}{os.getpid()}_session"
        self._session: psycopg.Connection[Any] | None = None

    @classmethod
    def reach(cls, url: str) -> PostgresServer:
        """Connect, or raise :class:`psycopg.OperationalError` saying why not."""
        admin = psycopg.connect(_libpq(url), autocommit=True, connect_timeout=3)
        server = cls(url, admin)
        server._drop_left_behind()
        return server

    def _drop_left_behind(self) -> None:
        names = self._admin.execute(
            "SELECT datname FROM pg_database WHERE datname LIKE %s", [PREFIX + "%"]
        ).fetchall()
        for (name,) in names:
            found = _LEFT_BEHIND.match(name)
            if found and not _alive(int(found.group(1))):
                self._drop(name)

    def _drop(self, name: str) -> None:
        self._admin.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )

    def _database(self) -> psycopg.Connection[Any]:
        """A connection to the session's database, which is made on first use."""
        if self._session is None:
            name = sql.Identifier(self._name)
            self._admin.execute(sql.SQL("CREATE DATABASE {}").format(name))
            self._admin.execute(
                sql.SQL("ALTER DATABASE {} SET synchronous_commit = {}").format(
                    name, sql.Literal(SYNCHRONOUS_COMMIT)
                )
            )
            self._session = psycopg.connect(_libpq(self.url, self._name), autocommit=True)
        return self._session

    @contextmanager
    def schema(self) -> Iterator[str]:
        """The URL of a new, empty schema, which is dropped afterwards."""
        name, url = self.create_schema()
        try:
            yield url
        finally:
            self.drop_schema(name)

    def create_schema(self) -> tuple[str, str]:
        """A new, empty schema: its name, and the URL of a connection working in it."""
        session = self._database()
        name = next(self._schemas)
        session.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(name)))
        url = make_url(self.url).set(database=self._name)
        url = url.update_query_dict({"options": f"-csearch_path={name}"})
        return name, url.render_as_string(hide_password=False)

    def drop_schema(self, name: str) -> None:
        self._database().execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(name)))

    @property
    def session(self) -> psycopg.Connection[Any]:
        """The administrative connection to the session's database (autocommit)."""
        return self._database()

    def close(self) -> None:
        if self._session is not None:
            self._session.close()
            self._drop(self._name)
        self._admin.close()
