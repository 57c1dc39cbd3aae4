"""The painter's drawing processes are fed through pipes by the event loop: several drawings
ahead of each process, and a process that dies with several in flight loses none of them."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import pickle
import time
from functools import partial

import pytest

from bot.core.runtime.painter import AHEAD, Painter
from bot.core.runtime.worker_process import _LENGTH, WorkerProcess, pickled, serve


def pid_after(pause: float) -> bytes:
    time.sleep(pause)
    return str(os.getpid()).encode()


def die_after(pause: float) -> bytes:
    """Kills the process it runs in (after ``pause``), unless that is the test process."""
    time.sleep(pause)
    if multiprocessing.parent_process() is not None:
        os._exit(3)
    return b"drawn on the thread"


def numbered(number: int) -> bytes:
    return str(number).encode()


async def test_a_process_is_sent_drawings_ahead_of_their_pictures() -> None:
    """While one drawing is drawn, the next ones already wait in the process's pipe."""
    answered: list[WorkerProcess] = []
    worker = WorkerProcess(0, answered.append)
    try:
        futures = [worker.send(pickled(partial(pid_after, 0.2))) for _ in range(AHEAD)]
        assert worker.in_flight == AHEAD
        pids = set(await asyncio.gather(*futures))
        assert pids == {str(worker.process.pid).encode()}
        assert (worker.in_flight, len(answered)) == (0, AHEAD)
    finally:
        worker.close()
    assert not worker.process.is_alive()


async def test_a_process_dying_with_drawings_in_flight_loses_none() -> None:
    painter = Painter(processes=1)
    try:
        await painter.start()
        drawings = [partial(die_after, 0.1), *(partial(numbered, n) for n in range(2 * AHEAD))]
        answers = await asyncio.gather(*(painter.paint(drawing) for drawing in drawings))
        assert answers == [b"drawn on the thread", *(numbered(n) for n in range(2 * AHEAD))]
        # and a new process draws the next ones
        assert await painter.paint(partial(pid_after, 0.0)) != str(os.getpid()).encode()
    finally:
        painter.close()


async def test_a_drawing_that_cannot_be_pickled_fails_alone() -> None:
    painter = Painter(processes=1)
    try:
        with pytest.raises((pickle.PicklingError, AttributeError, TypeError)):
            await painter.paint(partial(numbered, lambda: 1))  # type: ignore[arg-type]
        assert await painter.paint(partial(numbered, 7)) == b"7"
    finally:
        painter.close()


async def test_the_boards_are_spread_over_the_processes() -> None:
    painter = Painter(processes=2)
    try:
        await painter.start()
        pids = await asyncio.gather(*(painter.paint(partial(pid_after, 0.05)) for _ in range(8)))
        assert len(set(pids)) == 2
    finally:
        painter.close()


def test_closing_a_painter_that_never_drew_is_quick() -> None:
    painter = Painter(processes=1)
    started = time.perf_counter()
    painter.close()
    painter.close()
    assert time.perf_counter() - started < 1


def test_a_process_whose_answers_nobody_reads_ends_quietly() -> None:
    """A killed bot's drawing process may finish a drawing before it notices its parent is
    gone: writing the picture then finds no reader, and the process ends with exit code 0,
    not with a traceback in the bot's log."""
    spawn = multiprocessing.get_context("spawn")
    requests, to_process = spawn.Pipe(duplex=False)
    from_process, answers = spawn.Pipe(duplex=False)
    process = spawn.Process(target=serve, args=(requests, answers, os.getpid(), 0))
    process.start()
    requests.close()
    answers.close()
    from_process.close()  # nobody reads the answers from now on
    request = _LENGTH.pack(1) + pickled(partial(pid_after, 0.2))
    os.write(to_process.fileno(), _LENGTH.pack(len(request)) + request)
    to_process.close()
    process.join(timeout=30)
    assert process.exitcode == 0
