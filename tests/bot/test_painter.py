"""Board pictures in a drawing process: same bytes as drawn here, and a crash loses nothing."""

from __future__ import annotations

import multiprocessing
import os
from functools import partial

from bot.core.painter import Painter
from rendering import BoardView, render_board

VIEW = BoardView.from_ids("4HPwATDgc/ABMA", "cAkAAAAAAAAA")


def die_in_a_worker() -> bytes:
    """Kills the process it runs in, unless that is the test process itself."""
    if multiprocessing.parent_process() is not None:
        os._exit(3)
    return b"drawn on the thread"


async def test_a_drawing_process_paints_what_the_thread_paints() -> None:
    in_process, on_thread = Painter(processes=1), Painter(processes=0)
    try:
        drawing = partial(render_board, VIEW, perspective=1, names=["Ann", "Bob"])
        from_process = await in_process.paint(drawing)
        assert from_process.startswith(b"\x89PNG")
        assert from_process == await on_thread.paint(drawing)
    finally:
        in_process.close()
        on_thread.close()


async def test_a_crashed_drawing_process_is_replaced() -> None:
    painter = Painter(processes=1)
    try:
        assert await painter.paint(die_in_a_worker) == b"drawn on the thread"
        # The next picture gets a fresh process.
        again = await painter.paint(partial(render_board, VIEW))
        assert again.startswith(b"\x89PNG")
    finally:
        painter.close()
