"""Long drawings (a whole game's animation) in a process of its own, at a lower priority:
no board waits behind one, and a crash there loses nothing either."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import time
from functools import partial

from bot.core.runtime.painter import BOARD_NICENESS, LONG_DRAWINGS, Painter
from rendering import BoardView, render_board
from rendering.replay import render_game_animation, render_replay_animation

VIEW = BoardView.from_ids("4HPwATDgc/ABMA", "cAkAAAAAAAAA")


def where_long() -> bytes:
    """The process a long drawing runs in, and its niceness."""
    return f"{os.getpid()} {os.getpriority(os.PRIO_PROCESS, 0)}".encode()


def where_board() -> bytes:
    return where_long()


def slow_long(seconds: float) -> bytes:
    time.sleep(seconds)
    return b"long"


def slow_where(seconds: float) -> bytes:
    time.sleep(seconds)
    return str(os.getpid()).encode()


def echo_later(data: bytes, seconds: float) -> bytes:
    time.sleep(seconds)
    return data


def die_in_a_worker() -> bytes:
    """Kills the process it runs in, unless that is the test process itself."""
    if multiprocessing.parent_process() is not None:
        os._exit(3)
    return b"drawn on the thread"


LONG = frozenset({where_long, slow_long, slow_where, die_in_a_worker})


def test_a_game_animation_is_a_long_drawing() -> None:
    painter = Painter(processes=1)
    assert render_replay_animation in LONG_DRAWINGS
    assert painter.is_long(partial(render_replay_animation, None, names=["Ann", "Bob"]))
    assert painter.is_long(partial(render_game_animation, None, (), 1, names=["Ann", "Bob"]))
    assert not painter.is_long(partial(render_board, VIEW))
    assert not painter.is_long(where_long)  # only a partial says which function it draws


async def test_a_long_drawing_runs_apart_at_a_lower_priority() -> None:
    painter = Painter(processes=1, long_drawings=LONG)
    try:
        await painter.start()
        long_pid, long_nice = (await painter.paint(partial(where_long))).split()
        board_pid, board_nice = (await painter.paint(partial(where_board))).split()
        ours = os.getpriority(os.PRIO_PROCESS, 0)
        assert long_pid != board_pid
        assert str(os.getpid()) not in (long_pid.decode(), board_pid.decode())
        assert int(board_nice) == min(19, ours + BOARD_NICENESS)
        # Animations take only what the event loop and the boards leave: the lowest priority.
        assert int(long_nice) == 19
        if ours + BOARD_NICENESS < 19:
            assert ours < int(board_nice) < int(long_nice)
    finally:
        painter.close()


async def test_a_drawing_asked_for_aside_runs_with_the_long_ones() -> None:
    """A web page's picture (a board, not a long drawing) is drawn at the lowest priority, in
    the long drawings' process: the chats' boards never wait behind a stranger's pictures."""
    painter = Painter(processes=1, long_drawings=LONG)
    try:
        await painter.start()
        long_pid, _long_nice = (await painter.paint(partial(where_long))).split()
        board_pid, _board_nice = (await painter.paint(partial(where_board))).split()
        aside_pid, aside_nice = (await painter.paint(partial(where_board), aside=True)).split()
        assert long_pid != board_pid
        assert aside_pid == long_pid
        assert int(aside_nice) == 19
        # Waiting behind a long drawing, it is not lent to the boards' process when that
        # process has drawn its board and is idle (as a waiting animation is).
        busy = asyncio.ensure_future(painter.paint(partial(slow_where, 0.8)))
        await asyncio.sleep(0)  # the long drawing is sent to its process
        board = asyncio.ensure_future(painter.paint(partial(echo_later, b"board", 0.2)))
        await asyncio.sleep(0)
        waited_pid, _nice = (await painter.paint(partial(where_board), aside=True)).split()
        assert await board == b"board"
        assert waited_pid == long_pid
        assert await busy == long_pid
    finally:
        painter.close()


async def test_boards_do_not_wait_behind_a_long_drawing() -> None:
    painter = Painter(processes=1, long_drawings=LONG)
    try:
        await painter.start()
        long = asyncio.create_task(painter.paint(partial(slow_long, 3.0)))
        await asyncio.sleep(0.1)
        started = time.perf_counter()
        board = await painter.paint(partial(render_board, VIEW))
        assert board.startswith(b"\x89PNG")
        assert time.perf_counter() - started < 2.0
        assert not long.done()
        assert await long == b"long"
    finally:
        painter.close()


async def test_a_waiting_long_drawing_goes_to_an_idle_boards_process() -> None:
    """Games that end together: their animations are drawn two at a time."""
    painter = Painter(processes=1, long_drawings=LONG)
    try:
        await painter.start()
        started = time.perf_counter()
        drawn = await asyncio.gather(*(painter.paint(partial(slow_where, 0.6)) for _ in range(2)))
        assert len(set(drawn)) == 2
        assert time.perf_counter() - started < 1.1
    finally:
        painter.close()


async def test_a_long_drawing_waits_while_the_boards_process_is_busy() -> None:
    painter = Painter(processes=1, long_drawings=LONG)
    try:
        await painter.start()
        board = asyncio.ensure_future(painter.paint(partial(echo_later, b"board", 0.8)))
        await asyncio.sleep(0.1)
        longs = [asyncio.ensure_future(painter.paint(partial(slow_where, 0.3))) for _ in range(2)]
        assert len(set(await asyncio.gather(*longs))) == 1  # both in the long drawings' process
        assert await board == b"board"
    finally:
        painter.close()


async def test_a_crashed_long_drawing_process_is_replaced() -> None:
    painter = Painter(processes=1, long_drawings=LONG)
    try:
        assert await painter.paint(partial(die_in_a_worker)) == b"drawn on the thread"
        # The boards' process lives on, and the next long drawing gets a fresh process.
        assert (await painter.paint(partial(render_board, VIEW))).startswith(b"\x89PNG")
        assert await painter.paint(partial(slow_long, 0.0)) == b"long"
    finally:
        painter.close()


async def test_one_thread_draws_everything_on_a_single_core() -> None:
    painter = Painter(processes=0, long_drawings=LONG)
    try:
        pid, _nice = (await painter.paint(partial(where_long))).split()
        assert int(pid) == os.getpid()
    finally:
        painter.close()
