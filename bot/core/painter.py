"""Board pictures drawn away from the event loop.

Drawing and encoding a board takes about 10 ms of pure computation. On a thread it competes
with the event loop for the interpreter lock (measured: loop stalls of 45-190 ms with many
matches at once); in a separate process it runs on another core while the loop goes on. With a
single core there is nothing to gain from a process, so one thread draws instead.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

logger = logging.getLogger(__name__)

Drawing = Callable[[], bytes]


def _warm_up() -> None:
    """Load fonts and sprites in the drawing process before the first real board."""
    from rendering import BoardView, render_board

    render_board(BoardView.from_ids("4HPwATDgc/ABMA", "cAkAAAAAAAAA"))


def _nothing() -> None:
    """A first task for a new drawing process: its initializer does the work."""


def default_processes() -> int:
    """Drawing processes for this machine: one per spare core, none on a single core."""
    return max(0, min(2, (os.cpu_count() or 1) - 1))


class Painter:
    """Runs drawings (picklable callables returning PNG bytes) in worker processes, or on
    one thread when ``processes`` is 0. A crashed worker is replaced; its board is drawn again
    on the thread, so no picture is lost."""

    def __init__(self, processes: int | None = None) -> None:
        self.processes = default_processes() if processes is None else processes
        self._pool: ProcessPoolExecutor | None = None
        self._thread: ThreadPoolExecutor | None = None

    def _process_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.processes,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_warm_up,
            )
        return self._pool

    def _thread_pool(self) -> ThreadPoolExecutor:
        if self._thread is None:
            self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="render")
        return self._thread

    async def start(self) -> None:
        """Start the drawing processes now (about half a second), not with the first board."""
        if self.processes:
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(self._process_pool(), _nothing)

    async def paint(self, drawing: Drawing) -> bytes:
        loop = asyncio.get_running_loop()
        executor: Executor = self._process_pool() if self.processes else self._thread_pool()
        try:
            return await loop.run_in_executor(executor, drawing)
        except BrokenProcessPool:
            logger.exception("a drawing process died; starting a new one")
            self._pool = None
            return await loop.run_in_executor(self._thread_pool(), drawing)

    def close(self) -> None:
        """Stop the workers (they also stop when the process exits)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
        if self._thread is not None:
            self._thread.shutdown(wait=True)
            self._thread = None


_SHARED: Painter | None = None


def shared_painter() -> Painter:
    """The process-wide painter: its workers are started once, on the first picture."""
    global _SHARED
    if _SHARED is None:
        _SHARED = Painter()
    return _SHARED
