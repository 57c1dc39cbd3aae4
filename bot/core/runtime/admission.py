"""How many requests compute at once in the bot's process, and stepping aside while a request
waits for work done elsewhere.

The core answers a few requests at a time (see :meth:`bot.core.service.Core.handle`): their work
holds the interpreter, so more at once would not finish sooner. A request that waits for the
engine's worker process (the bot's turn, a hint; up to seconds at world class) computes
nothing here meanwhile, so it gives its place to another request and queues for it again
when the answer is back. Whether the current task holds a place is a context variable, so
work outside any request (the clock, analyses) never gives away a place it does not hold.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from contextvars import ContextVar

_holding: ContextVar[bool] = ContextVar("holding_an_admission", default=False)


class Admission:
    def __init__(self, places: int) -> None:
        self._places = asyncio.Semaphore(places)

    @asynccontextmanager
    async def place(self) -> AsyncIterator[None]:
        """Hold one place while the block computes."""
        async with self._places:
            token = _holding.set(True)
            try:
                yield
            finally:
                _holding.reset(token)

    @asynccontextmanager
    async def aside(self) -> AsyncIterator[None]:
        """Give the place away while the block waits for another process."""
        if not _holding.get():
            yield
            return
        self._places.release()
        try:
            yield
        finally:
            await self._places.acquire()
