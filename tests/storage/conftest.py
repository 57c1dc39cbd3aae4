"""Every storage test that touches a database runs on SQLite and on PostgreSQL (the
``database_url`` fixture of tests/databases.py); two Database objects on one database, or a
chat and two players where a test asks for the ``table``."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from storage import Database
from tests.storage.players import Table, open_table


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
