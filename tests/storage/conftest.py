"""Every storage test that touches a database runs on SQLite and on PostgreSQL (the
``database_url`` and ``migrated_url`` fixtures of tests/databases.py); two Database objects on
one database, or a chat and two players where a test asks for the ``table``."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from storage import Database
from tests.storage.players import Table, open_table


@pytest.fixture
async def databases(migrated_url: str) -> AsyncIterator[tuple[Database, Database]]:
    """Two Database objects on one database, each with its own connections: two processes."""
    first, second = Database(migrated_url), Database(migrated_url)
    yield first, second
    await first.close()
    await second.close()


@pytest.fixture
async def table(migrated_url: str) -> AsyncIterator[Table]:
    opened = await open_table(migrated_url, migrate=False)
    yield opened
    await opened.database.close()
