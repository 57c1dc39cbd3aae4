"""Open board pages kept up to date: every change of a watched match reaches them within a
second, whichever process made it.

One :class:`LiveBoards` per process holds the open pages' streams by match. It asks the
database for the versions of the watched matches in one statement every ``every`` seconds
(only while a page is open), and at once when this process changed a watched match (every
append this process commits tells it, :meth:`BoardPageReads.on_change`: a page's action, a
typed move, the bot's turn, the clock; a page's action so before the chat gets its board), so
the opponent's page shows it without waiting for the next round. For each match whose version
moved it reads the match once (all of them at once), builds the state once and hands the same
encoded event to every stream of that match. A stream keeps only the newest event it has not
sent yet: a page that reads slowly skips states, never falls behind.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from typing import NamedTuple

from bot.core.info.board_reads import BoardPageReads

logger = logging.getLogger(__name__)

EVERY = 0.5  # seconds between two looks at the watched matches' versions
MOST_STREAMS = 1 << 20  # open streams at most: the server sets half its connections
MOST_PER_MATCH = 64  # open streams of one match at most (two players and their audience)


class Event(NamedTuple):
    """One encoded state for the streams, and whether it is the match's last."""

    data: bytes
    final: bool


class Stream:
    """One open page's queue: the newest event not sent yet."""

    __slots__ = ("_ready", "_waiting", "closed")

    def __init__(self) -> None:
        self._waiting: Event | None = None
        self._ready = asyncio.Event()
        self.closed = False

    def close(self) -> None:
        """The server stops: the page's answer ends (its script connects again)."""
        self.closed = True
        self._ready.set()

    def offer(self, event: Event) -> None:
        self._waiting = event
        self._ready.set()

    async def next(self, timeout: float) -> Event | None:
        """The next event, or None after ``timeout`` seconds without one."""
        with suppress(TimeoutError):
            await asyncio.wait_for(self._ready.wait(), timeout)
        self._ready.clear()
        event, self._waiting = self._waiting, None
        return event


def encode(state: dict[str, object]) -> bytes:
    """A state as one Server-Sent Event (JSON has no raw line breaks: one data line)."""
    data = json.dumps(state, ensure_ascii=False, separators=(",", ":"))
    return b"event: state\ndata: " + data.encode("utf-8") + b"\n\n"


class LiveBoards:
    """The open pages of this process, by match (see the module's docstring)."""

    def __init__(
        self, reads: BoardPageReads, every: float = EVERY, most: int = MOST_STREAMS
    ) -> None:
        self._reads = reads
        reads.on_change(self._written_here)
        self._every = every
        self.most = most  # open streams at most (the server lowers it below its connections)
        self._streams: dict[int, set[Stream]] = {}
        self._versions: dict[int, int] = {}
        self._look = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    @property
    def open_pages(self) -> int:
        return sum(len(streams) for streams in self._streams.values())

    def room_for(self, number: int) -> bool:
        """Whether one more page may open a stream of match ``number``: at most
        :attr:`most` in all and :data:`MOST_PER_MATCH` per match, so that pages left open
        (or opened on purpose) never take the connections the other pages need."""
        return self.open_pages < self.most and len(self._streams.get(number, ())) < MOST_PER_MATCH

    @asynccontextmanager
    async def watching(self, number: int, version: int) -> AsyncIterator[Stream]:
        """A stream of ``number``'s changes after ``version`` while the caller holds it."""
        stream = Stream()
        self._streams.setdefault(number, set()).add(stream)
        known = self._versions.get(number)
        if known is None or known < version:
            self._versions[number] = version
        elif known > version:  # the others have seen newer states than this page: look again
            self._versions[number] = version
            self._look.set()
        self._start()
        try:
            yield stream
        finally:
            streams = self._streams.get(number)
            if streams is not None:
                streams.discard(stream)
                if not streams:
                    del self._streams[number]
                    self._versions.pop(number, None)

    def _written_here(self, number: int) -> None:
        """This process wrote a change of a match: look at once if a page watches it."""
        if number in self._streams:
            self._look.set()

    def _start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._keep_looking())

    async def stop(self) -> None:
        """End every open stream and stop looking."""
        for streams in self._streams.values():
            for stream in streams:
                stream.close()
        if self._task is not None:
            self._task.cancel()
            with suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _keep_looking(self) -> None:
        while self._streams:
            with suppress(TimeoutError):
                await asyncio.wait_for(self._look.wait(), self._every)
            self._look.clear()
            try:
                await self.look()
            except Exception:
                logger.exception("looking at the open boards' matches failed")

    async def look(self) -> None:
        """Send every watched match that moved on its new state."""
        if not self._streams:
            return
        versions = await self._reads.versions(tuple(self._streams))
        moved = [
            number
            for number, version in versions.items()
            if self._versions.get(number, -1) < version and number in self._streams
        ]
        states = await asyncio.gather(*(self._reads.state_now(number) for number in moved))
        for number, state in zip(moved, states, strict=True):
            version = int(state["version"])
            if self._versions.get(number, -1) >= version or number not in self._streams:
                continue
            self._versions[number] = version
            event = Event(encode(state), bool(state["finished"]))
            for stream in tuple(self._streams[number]):
                stream.offer(event)
