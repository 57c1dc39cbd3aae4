"""One lock per match, so that the requests for one match take turns in this process (other
processes are held off by the version check of every write)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field


@dataclass
class _Held:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0  # requests holding or waiting for the lock


class MatchLocks:
    """One lock per match, kept only while a request holds or waits for it.

    A lock kept for every match ever touched would grow with every match played. The count
    of holders and waiters keeps the lock while anyone still needs it: a waiter and a request
    arriving after the holder left share one lock, so they still exclude each other."""

    def __init__(self) -> None:
        self._held: dict[int, _Held] = {}

    def __len__(self) -> int:
        return len(self._held)

    @asynccontextmanager
    async def hold(self, match_id: int) -> AsyncIterator[None]:
        """Hold the match's lock for the body (waiting for the request that has it)."""
        held = self._held.get(match_id)
        if held is None:
            held = self._held[match_id] = _Held()
        held.users += 1
        try:
            async with held.lock:
                yield
        finally:  # also when cancelled while waiting
            held.users -= 1
            if not held.users:
                del self._held[match_id]
