"""The bot's web server on 127.0.0.1 with a match just started in a group chat (Anna vs Bob,
1 point, the tests' fixed dice)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import aiohttp
import sqlalchemy as sa

from bot.core.model import ChatRef
from bot.core.service import Core
from bot.web.server import WebServer
from storage import Database
from storage.schema import matches
from tests.bot.scripted import PLATFORM, Room
from tests.seeds import fixed_seeds


@asynccontextmanager
async def serving(url: str) -> AsyncIterator[tuple[Room, WebServer]]:
    """The server on the migrated database at ``url``."""
    database = Database(url)
    core = Core(database, server_seeds=fixed_seeds(), web_base_url="http://127.0.0.1")
    server = WebServer(core.ports.pages, "127.0.0.1", 0)
    await server.start()
    room = Room(core, ChatRef(PLATFORM, "group-1"))
    await room.command("anna", "/challenge @bob 1")
    await room.press("bob", "Accept")
    try:
        yield room, server
    finally:
        await server.stop()
        await database.close()


@dataclass
class Site:
    room: Room
    server: WebServer
    session: aiohttp.ClientSession

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.bound_port}"

    async def get(self, path: str, **headers: str) -> tuple[int, str, dict[str, str]]:
        async with self.session.get(self.base + path, headers=headers) as response:
            return response.status, await response.text(), dict(response.headers)

    async def slug(self) -> str:
        return (await self.room.stores.matches.match_info(1)).slug

    async def seed(self) -> str:
        """The server seed as stored (read past the repository, which guards it)."""
        engine = self.room.stores.matches.engine
        found = await engine.read(sa.select(matches.c.server_seed).where(matches.c.id == 1))
        return str(found.scalar())
