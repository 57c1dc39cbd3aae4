"""The board page's secret, shared by every process of the bot: 32 random bytes, drawn by the
first process that asks and read by the others (the one-row table's primary key settles two
first processes at once: the second one's insert does nothing and it reads the first's)."""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from storage.database import Database
from storage.direct import DirectConnection
from storage.schema import page_secret

SECRET_BYTES = 32
_ROW = 1
_READ = sa.select(page_secret.c.secret).where(page_secret.c.id == _ROW)


class PageSecretRepository:
    def __init__(self, database: Database) -> None:
        self.engine = database.engine
        self._secret: bytes | None = None

    async def secret(self) -> bytes:
        """The secret, created on the first call on a new database; kept once read."""
        if self._secret is None:
            self._secret = await self.engine.write(_created_or_read)
        return self._secret


def _created_or_read(connection: DirectConnection) -> bytes:
    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
    connection.execute(
        dialect.insert(page_secret).on_conflict_do_nothing(),
        {"id": _ROW, "secret": secrets.token_bytes(SECRET_BYTES)},
    )
    found = connection.execute(_READ).scalar()
    if found is None:  # the insert did nothing, so the row is there: never
        raise RuntimeError("the page secret is missing")
    return bytes(found)
