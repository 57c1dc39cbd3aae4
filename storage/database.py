"""The database connection: engine, SQLite pragmas, migrations at start, online backups.

One setting chooses the database: ``DATABASE_URL`` (default a SQLite file next to the bot), a
SQLite file or a PostgreSQL server. SQLite runs in WAL mode with foreign keys on and a busy
timeout, so short write transactions from several processes queue instead of failing.
PostgreSQL runs at its default isolation, READ COMMITTED: the repositories guard what several
processes may do at once with conditional updates, constraints and row locks, which work the
same on both databases.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Final, TypeVar

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError, SQLAlchemyError

from storage.direct import DirectConnection
from storage.errors import DatabaseUnavailableError, StorageError
from storage.threaded import ThreadedEngine

logger = logging.getLogger(__name__)

T = TypeVar("T")

DEFAULT_URL: Final = "sqlite:///gammonbot.db"
BUSY_TIMEOUT_MS: Final = 10_000
_MIGRATIONS: Final = Path(__file__).parent / "migrations"
_DRIVERS: Final = {"sqlite": "sqlite", "postgresql": "postgresql+psycopg"}
_SCHEME: Final = re.compile(r"[a-z][a-z0-9]{0,19}")
# A PostgreSQL statement that waits this long for a lock fails instead, as a SQLite one does
# after the busy timeout: the database thread is never stuck behind another process.
_LOCK_TIMEOUT: Final = f"-c lock_timeout={BUSY_TIMEOUT_MS}"
# The advisory lock that processes starting together on one PostgreSQL database take in turn.
_MIGRATION_LOCK: Final = 0x67616D6D6F6E  # "gammon"
# The database file and the files SQLite keeps beside it, by the suffix of their names.
_SQLITE_FILES: Final = {
    "": "the database itself",
    "-wal": "the database's write-ahead log",
    "-shm": "the database's shared-memory file",
    "-journal": "the database's rollback journal",
}


def _compact_json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    # FULL: a commit survives a power cut, not only a crashed process.
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.close()


class Database:
    """The database at ``url``: ``sqlite:///file.db`` or ``postgresql://user@host/name``,
    also spelt with a driver (``sqlite+aiosqlite``, ``postgresql+asyncpg``, ...): storage
    chooses the driver itself, pysqlite or psycopg, whatever the URL names. All database work
    runs on one thread of its own (see :mod:`storage.threaded`), so the event loop never
    waits for it."""

    def __init__(self, url: str = DEFAULT_URL) -> None:
        self.url = make_url(url)
        self.is_sqlite = self.url.get_backend_name() == "sqlite"
        if self.is_sqlite and self.url.database and self.url.database != ":memory:":
            Path(self.url.database).parent.mkdir(parents=True, exist_ok=True)
        # Checkouts must never wait: they run on the one database thread, which is also where
        # connections come back. Five stay open for reuse; more are opened when needed.
        engine = create_engine(
            _with_driver(self.url),
            json_serializer=_compact_json,
            pool_size=5,
            max_overflow=-1,
            connect_args={} if self.is_sqlite else _postgres_session(self.url),
        )
        if self.is_sqlite:
            event.listen(engine, "connect", _sqlite_pragmas)
        self.engine = ThreadedEngine(engine)

    async def migrate(self) -> None:
        """Bring the schema to the newest migration; does nothing when it already is."""
        await self.engine.write(_upgrade)

    async def close(self) -> None:
        await self.engine.dispose()


def _postgres_session(url: URL) -> dict[str, str]:
    """The session settings for PostgreSQL: the lock timeout, then the options the URL gives
    (``?options=-csearch_path%3Dbot`` keeps working, and its own lock_timeout would win)."""
    given = url.query.get("options")
    given = given[-1] if isinstance(given, tuple) else given
    return {"options": f"{_LOCK_TIMEOUT} {given}" if given else _LOCK_TIMEOUT}


def _with_driver(url: URL) -> URL:
    """``url`` with the driver storage uses for its kind of database; other kinds keep the
    driver they name (and fail to open if it is no synchronous one)."""
    driver = _DRIVERS.get(url.get_backend_name())
    return url if driver is None else url.set(drivername=driver)


def backup_sqlite(url: str, target: str | Path) -> None:
    """A consistent online copy of the SQLite database at ``url`` (SQLite's backup API),
    safe while the bot keeps writing."""
    database = _sqlite_file(url)
    if not database.exists():
        raise ValueError(f"no database at {database}")
    destination = Path(target)
    _refuse_own_files(database, destination)
    destination.parent.mkdir(parents=True, exist_ok=True)
    try:
        source = sqlite3.connect(database, timeout=BUSY_TIMEOUT_MS / 1000)
        try:
            copy = sqlite3.connect(destination)
            try:
                source.backup(copy)
            finally:
                copy.close()
        finally:
            source.close()
    except sqlite3.Error as error:
        raise StorageError(f"backup failed: {error}") from error
    logger.info("backup written to %s", destination)


def _sqlite_file(url: str) -> Path:
    """The file of a SQLite URL; the reasons never quote the URL, which may hold a password."""
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        raise ValueError("DATABASE_URL is not a database URL") from None
    advice = pg_dump_advice(url)
    if advice is not None:
        raise ValueError(advice)
    if parsed.get_backend_name() != "sqlite" or not parsed.database:
        raise ValueError("backups are made of SQLite databases; use the server's own tools")
    return Path(parsed.database)


def pg_dump_advice(url: str) -> str | None:
    """For a PostgreSQL URL, what to back it up with instead of :func:`backup_sqlite` (which
    copies SQLite files only); None for any other URL. Names the database, never the host,
    user or password."""
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        return None
    if parsed.get_backend_name() != "postgresql":
        return None
    name = parsed.database or "DBNAME"
    return (
        "DATABASE_URL names a PostgreSQL database, which gammonbot does not copy itself: back "
        "it up with PostgreSQL's pg_dump, which takes a consistent copy while the bot keeps "
        f"running (e.g. pg_dump --format=custom --file=gammonbot.dump {name})"
    )


def _refuse_own_files(database: Path, destination: Path) -> None:
    """Copying a database onto itself, or onto the WAL, shared-memory or journal file SQLite
    keeps beside it, would report success and corrupt it. Any spelling of those paths counts:
    relative or absolute, through a symlink or a hard link."""
    for suffix, what in _SQLITE_FILES.items():
        if _same_file(database.with_name(database.name + suffix), destination):
            raise ValueError(
                f"refusing to write the backup over {what} ({destination}); choose another path"
            )


def _same_file(first: Path, second: Path) -> bool:
    try:
        return os.path.samefile(first, second)
    except OSError:  # one of them does not exist (yet): compare where the paths lead
        return first.resolve() == second.resolve()


def _upgrade(transaction: DirectConnection) -> None:
    """Alembic's upgrade to the newest revision, in the caller's transaction, which first
    makes processes starting together on one database take turns: the first migrates, the
    others then find the schema current. On SQLite that is the write lock, taken at once
    (the driver would begin the transaction only at the first row written, after the
    tables were created, so two processes could both create them); on PostgreSQL an
    advisory lock held until the commit."""
    connection = transaction.sqlalchemy
    if connection.dialect.name == "sqlite":
        connection.exec_driver_sql("BEGIN IMMEDIATE")
    elif connection.dialect.name == "postgresql":
        connection.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK})
    config = alembic_config()
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


def alembic_config() -> Config:
    """Alembic's configuration: the migrations in this package."""
    config = Config()
    config.set_main_option("script_location", str(_MIGRATIONS))
    return config


def url_problem(url: str) -> str | None:
    """Why ``url`` is not a database URL storage can open, or None when it is: SQLite (a
    file, not an in-memory database: every connection would get one of its own) or
    PostgreSQL. The reason never quotes the URL, which may hold a password; it names the
    kind of database (``postgres://``, which SQLAlchemy does not read, is a common slip)."""
    try:
        parsed = make_url(url)
        parsed.get_dialect()
    except NoSuchModuleError:
        return _unknown_kind(url)
    except (ArgumentError, ValueError):
        return "not a database URL"
    kind = parsed.get_backend_name()
    if kind not in _DRIVERS:
        return _unknown_kind(url)
    if kind == "sqlite" and parsed.database in (None, "", ":memory:"):
        return "names no SQLite file: an in-memory database would be lost at every stop"
    return None


def _unknown_kind(url: str) -> str:
    scheme = url.split(":", 1)[0].split("+", 1)[0]
    shown = f" {scheme!r}" if _SCHEME.fullmatch(scheme) else ""
    return f"unknown kind of database{shown}: gammonbot stores its data in SQLite or PostgreSQL"


def driver_problem(url: str) -> str | None:
    """For a PostgreSQL URL whose driver is not installed (it comes with the
    ``gammonbot[postgresql]`` extra; SQLite's is in Python), how to install it; else None."""
    if sqlite_path(url) is not None or make_url(url).get_backend_name() != "postgresql":
        return None
    try:
        import psycopg  # noqa: F401  (optional: only PostgreSQL needs it)
    except ImportError:
        return (
            "PostgreSQL needs the psycopg driver, which is not installed: "
            "pip install 'gammonbot[postgresql]'"
        )
    return None


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL (relative to the working folder when the URL's is); None for
    any other database."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(str(parsed.database))


def describe_database(url: str) -> str:
    """Which database ``url`` names, for a person starting the bot: the SQLite file's name
    and folder, or the PostgreSQL database's name and server (never the user or password)."""
    file = sqlite_path(url)
    if file is not None:
        absolute = file.absolute()
        return f"database {absolute.name} in {absolute.parent}"
    parsed = make_url(url)
    server = parsed.host or "the local server"
    if parsed.port is not None:
        server = f"{server}:{parsed.port}"
    return f"PostgreSQL database {parsed.database or '(named as its user)'} on {server}"


async def check_database(url: str) -> None:
    """Open the database at ``url`` and bring its schema up to date, then close it: a server
    that cannot be reached, a missing driver or an unwritable SQLite path raises
    :class:`DatabaseUnavailableError` with a one-line reason, before anything starts."""
    await using_database(url, Database.migrate)


async def using_database(url: str, work: Callable[[Database], Awaitable[T]]) -> T:
    """``work`` done with the database at ``url``, opened for it and closed after; a database
    that cannot be used raises :class:`DatabaseUnavailableError` with a one-line reason."""
    try:
        database = Database(url)
        try:
            return await work(database)
        finally:
            await database.close()
    except ImportError as error:
        raise DatabaseUnavailableError(f"its database driver is not installed ({error})") from None
    except (SQLAlchemyError, OSError) as error:
        raise DatabaseUnavailableError(_one_line(error)) from None


def _one_line(error: Exception) -> str:
    """The driver's own words when there are some (SQLAlchemy adds the statement and a link),
    on one line: drivers like to add hints on lines of their own."""
    cause: BaseException = error
    if isinstance(error, DBAPIError) and error.orig is not None:
        cause = error.orig
    return " ".join(str(cause).split()) or type(cause).__name__
