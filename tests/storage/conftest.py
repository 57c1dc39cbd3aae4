"""A fresh, migrated SQLite database per test, with a chat and two players."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.storage.players import Table, open_table


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'gammonbot.db'}"


@pytest.fixture
async def table(database_url: str) -> AsyncIterator[Table]:
    opened = await open_table(database_url)
    yield opened
    await opened.database.close()
