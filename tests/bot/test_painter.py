"""Board pictures in a drawing process: same bytes as drawn here, a crash loses nothing, and
no drawing process outlives the bot (see also test_orphans)."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from functools import partial

from bot.core.runtime.painter import Painter, watch_parent
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


async def test_ctrl_c_leaves_the_drawing_processes_to_the_bot() -> None:
    painter = Painter(processes=1)
    try:
        await painter.start()
        workers = multiprocessing.active_children()
        for worker in workers:
            assert worker.pid is not None
            os.kill(worker.pid, signal.SIGINT)
        again = await painter.paint(partial(render_board, VIEW))
        assert again.startswith(b"\x89PNG")
        assert workers
        assert all(worker.is_alive() for worker in workers)
    finally:
        painter.close()


def watch_and_wait(parent: int) -> None:
    """In a child process: watch ``parent`` closely, then idle as a drawing process does."""
    watch_parent(parent, every=0.01)
    time.sleep(30)


def test_a_drawing_process_exits_once_its_parent_is_gone() -> None:
    spawn = multiprocessing.get_context("spawn")
    orphan = spawn.Process(target=watch_and_wait, args=(-1,))  # -1: never its parent's pid
    child = spawn.Process(target=watch_and_wait, args=(os.getpid(),))
    orphan.start()
    child.start()
    try:
        orphan.join(timeout=20)
        assert orphan.exitcode == 0
        child.join(timeout=0.3)
        assert child.exitcode is None  # its parent lives: it stays
    finally:
        child.kill()
        child.join()
