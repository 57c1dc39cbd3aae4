"""Engine work off the event loop: a pool of worker processes (or threads, for tests).

Neural-net evaluation is CPU work that holds the interpreter for milliseconds to seconds; done
on the event loop it would stall every chat. :class:`EnginePool` hands a call to a worker
process and awaits the answer. Workers start with ``spawn`` (a fork of a process that runs
threads and an event loop is unsafe; and a spawned worker's parent is the bot itself, so it
can watch it), load the engine once and keep it. A pool can run
its workers at a lower priority (``niceness``), so that a long analysis yields the cores to
the bot's own moves.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


def _ready() -> None:
    """A first task, to have the workers running."""


def _prepare_worker(niceness: int, on_start: Callable[[], None] | None) -> None:
    if niceness:
        os.nice(niceness)
    if on_start is not None:
        on_start()


class EnginePool:
    """``workers`` processes (``processes=False``: threads of this process, for tests)."""

    def __init__(
        self,
        workers: int = 1,
        *,
        niceness: int = 0,
        processes: bool = True,
        on_start: Callable[[], None] | None = None,
    ) -> None:
        """``on_start`` runs first in every worker process (picklable: a module's function,
        or a ``functools.partial`` of one)."""
        self._workers = max(1, workers)
        self._niceness = niceness
        self._processes = processes
        self._on_start = on_start
        self._executor: Executor | None = None
        self._starting = asyncio.Lock()

    def _pool(self) -> Executor:
        if self._executor is None:
            if self._processes:
                self._executor = ProcessPoolExecutor(
                    self._workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_prepare_worker,
                    initargs=(self._niceness, self._on_start),
                )
            else:
                self._executor = ThreadPoolExecutor(self._workers, "engine")
        return self._executor

    async def start(self) -> None:
        """Start the workers. Starting a process blocks for a moment, so it happens in a
        thread, never on the event loop; a second caller waits for the first one's start."""
        async with self._starting:
            if self._executor is None:
                await asyncio.to_thread(self._start_workers)

    def _start_workers(self) -> None:
        pool = self._pool()
        pool.submit(_ready).result()

    async def call(self, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``function(*args)`` in a worker; its arguments and result cross by pickle. A pool
        whose worker died (killed, out of memory) is started afresh once."""
        if kwargs:
            raise TypeError("pass positional arguments only")
        for attempt in range(2):
            await self.start()
            loop = asyncio.get_running_loop()
            try:
                return await loop.run_in_executor(self._pool(), function, *args)
            except BrokenExecutor:
                self.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        """Stop the workers: queued calls are cancelled, a running one is finished first (a
        decision takes milliseconds, an analysis seconds), so no process is left behind."""
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None
