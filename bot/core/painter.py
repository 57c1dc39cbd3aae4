"""Board pictures drawn away from the event loop.

Drawing and encoding a board takes about 10 ms of pure computation. On a thread it competes
with the event loop for the interpreter lock (measured: loop stalls of 45-190 ms with many
matches at once); in a separate process it runs on another core while the loop goes on. With a
single core there is nothing to gain from a process, so one thread draws instead.

A whole game's animation (a GIF, drawn when a match ends or on ``/replay``) is half a second
to a second of drawing, as much as all the boards of a game together. Among the boards it held
up every board asked for meanwhile, so long drawings (:data:`LONG_DRAWINGS`) have a process of
their own, started at a lower priority (:data:`LONG_NICENESS`): it uses what the event loop and
the boards leave of the cores, and no board waits behind an animation.

(A hand-written pipe per process, read by the event loop itself, was measured against
``ProcessPoolExecutor``: 0.11-0.16 ms of the bot's process per board instead of 0.35-0.45 ms,
about 1 % of a core at 40 boards a second. Too little to keep a protocol of our own for.)

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
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial

from rendering.replay import render_game_animation, render_replay_animation

logger = logging.getLogger(__name__)

Drawing = Callable[[], bytes]

PARENT_CHECK_SECONDS = 0.5
LONG_DRAWINGS: frozenset[Callable[..., bytes]] = frozenset(
    {render_replay_animation, render_game_animation}
)
"""Functions whose drawings (``functools.partial`` of them) take long: a whole game."""
LONG_NICENESS = 10
"""How much lower the long drawings' process runs (``os.nice``): at niceness 10 it gets about
a tenth of a core that the event loop or a board's process wants too."""


def _start_worker(parent: int, niceness: int = 0) -> None:
    """Initializer of a drawing process: first tie its life to the bot's, then warm up.

    Ctrl-C reaches every process of the terminal's group: the bot stops its workers itself
    (:meth:`Painter.close`), so a worker ignores SIGINT instead of dying with a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    watch_parent(parent)
    if niceness:
        os.nice(niceness)
    _warm_up()


def watch_parent(parent: int, every: float = PARENT_CHECK_SECONDS) -> None:
    """Exit this process soon after ``parent`` (its parent's pid) has died.

    A daemon thread compares ``os.getppid()`` with ``parent`` every ``every`` seconds: a dead
    parent's children are handed to another process (init or a subreaper), so the pid changes,
    also when the parent died before this thread started. Not prctl's PR_SET_PDEATHSIG: that
    fires when the parent *thread* that started the worker ends, and a pool may start
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
    """Board-drawing processes for this machine: one per spare core (at most two), none on a
    single core. (The long drawings' process comes on top.)"""
    return max(0, min(2, (os.cpu_count() or 1) - 1))


class _Lane:
    """A pool of drawing processes for one kind of drawing, started when first needed."""

    def __init__(self, processes: int, niceness: int) -> None:
        self.processes = processes
        self.niceness = niceness
        self._pool: ProcessPoolExecutor | None = None

    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.processes,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(os.getpid(), self.niceness),
            )
        return self._pool

    def broken(self) -> None:
        """Its process died: the next drawing starts a new pool."""
        self._pool = None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


class Painter:
    """Runs drawings (picklable callables returning PNG or GIF bytes) in worker processes, or
    on one thread when ``processes`` is 0: boards in ``processes`` processes, long drawings
    (``functools.partial`` of a function in ``long_drawings``) in one process of their own at
    a lower priority. A crashed worker is replaced; its drawing is drawn again on the thread,
    so no picture is lost."""

    def __init__(
        self,
        processes: int | None = None,
        long_drawings: frozenset[Callable[..., bytes]] = LONG_DRAWINGS,
    ) -> None:
        self.processes = default_processes() if processes is None else processes
        self.long_drawings = long_drawings
        self._boards = _Lane(self.processes, 0)
        self._long = _Lane(1, LONG_NICENESS)
        self._thread: ThreadPoolExecutor | None = None

    def is_long(self, drawing: Drawing) -> bool:
        """Whether ``drawing`` is one of the long drawings."""
        return isinstance(drawing, partial) and drawing.func in self.long_drawings

    def _thread_pool(self) -> ThreadPoolExecutor:
        if self._thread is None:
            self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="render")
        return self._thread

    async def start(self) -> None:
        """Start the drawing processes now (about half a second each), not with the first
        board: the boards' and the long drawings'."""
        if self.processes:
            loop = asyncio.get_running_loop()
            await asyncio.gather(
                *(
                    loop.run_in_executor(lane.pool(), _nothing)
                    for lane in (self._boards, self._long)
                )
            )

    async def paint(self, drawing: Drawing) -> bytes:
        loop = asyncio.get_running_loop()
        if not self.processes:
            return await loop.run_in_executor(self._thread_pool(), drawing)
        lane = self._long if self.is_long(drawing) else self._boards
        try:
            return await loop.run_in_executor(lane.pool(), drawing)
        except BrokenProcessPool:
            logger.exception("a drawing process died; starting a new one")
            lane.broken()
            return await loop.run_in_executor(self._thread_pool(), drawing)

    def close(self) -> None:
        """Stop the workers and wait for them; a killed bot's workers stop by themselves (see
        :func:`watch_parent`)."""
        self._boards.close()
        self._long.close()
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
