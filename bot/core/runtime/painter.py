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

Each kind of drawing has a pool of worker processes (:mod:`bot.core.runtime.worker_pool`, the
engine's workers are pools of the same kind), fed and read by the event loop itself, through a
pipe of its own: no helper threads of the bot's process stand between a finished picture and
the next drawing.

A drawing process must not outlive the bot: when the bot is killed (SIGKILL, the OOM killer) it
cannot stop its workers, and a worker left waiting for boards holds about 50 MB and keeps
multiprocessing's resource tracker alive too (it ends once no process holds its pipe). So every
worker watches its parent and exits when the parent is gone.
"""

from __future__ import annotations

import asyncio
import os
import weakref
from collections.abc import Callable
from functools import partial
from typing import Any

from bot.core.runtime.worker_pool import WorkerDiedError, WorkerPool
from bot.core.runtime.worker_process import PARENT_CHECK_SECONDS, watch_parent
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

Drawing = Callable[[], bytes]

AHEAD = 3
"""Drawings sent to a boards' process before their pictures are back: one drawn, the others
waiting in the pipe, so the process does not wait for the event loop between two drawings."""
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


def _warm_up() -> None:
    """Load fonts and sprites, and choose the default theme's palettes for boards and for
    backgammon's animations (about 0.1 s each), in a drawing process before its first real
    board."""
    from gammon import Position, Variant
    from rendering import BoardView, render_board
    from rendering.replay import ANIMATION_WIDTH, animation_palette

    render_board(BoardView.from_ids("4HPwATDgc/ABMA", "cAkAAAAAAAAA"))
    nardy = Position.start(Variant.LONG_NARDY)
    render_board(BoardView.from_ids(nardy.id(), variant=Variant.LONG_NARDY))
    animation_palette("classic", ANIMATION_WIDTH, Variant.BACKGAMMON)


def default_processes() -> int:
    """Board-drawing processes for this machine: one per spare core (at most two), none on a
    single core. (The long drawings' process comes on top.)"""
    return max(0, min(2, (os.cpu_count() or 1) - 1))


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
        self._boards = WorkerPool(
            self.processes,
            niceness=BOARD_NICENESS,
            ahead=AHEAD,
            on_start=_warm_up,
            on_idle=self._lend_board_process,
            name="drawing",
        )
        # One at a time: a long drawing still waiting may go to an idle boards' process.
        self._long = WorkerPool(1, niceness=LONG_NICENESS, on_start=_warm_up, name="drawing")
        self._aside: weakref.WeakSet[asyncio.Future[Any]] = weakref.WeakSet()
        self._thread = WorkerPool(1, processes=False, name="render")

    def is_long(self, drawing: Drawing) -> bool:
        """Whether ``drawing`` is one of the long drawings."""
        return isinstance(drawing, partial) and drawing.func in self.long_drawings

    async def start(self) -> None:
        """Start the drawing processes now (about half a second each), not with the first
        board: the boards' and the long drawings'."""
        if self.processes:
            await asyncio.gather(self._boards.start(), self._long.start())

    async def paint(self, drawing: Drawing, *, aside: bool = False) -> bytes:
        """The picture ``drawing`` draws. ``aside``: drawn like a long drawing, at the lowest
        priority, for someone who is not in a chat (a web page's picture): the chats' boards
        never wait behind it, however many pictures a stranger asks the web pages for."""
        if not self.processes:
            return await self._thread.submit(drawing)
        if aside:
            drawn = self._long.submit(drawing)
            self._aside.add(drawn)  # never lent to the boards' processes
        elif self.is_long(drawing):
            drawn = self._long.submit(drawing)
            self._lend_board_process()
        else:
            drawn = self._boards.submit(drawing)
        try:
            return await drawn
        except WorkerDiedError:
            return await self._thread.submit(drawing)

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
        self._thread.close()


_SHARED: Painter | None = None


def shared_painter() -> Painter:
    """The process-wide painter: its workers are started once, on the first picture."""
    global _SHARED
    if _SHARED is None:
        _SHARED = Painter()
    return _SHARED
