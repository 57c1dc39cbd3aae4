"""A pool of worker processes, fed by the event loop: what the painter and the engine share.

The painter draws boards and animations in its pools, the computer runs decisions, hints and
analyses in its own (:mod:`bot.core.computer.computer`); each pool is this one mechanism:

- **Started once, restarted when one dies.** The processes start with ``spawn`` (a fork of a
  process that runs threads and an event loop is unsafe; a spawned worker's parent is the
  bot itself, so it can watch it and end with it), at the pool's ``niceness``, and run the
  pool's ``on_start`` (a warm-up) first. :meth:`WorkerPool.start` starts them in a thread,
  never on the event loop; a worker that dies is replaced at the next job, and what it had
  been sent fails with :class:`WorkerDiedError` (:meth:`WorkerPool.call` runs it once more).
- **Jobs wait here, not in the processes.** A process is sent at most ``ahead`` jobs not
  answered yet (the boards: a few, so a process never waits for the loop between two; the
  engine: one, so no decision waits behind another while a worker is free); the others wait
  in the pool, and a caller that stops waiting takes its job out.
- **Closing finishes what is under way only.** :meth:`WorkerPool.close` cancels the jobs
  still waiting and waits for those already sent to finish, so no process is left behind.
- **Threads for tests and single cores.** ``processes=False`` runs the jobs on threads of
  this process (still never on the event loop), with the same closing.

The processes and their pipes are :mod:`bot.core.runtime.worker_process`.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, ParamSpec, TypeVar, cast

from bot.core.runtime.worker_process import Job, WorkerDiedError, WorkerProcess, pickled

__all__ = ["Job", "WorkerDiedError", "WorkerPool"]

P = ParamSpec("P")
T = TypeVar("T")

Waiting = tuple[bytes, "asyncio.Future[Any]"]  # a pickled job and who waits for its result


def _ready() -> None:
    """A first job for a new process: it answers once it has started (and warmed up)."""


class WorkerPool:
    """``workers`` worker processes (``processes=False``: threads of this process), started
    when first needed; ``on_idle`` is called whenever the processes have nothing left to do
    (it may hand the pool a job waiting elsewhere, :meth:`take`)."""

    def __init__(
        self,
        workers: int,
        *,
        processes: bool = True,
        niceness: int = 0,
        ahead: int = 1,
        on_start: Callable[[], object] | None = None,
        on_idle: Callable[[], None] | None = None,
        name: str = "worker",
    ) -> None:
        self.workers = max(1, workers)
        self.processes = processes
        self.niceness = niceness
        self.ahead = max(1, ahead)
        self.name = name
        self._on_start = on_start
        self._on_idle = on_idle
        self._running: list[WorkerProcess] = []
        self._queue: deque[Waiting] = deque()
        self._threads: ThreadPoolExecutor | None = None
        self._starting: asyncio.Future[None] | None = None
        self._closings = 0  # a close while a start spawns makes its processes stale

    # --- jobs -------------------------------------------------------------------------------

    def submit(self, job: Callable[[], T]) -> asyncio.Future[T]:
        """The result of ``job`` (picklable: pickled here, so an unpicklable job raises
        here), once a worker has run it."""
        loop = asyncio.get_running_loop()
        if not self.processes:
            return loop.run_in_executor(self._thread_pool(), job)
        future: asyncio.Future[Any] = loop.create_future()
        self.take(pickled(job), future)
        return cast("asyncio.Future[T]", future)

    async def call(self, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``function(*args)`` in a worker; a job whose worker died (killed, out of memory) is
        run once more, by a new one."""
        if kwargs:
            raise TypeError("pass positional arguments only")
        job = partial(function, *args)
        try:
            return await self.submit(job)
        except WorkerDiedError:
            return await self.submit(job)

    def take(self, request: bytes, future: asyncio.Future[Any]) -> None:
        """Run a pickled job; ``future`` gets its result or its error."""
        self._queue.append((request, future))
        self._hand_out()

    def give_up_one(
        self, lendable: Callable[[asyncio.Future[Any]], bool] = lambda _future: True
    ) -> Waiting | None:
        """The first job still waiting here (not sent to a process) whose future ``lendable``
        allows, taken out; None if none."""
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
        """Nothing waiting, nothing under way."""
        return not self._queue and all(worker.in_flight == 0 for worker in self._running)

    # --- processes --------------------------------------------------------------------------

    async def start(self) -> None:
        """Start the workers now (a process takes a moment to start and warm up), not with the
        first job; done once each has answered a first job. Callers at the same time share
        one start."""
        if not self.processes:
            return
        if self._starting is None or self._starting.done():
            self._starting = asyncio.ensure_future(self._start())
        await asyncio.shield(self._starting)

    async def _start(self) -> None:
        closings = self._closings
        missing = self.workers - len(self._alive())
        started = await asyncio.to_thread(self._spawn, missing)
        if closings != self._closings:  # closed meanwhile
            for worker in started:
                worker.close()
            return
        self._running = [*self._alive(), *started]
        self._starting = None
        self._hand_out()
        await asyncio.gather(*(worker.send(pickled(_ready)) for worker in self._running))

    def _spawn(self, count: int) -> list[WorkerProcess]:
        return [
            WorkerProcess(self.niceness, self._answered, on_start=self._on_start, name=self.name)
            for _ in range(count)
        ]

    def _alive(self) -> list[WorkerProcess]:
        return [worker for worker in self._running if worker.alive]

    def _staffed(self) -> list[WorkerProcess]:
        """The live processes, a new one for each that died (none while :meth:`start`
        starts them in a thread: the jobs wait for those)."""
        self._running = self._alive()
        if self._starting is None or self._starting.done():
            self._running += self._spawn(self.workers - len(self._running))
        return self._running

    def _answered(self, _worker: WorkerProcess) -> None:
        if self._queue:
            self._hand_out()
        if self._on_idle is not None and self.idle:
            self._on_idle()

    def _hand_out(self) -> None:
        """Send waiting jobs to the least busy processes that have room."""
        while self._queue:
            request, future = self._queue[0]
            if future.done():  # its caller stopped waiting
                self._queue.popleft()
                continue
            running = self._staffed()
            if not running:
                return
            worker = min(running, key=lambda each: each.in_flight)
            if worker.in_flight >= self.ahead:
                return
            self._queue.popleft()
            worker.send(request, future)

    def _thread_pool(self) -> ThreadPoolExecutor:
        if self._threads is None:
            self._threads = ThreadPoolExecutor(self.workers, thread_name_prefix=self.name)
        return self._threads

    def close(self) -> None:
        """Cancel the jobs still waiting, let the processes (or threads) finish the jobs they
        were sent, and wait for them. The pool may be used again: it starts anew."""
        self._closings += 1
        self._starting = None
        for _request, future in self._queue:
            if not future.done() and not future.get_loop().is_closed():
                future.cancel()
        self._queue.clear()
        for worker in self._running:
            worker.close()
        self._running = []
        if self._threads is not None:
            self._threads.shutdown(wait=True, cancel_futures=True)
            self._threads = None
