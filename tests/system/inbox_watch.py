"""Knowing when the bot has handled an update: the webhook marks it handled in the inbox
(``inbox_updates.handled_at``) once its answer is posted, whichever process handled it.

One poller asks the database for all updates being waited for at once, a few times a second,
instead of every waiting player polling on their own.
"""

from __future__ import annotations

import asyncio
import contextlib
from datetime import UTC, datetime
from typing import Any

import psycopg
from sqlalchemy.engine import make_url

POLL_S = 0.02
_HANDLED = (
    "SELECT update_id, handled_at FROM inbox_updates "
    "WHERE platform = 'telegram' AND handled_at IS NOT NULL AND update_id = ANY(%s)"
)


def libpq_url(url: str) -> str:
    """A SQLAlchemy URL (any driver spelling) as libpq reads it, options and all."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class HandledWatch:
    """Futures that resolve when an update is marked handled, to the time it was."""

    def __init__(self, url: str) -> None:
        self.url = libpq_url(url)
        self.handled: dict[int, datetime] = {}
        self._waiting: dict[int, asyncio.Future[datetime]] = {}
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> HandledWatch:
        connection = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        self._task = asyncio.create_task(self._poll(connection))
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def wait(self, update_id: int, timeout: float) -> datetime:
        """Until ``update_id`` is handled; when it was."""
        if update_id in self.handled:
            return self.handled[update_id]
        loop = asyncio.get_running_loop()
        future = self._waiting.setdefault(update_id, loop.create_future())
        try:
            return await asyncio.wait_for(asyncio.shield(future), timeout)
        except TimeoutError:
            raise AssertionError(f"update {update_id} not handled within {timeout} s") from None

    async def _poll(self, connection: psycopg.AsyncConnection[Any]) -> None:
        async with connection:
            while True:
                if self._waiting:
                    found = await connection.execute(_HANDLED, [list(self._waiting)])
                    rows = await found.fetchall()
                    for update_id, naive in rows:  # stored as naive UTC
                        handled_at = naive.replace(tzinfo=UTC)
                        self.handled[update_id] = handled_at
                        future = self._waiting.pop(update_id)
                        if not future.done():
                            future.set_result(handled_at)
                await asyncio.sleep(POLL_S)
