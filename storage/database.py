"""The database connection: engine, SQLite pragmas, migrations at start, online backups.

One setting chooses the database: ``DATABASE_URL`` (default a SQLite file next to the bot).
SQLite runs in WAL mode with foreign keys on and a busy timeout, so short write transactions
from several tasks or processes queue instead of failing.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from pathlib import Path
from typing import Any, Final

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, event
from sqlalchemy.engine import Connection, make_url

from storage.errors import StorageError
from storage.threaded import ThreadedEngine

logger = logging.getLogger(__name__)

DEFAULT_URL: Final = "sqlite+aiosqlite:///gammonbot.db"
BUSY_TIMEOUT_MS: Final = 10_000
_MIGRATIONS: Final = Path(__file__).parent / "migrations"


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
    """The database at ``url``: ``sqlite+aiosqlite:///file.db`` (or ``sqlite:///file.db``), or
    later a PostgreSQL URL. All database work runs on one thread of its own (see
    :mod:`storage.threaded`), so the event loop never waits for it."""

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

    def backup(self, target: str | Path) -> None:
        """A consistent online copy of this SQLite database."""
        backup_sqlite(str(self.url), target)


def backup_sqlite(url: str, target: str | Path) -> None:
    """A consistent online copy of the SQLite database at ``url`` (SQLite's backup API),
    safe while the bot keeps writing."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database:
        raise ValueError("backups are made of SQLite databases; use the server's own tools")
    if not Path(parsed.database).exists():
        raise ValueError(f"no database at {parsed.database}")
    destination = Path(target)
    destination.parent.mkdir(parents=True, exist_ok=True)
    try:
        source = sqlite3.connect(parsed.database, timeout=BUSY_TIMEOUT_MS / 1000)
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


def _migrate(engine: Any) -> None:
    with engine.begin() as connection:
        _upgrade(connection)


def _upgrade(connection: Connection) -> None:
    config = Config()
    config.set_main_option("script_location", str(_MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")
