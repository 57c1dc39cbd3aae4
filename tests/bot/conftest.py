"""Fixtures of the command-layer tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.core.computer.computer import Computer
from bot.core.model import ChatRef
from bot.core.service import Core
from storage import Database
from tests.bot.scripted import PLATFORM, Room
from tests.seeds import fixed_seeds


@pytest.fixture
async def room(migrated_url: str) -> AsyncIterator[Room]:
    """A group chat with a bot that draws no pictures, on a fresh database."""
    database = Database(migrated_url)
    core = Core(database, render_images=False, server_seeds=fixed_seeds())
    yield Room(core, ChatRef(PLATFORM, "group-1"))
    await database.close()


@pytest.fixture
async def bot_room(migrated_url: str) -> AsyncIterator[Room]:
    """A group chat with a bot that plays (its engine in threads) and draws no pictures."""
    database = Database(migrated_url)
    computer = Computer(processes=False)
    core = Core(database, render_images=False, server_seeds=fixed_seeds(), computer=computer)
    yield Room(core, ChatRef(PLATFORM, "group-1"))
    computer.close()
    await database.close()


@pytest.fixture
async def other_process(room: Room, migrated_url: str) -> AsyncIterator[Room]:
    """``room``'s chat served by another process: a bot of its own (its own locks, its own
    connections) on the same database."""
    database = Database(migrated_url)
    core = Core(database, render_images=False, server_seeds=fixed_seeds())
    yield Room(core, room.chat, prefix="o")
    await database.close()
