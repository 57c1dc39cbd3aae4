"""Fixtures of the command-layer tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.model import ChatRef
from bot.core.service import Core
from storage import Database
from tests.bot.scripted import PLATFORM, Room


@pytest.fixture
async def room(tmp_path: Path) -> AsyncIterator[Room]:
    """A group chat with a bot that draws no pictures, on a fresh SQLite file."""
    database = Database(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    await database.migrate()
    yield Room(Core(database, render_images=False), ChatRef(PLATFORM, "group-1"))
    await database.close()
