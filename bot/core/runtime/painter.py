"""Board pictures drawn away from the event loop.

Drawing and encoding a board is pure computation. On a thread it competes with the event loop
for the interpreter lock (it stalled the loop badly with many matches at once:
docs/benchmarks.md); in a separate process it runs on another core while the loop goes on.
With a single core there is nothing to gain from a process, so one thread draws instead.

A whole game's animation (a GIF, drawn when a match ends or on ``/replay``) is as much drawing
as all the boards of a game together. Among the boards it held up every board asked for
meanwhile, so long drawings (:data:`LONG_DRAWINGS`) have a process of their own, started at a
lower priority (:data:`LONG_NICENESS`): it uses what the event loop and the boards leave of the
cores, and no board waits behind an animation.

Each drawing process is fed and read by the event loop itself, through a pipe of its own
(:mod:`bot.core.runtime.drawing_process`): no helper threads of the bot's process stand between a
finished picture and the next drawing.

A drawing process must not outlive the bot: when the bot is killed (SIGKILL, the OOM killer) it
cannot stop its workers, and a worker left waiting for boards holds about 50 MB and keeps
multiprocessing's resource tracker alive too (it ends once no process holds its pipe). So every
worker watches its parent and exits when the parent is gone.
"""

from __future__ import annotations

import asyncio
import logging
import os
import weakref
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial

from bot.core.runtime.drawing_process import (
    AHEAD,
    PARENT_CHECK_SECONDS,
    Drawing,
    DrawingProcess,
    DrawingProcessDiedError,
    pickled,
    watch_parent,
)
from rendering.replay import render_game_animation, render_replay_animation

__all__ = [
    "BOARD_NICENESS",
    "LONG_DRAWINGS",
    "LONG_NICENESS",
    "PARENT_CHECK_SECONDS",
    "Drawing",
    "Painter",
    "default_processes",
    "shared_painter",
    "watch_parent",
]

logger = logging.getLogger(__name__)

LONG_DRAWINGS: frozenset[Callable[..., bytes]] = frozenset(
    {render_replay_animation, render_game_animation}
)
"""Functions whose drawings (``functools.partial`` of them) take long: a whole game."""
BOARD_NICENESS = 5
"""How much lower the boards' processes run (``os.nice``): the event loop and the database
thread, which need a core for a moment now and then, get it at once instead of taking turns
with a drawing (more requests a second than at 0, with 200 matches at once:
docs/benchmarks.md)."""
LONG_NICENESS = 19
"""How much lower the long drawings' process runs: the lowest priority there is. On a core a
board's process wants too it gets a twentieth of it (the kernel weighs nice 19 at 15 against
335 for nice 5), yet it is rarely held up for long: the event loop leaves about half of its
core free, and the kernel moves the animation there. At 10 it took a fourth of the boards'
core while the event loop's core sat partly idle, and at 19 the bot answered more requests a
second with as many animations drawn (docs/benchmarks.md, the closed loop)."""


def _nothing() -> bytes:
    """A first drawing for a new drawing process: it answers once it has warmed up."""
    return b""


def default_processes() -> int:
    """Board-drawing processes for this machine: one per spare core (at most two), none on a
    single core. (The long drawings' process comes on top.)"""
    return max(0, min(2, (os.cpu_count() or 1) - 1))


class _Lane:
    """Drawing processes for one kind of drawing, started when first needed (and again when
    one dies). Drawings wait here until a process has room: ``ahead`` drawings sent to it
    and not answered yet. When its processes have nothing left to draw, ``on_idle`` is
    called (it may hand the lane a drawing of another kind, :meth:`take`)."""

    def __init__(
        self, processes: int, niceness: int, ahead: int, on_idle: Callable[[], None] | None = None
    ) -> None:
        self.processes = processes
        self.niceness = niceness
        self.ahead = ahead
        self._on_idle = on_idle
        self._workers: list[DrawingProcess] = []
        self._queue: deque[tuple[bytes, asyncio.Future[bytes]]] = deque()  # pickled drawings

    def paint(self, drawing: Drawing) -> asyncio.Future[bytes]:
        """The picture ``drawing`` draws, once a process of this lane has drawn it."""
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self.take(pickled(drawing), future)
        return future

    def take(self, request: bytes, future: asyncio.Future[bytes]) -> None:
        """Draw a pickled drawing; ``future`` gets its picture or its error."""
        self._queue.append((request, future))
        self._hand_out()

    def give_up_one(
        self, lendable: Callable[[asyncio.Future[bytes]], bool] = lambda _future: True
    ) -> tuple[bytes, asyncio.Future[bytes]] | None:
        """The first drawing still waiting here (not sent to a process) whose future
        ``lendable`` allows, taken out; None if none."""
        for waiting in list(self._queue):
            future = waiting[1]
            if future.done():  # its caller stopped waiting
                self._queue.remove(waiting)
            elif lendable(future):
                self._queue.remove(waiting)
                return waiting
        return None

    @property
    def idle(self) -> bool:
        """Nothing waiting, nothing being drawn."""
        return not self._queue and all(worker.in_flight == 0 for worker in self._workers)

    def start(self) -> list[asyncio.Future[bytes]]:
        """Start every process; each future is done once its process has warmed up."""
        self._staffed()
        return [worker.send(pickled(_nothing)) for worker in self._workers]

    def _staffed(self) -> list[DrawingProcess]:
        self._workers = [worker for worker in self._workers if worker.alive]
        while len(self._workers) < self.processes:
            self._workers.append(DrawingProcess(self.niceness, self._answered))
        return self._workers

    def _answered(self, _worker: DrawingProcess) -> None:
        if self._queue:
            self._hand_out()
        if self._on_idle is not None and self.idle:
            self._on_idle()

    def _hand_out(self) -> None:
        """Send waiting drawings to the least busy processes that have room."""
        while self._queue:
            request, future = self._queue[0]
            if future.done():  # its caller stopped waiting
                self._queue.popleft()
                continue
            worker = min(self._staffed(), key=lambda each: each.in_flight)
            if worker.in_flight >= self.ahead:
                return
            self._queue.popleft()
            worker.send(request, future)

    def close(self) -> None:
        for _request, future in self._queue:
            if not future.done() and not future.get_loop().is_closed():
                future.cancel()
        self._queue.clear()
        for worker in self._workers:
            worker.close()
        self._workers = []


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
        self._boards = _Lane(self.processes, BOARD_NICENESS, AHEAD, self._lend_board_process)
        # One at a time: a long drawing still waiting may go to an idle boards' process.
        self._long = _Lane(1, LONG_NICENESS, 1)
        self._aside: weakref.WeakSet[asyncio.Future[bytes]] = weakref.WeakSet()
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
            await asyncio.gather(*self._boards.start(), *self._long.start())

    async def paint(self, drawing: Drawing, *, aside: bool = False) -> bytes:
        """The picture ``drawing`` draws. ``aside``: drawn like a long drawing, at the lowest
        priority, for someone who is not in a chat (a web page's picture): the chats' boards
        never wait behind it, however many pictures a stranger asks the web pages for."""
        loop = asyncio.get_running_loop()
        if not self.processes:
            return await loop.run_in_executor(self._thread_pool(), drawing)
        if aside:
            drawn = self._long.paint(drawing)
            self._aside.add(drawn)  # never lent to the boards' processes
        elif self.is_long(drawing):
            drawn = self._long.paint(drawing)
            self._lend_board_process()
        else:
            drawn = self._boards.paint(drawing)
        try:
            return await drawn
        except DrawingProcessDiedError:
            return await loop.run_in_executor(self._thread_pool(), drawing)

    def _lend_board_process(self) -> None:
        """A long drawing waiting behind another goes to the boards' processes if they have
        nothing to draw: when many games end at once, their animations are drawn two at a
        time instead of one after another while a core waits. A board asked for meanwhile
        waits for that drawing (it would otherwise have had the process to itself)."""
        if not self._boards.idle:
            return
        waiting = self._long.give_up_one(lambda future: future not in self._aside)
        if waiting is not None:
            self._boards.take(*waiting)

    def close(self) -> None:
        """Stop the drawing processes once they have drawn what they were sent, and wait for
        them; a killed bot's drawing processes stop by themselves (see :func:`watch_parent`)."""
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
