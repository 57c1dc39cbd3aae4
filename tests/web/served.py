"""The bot's web server on 127.0.0.1 with a match just started in a group chat (Anna vs Bob,
1 point, the tests' fixed dice)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.core.model import ChatRef
from bot.core.service import Core
from bot.web.server import WebServer
from storage import Database
from tests.bot.scripted import PLATFORM, Room
from tests.seeds import fixed_seeds


@asynccontextmanager
async def serving(url: str) -> AsyncIterator[tuple[Room, WebServer]]:
    """The server on the migrated database at ``url``."""
    database = Database(url)
    core = Core(database, server_seeds=fixed_seeds(), web_base_url="http://127.0.0.1")
    server = WebServer(core, "127.0.0.1", 0)
    await server.start()
    room = Room(core, ChatRef(PLATFORM, "group-1"))
    await room.command("anna", "/challenge @bob 1")
    await room.press("bob", "Accept")
    try:
        yield room, server
    finally:
        await server.stop()
        await database.close()
