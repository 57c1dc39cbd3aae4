"""Whether the database can be used: reachable, and its schema at the newest migration. For
``gammonbot health`` (a service's health check) and ``gammonbot db upgrade``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import make_url

from storage.database import Database, alembic_config, check_database, using_database
from storage.direct import DirectConnection
from storage.errors import DatabaseUnavailableError


@dataclass(frozen=True)
class SchemaState:
    """The revision the database's schema is at (None: no schema yet), and the newest."""

    revision: str | None
    newest: str

    @property
    def current(self) -> bool:
        return self.revision == self.newest


def newest_revision() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    if head is None:
        raise RuntimeError("no migrations found")
    return head


def _revision(transaction: DirectConnection) -> str | None:
    return MigrationContext.configure(transaction.sqlalchemy).get_current_revision()


async def _revision_of(database: Database) -> str | None:
    return await database.engine.write(_revision)


async def schema_state(url: str) -> SchemaState:
    """Read which migration the database at ``url`` is at, changing nothing (a SQLite file
    that does not exist is not created). Raises :class:`DatabaseUnavailableError` with a
    one-line reason when the database cannot be reached."""
    parsed = make_url(url)
    file = parsed.database if parsed.get_backend_name() == "sqlite" else None
    if file not in (None, "", ":memory:") and not Path(str(file)).exists():
        raise DatabaseUnavailableError(f"no database file at {file}")
    revision = await using_database(url, _revision_of)
    return SchemaState(revision, newest_revision())


async def upgrade(url: str) -> SchemaState:
    """Bring the schema at ``url`` to the newest migration (nothing to do when it is there),
    and say where it stands."""
    await check_database(url)
    return await schema_state(url)
