"""The database connection: engine, SQLite pragmas, migrations at start, online backups.

One setting chooses the database: ``DATABASE_URL`` (default a SQLite file next to the bot).
SQLite runs in WAL mode with foreign keys on and a busy timeout, so short write transactions
from several tasks or processes queue instead of failing.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from pathlib import Path
from typing import Any, Final

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, event
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError, SQLAlchemyError

from storage.errors import DatabaseUnavailableError, StorageError
from storage.threaded import ThreadedEngine

logger = logging.getLogger(__name__)

DEFAULT_URL: Final = "sqlite:///gammonbot.db"
BUSY_TIMEOUT_MS: Final = 10_000
_MIGRATIONS: Final = Path(__file__).parent / "migrations"
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
    """The database at ``url``: ``sqlite:///file.db`` (the older ``sqlite+aiosqlite:///file.db``
    is read the same way: no aiosqlite is used), or later a PostgreSQL URL. All database work
    runs on one thread of its own (see :mod:`storage.threaded`), so the event loop never waits
    for it."""

    def __init__(self, url: str = DEFAULT_URL) -> None:
        self.url = make_url(url)
        self.is_sqlite = self.url.get_backend_name() == "sqlite"
        if self.is_sqlite and self.url.database and self.url.database != ":memory:":
            Path(self.url.database).parent.mkdir(parents=True, exist_ok=True)
        sync_url = self.url.set(drivername="sqlite") if self.is_sqlite else self.url
        # Checkouts must never wait: they run on the one database thread, which is also where
        # connections come back. Five stay open for reuse; more are opened when needed.
        engine = create_engine(
            sync_url, json_serializer=_compact_json, pool_size=5, max_overflow=-1
        )
        if self.is_sqlite:
            event.listen(engine, "connect", _sqlite_pragmas)
        self.engine = ThreadedEngine(engine)

    async def migrate(self) -> None:
        """Bring the schema to the newest migration; does nothing when it already is."""
        await self.engine.run(_migrate, self.engine.sync_engine)

    async def close(self) -> None:
        await self.engine.dispose()


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
    if parsed.get_backend_name() != "sqlite" or not parsed.database:
        raise ValueError("backups are made of SQLite databases; use the server's own tools")
    return Path(parsed.database)


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


def _migrate(engine: Any) -> None:
    with engine.begin() as connection:
        _upgrade(connection)


def _upgrade(connection: Connection) -> None:
    config = Config()
    config.set_main_option("script_location", str(_MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


def url_problem(url: str) -> str | None:
    """Why ``url`` is not a database URL SQLAlchemy can use, or None when it is. The reason
    never quotes the URL: it may hold a password."""
    try:
        make_url(url).get_dialect()
    except NoSuchModuleError:
        return "unknown kind of database"
    except (ArgumentError, ValueError):
        return "not a database URL"
    return None


async def check_database(url: str) -> None:
    """Open the database at ``url`` and bring its schema up to date, then close it: a server
    that cannot be reached, a missing driver or an unwritable SQLite path raises
    :class:`DatabaseUnavailableError` with a one-line reason, before anything starts."""
    try:
        database = Database(url)
        try:
            await database.migrate()
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
