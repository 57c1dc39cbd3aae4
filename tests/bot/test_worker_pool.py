"""The one mechanism behind the painter's and the engine's workers: a job whose worker is
killed runs again, closing finishes the job under way only, the workers run at the pool's
priority and start once however many ask, threads close the same way. Nothing here depends
on the machine's speed: the tests wait for files the jobs leave, never for a time."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import time
from pathlib import Path

import pytest

from bot.core.runtime.worker_pool import WorkerDiedError, WorkerPool


def where() -> tuple[int, int]:
    """The worker's pid and niceness."""
    return os.getpid(), os.nice(0)


def noted(folder: Path, name: str, pause: float) -> str:
    """Leaves a file named ``name`` in ``folder`` (holding its pid) when it begins, then
    sleeps ``pause``; its answer is ``name``."""
    (folder / f"{name}.tmp").write_text(str(os.getpid()))
    (folder / f"{name}.tmp").rename(folder / name)  # whole when seen
    time.sleep(pause)
    return name


def once_then_wait(folder: Path) -> str:
    """The first run notes its pid and waits to be killed; a run after that answers at once."""
    if (folder / "first").exists():
        return "ran again"
    return noted(folder, "first", 600)


def die(exit_code: int) -> None:
    if multiprocessing.parent_process() is not None:
        os._exit(exit_code)


async def appeared(path: Path) -> None:
    for _ in range(6000):  # a minute at most, however busy the machine
        if path.exists():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{path.name} never appeared")


async def test_a_job_whose_worker_is_killed_runs_again_in_a_new_worker(tmp_path: Path) -> None:
    pool = WorkerPool(1, name="engine")
    try:
        job = asyncio.ensure_future(pool.call(once_then_wait, tmp_path))
        await appeared(tmp_path / "first")
        killed = int((tmp_path / "first").read_text())
        os.kill(killed, signal.SIGKILL)
        assert await job == "ran again"
        pid, _nice = await pool.call(where)
        assert pid not in (killed, os.getpid())
    finally:
        pool.close()


async def test_a_job_that_kills_its_worker_twice_fails_with_the_worker_died_error() -> None:
    pool = WorkerPool(1, name="engine")
    try:
        with pytest.raises(WorkerDiedError):
            await pool.call(die, 3)
        assert (await pool.call(where))[0] != os.getpid()  # and the pool goes on
    finally:
        pool.close()


@pytest.mark.parametrize("processes", [True, False])
async def test_closing_finishes_the_job_under_way_and_cancels_the_waiting_ones(
    tmp_path: Path, processes: bool
) -> None:
    pool = WorkerPool(1, processes=processes, name="engine")
    under_way = asyncio.ensure_future(pool.call(noted, tmp_path, "first", 0.3))
    waiting = [asyncio.ensure_future(pool.call(noted, tmp_path, f"q{n}", 0)) for n in range(5)]
    await appeared(tmp_path / "first")
    pool.close()
    assert await under_way == "first"
    results = await asyncio.gather(*waiting, return_exceptions=True)
    assert all(isinstance(result, asyncio.CancelledError) for result in results)
    assert not list(tmp_path.glob("q*"))  # one job at a time was sent: none of them ran


async def test_the_workers_run_at_the_pools_priority_in_processes_of_their_own() -> None:
    pool = WorkerPool(2, niceness=7, name="engine")
    try:
        await pool.start()
        pid, nice = await pool.call(where)
        assert pid != os.getpid()
        assert nice == os.nice(0) + 7
    finally:
        pool.close()


async def test_callers_starting_the_pool_at_once_start_it_once() -> None:
    before = {child.pid for child in multiprocessing.active_children()}
    pool = WorkerPool(2, name="engine")
    try:
        await asyncio.gather(pool.start(), pool.start(), pool.start())
        started = {child.pid for child in multiprocessing.active_children()} - before
        assert len(started) == 2
        pids = {pid for pid, _nice in await asyncio.gather(*(pool.call(where) for _ in range(6)))}
        assert pids <= started
    finally:
        pool.close()


async def test_a_job_asked_for_while_the_pool_starts_waits_for_its_workers() -> None:
    before = {child.pid for child in multiprocessing.active_children()}
    pool = WorkerPool(1, name="engine")
    try:
        starting = asyncio.ensure_future(pool.start())
        await asyncio.sleep(0)  # the start has begun
        pid, _nice = await pool.call(where)
        await starting
        started = {child.pid for child in multiprocessing.active_children()} - before
        assert started == {pid}
    finally:
        pool.close()


def test_a_closed_pool_starts_again_on_the_next_event_loop() -> None:
    pool = WorkerPool(1, name="engine")
    try:
        first = asyncio.run(pool.call(where))
        pool.close()
        second = asyncio.run(pool.call(where))
        assert first[0] != second[0]
        assert os.getpid() not in (first[0], second[0])
    finally:
        pool.close()


async def test_threads_run_the_jobs_off_the_event_loop_without_processes() -> None:
    pool = WorkerPool(2, processes=False, name="engine")
    try:
        await pool.start()  # nothing to start
        pid, _nice = await pool.call(where)
        assert pid == os.getpid()
        assert not [child for child in multiprocessing.active_children() if child.name == "engine"]
    finally:
        pool.close()
