"""Board pictures drawn away from the event loop.

Drawing and encoding a board takes about 10 ms of pure computation. On a thread it competes
with the event loop for the interpreter lock (measured: loop stalls of 45-190 ms with many
matches at once); in a separate process it runs on another core while the loop goes on. With a
single core there is nothing to gain from a process, so one thread draws instead.

A drawing process must not outlive the bot: when the bot is killed (SIGKILL, the OOM killer) it
cannot stop its workers, and a worker left waiting for boards holds about 50 MB and keeps
multiprocessing's resource tracker alive too (it ends once no process holds its pipe). So every
worker watches its parent and exits when the parent is gone.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

logger = logging.getLogger(__name__)

Drawing = Callable[[], bytes]

PARENT_CHECK_SECONDS = 0.5


def _start_worker(parent: int) -> None:
    """Initializer of a drawing process: first tie its life to the bot's, then warm up.

    Ctrl-C reaches every process of the terminal's group: the bot stops its workers itself
    (:meth:`Painter.close`), so a worker ignores SIGINT instead of dying with a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    watch_parent(parent)
    _warm_up()


def watch_parent(parent: int, every: float = PARENT_CHECK_SECONDS) -> None:
    """Exit this process soon after ``parent`` (its parent's pid) has died.

    A daemon thread compares ``os.getppid()`` with ``parent`` every ``every`` seconds: a dead
    parent's children are handed to another process (init or a subreaper), so the pid changes,
    also when the parent died before this thread started. Not prctl's PR_SET_PDEATHSIG: that
    fires when the parent *thread* that started the worker ends, and the pool may start
    workers from its manager thread. ``os._exit`` because there is nobody left to clean up for.
    """
    threading.Thread(
        target=_exit_when_orphaned, args=(parent, every), name="parent-watch", daemon=True
    ).start()


def _exit_when_orphaned(parent: int, every: float) -> None:
    while os.getppid() == parent:
        time.sleep(every)
    os._exit(0)


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
                initializer=_start_worker,
                initargs=(os.getpid(),),
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
        """Stop the workers and wait for them; a killed bot's workers stop by themselves (see
        :func:`watch_parent`)."""
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
