"""Everything a run with real processes needs, set up and torn down together: the schema
migrated once, the fake Bot API on 127.0.0.1, the bot processes, the webhook calls, the watch
on the inbox and the players. Used by ``tests/system`` and ``benchmarks/scale.py``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from storage import Database
from storage.health import upgrade
from tests.fakes.telegram_bot_api import FakeBotServer
from tests.system.cluster import SECRET, Cluster
from tests.system.inbox_watch import HandledWatch
from tests.system.players import IN_FLIGHT, Driver
from tests.system.telegram import LeanBotApi, Webhooks

POLL_S = 0.05
API_BACKLOG = 1024  # connections the fake Bot API lets wait (socketserver's default is 5)


class BusyFakeBotServer(FakeBotServer):
    """The fake Bot API for several busy processes: socketserver listens with a backlog of 5,
    and connections past it are dropped and retried by the client's TCP a second or more
    later, which would be measured as the bot's slowness."""

    def __init__(self, api: LeanBotApi) -> None:
        super().__init__(api)
        self.server.socket.listen(API_BACKLOG)  # Linux takes a new backlog on a second call


@dataclass
class Rig:
    api: LeanBotApi
    cluster: Cluster
    webhooks: Webhooks
    watch: HandledWatch
    driver: Driver

    async def restart(self, number: int) -> None:
        """Start process ``number`` again (on its port, unless someone took it meanwhile)."""
        await self.cluster.start(number)
        self.webhooks.hooks = self.cluster.hooks


@asynccontextmanager
async def rig(
    database_url: str,
    size: int,
    workdir: Path,
    settings: Mapping[str, str] | None = None,
    in_flight: int = IN_FLIGHT,
) -> AsyncIterator[Rig]:
    """``size`` processes on ``database_url`` (migrated here first, so that they do not all
    migrate at once), ready to play, at most ``in_flight`` updates being handled at once;
    every process killed at the end, whatever happened."""
    await upgrade(database_url)
    api = LeanBotApi()
    database = Database(database_url)
    with BusyFakeBotServer(api) as server:
        cluster = Cluster(database_url, server.base_url, size, workdir, settings)
        webhooks = Webhooks(cluster.hooks, SECRET)
        try:
            await cluster.start_all()
            async with HandledWatch(database_url) as watch:
                yield Rig(
                    api, cluster, webhooks, watch, Driver(api, webhooks, watch, database, in_flight)
                )
        finally:
            cluster.close()
            await webhooks.close()
            await database.close()


async def until(check: Callable[[], bool], timeout: float, what: str) -> None:
    """Poll ``check`` until it holds; AssertionError naming ``what`` after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s: {what}")
        await asyncio.sleep(POLL_S)
