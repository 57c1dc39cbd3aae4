"""A worker process and the two pipes to it, written and read by the event loop itself: the
one way the bot runs work in other processes (the painter's drawings, the engine's decisions,
hints and analyses; :mod:`bot.core.runtime.worker_pool` keeps a pool of them).

``ProcessPoolExecutor`` hands every job to helper threads of the bot's process (one pickles
and writes it, one reads the answer back and wakes the loop), and keeps only one job waiting
beside the one under way. The threads want the interpreter lock while the event loop holds
it, and the process waits for them between two jobs. Here the loop writes a job into the
process's pipe and reads the answer when the pipe is readable, and it may send a few jobs
ahead: less than half the bot's time per board, and more boards a second
(docs/benchmarks.md has the figures).

A request is its length (8 bytes, big-endian), the job's number (8 bytes) and the pickled job
(a picklable callable without arguments: a module's function or a ``functools.partial`` of
one); an answer is its length and a pickle of the number with the job's result or with the
error it raised (its traceback attached). The process ends when its request pipe is closed (or
when the bot is gone, see :func:`watch_parent`).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import itertools
import logging
import multiprocessing
import os
import pickle
import signal
import struct
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

logger = logging.getLogger(__name__)

Job = Callable[[], Any]
PARENT_CHECK_SECONDS = 0.5
_LENGTH = struct.Struct("!Q")
_PIPE_BYTES = 1 << 20  # a game's animation passes in one or two reads (Linux's default: 64 KB)
_READ_BYTES = 1 << 20


class WorkerDiedError(Exception):
    """The worker process ended before it answered."""


class RemoteTracebackError(Exception):
    """Where a job failed in the worker process: set as its error's ``__cause__``."""

    def __str__(self) -> str:
        return str(self.args[0])


# --- in the worker process ----------------------------------------------------------------


def serve(
    requests: Connection,
    answers: Connection,
    parent: int,
    niceness: int,
    on_start: Callable[[], object] | None = None,
) -> None:
    """A worker process's life: tie it to the bot's, run ``on_start`` (a warm-up), then run
    the jobs that come, until the requests end or nobody reads the answers.

    Ctrl-C reaches every process of the terminal's group: the bot stops its worker processes
    itself (by closing their pipes), so a worker process ignores SIGINT instead of dying
    with a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    watch_parent(parent)
    if niceness:
        os.nice(niceness)
    if on_start is not None:
        on_start()
    incoming, outgoing = requests.fileno(), answers.fileno()
    try:
        while (request := _read_message(incoming)) is not None:
            _write_all(outgoing, _answer(request))
    except BrokenPipeError:
        # Nobody reads the answers any more: the bot was killed (before the parent watch
        # noticed) or stopped reading. Nothing is left to answer; end without a traceback.
        return


def watch_parent(parent: int, every: float = PARENT_CHECK_SECONDS) -> None:
    """Exit this process soon after ``parent`` (its parent's pid) has died.

    A daemon thread compares ``os.getppid()`` with ``parent`` every ``every`` seconds: a dead
    parent's children are handed to another process (init or a subreaper), so the pid changes,
    also when the parent died before this thread started. Not prctl's PR_SET_PDEATHSIG: that
    fires when the parent *thread* that started the process ends. ``os._exit`` because there
    is nobody left to clean up for.
    """
    threading.Thread(
        target=_exit_when_orphaned, args=(parent, every), name="parent-watch", daemon=True
    ).start()


def _exit_when_orphaned(parent: int, every: float) -> None:
    while os.getppid() == parent:
        time.sleep(every)
    os._exit(0)


def _answer(request: bytes) -> bytes:
    """The answer to one request: its number with the result, or with the error."""
    number, pickled = _LENGTH.unpack_from(request)[0], request[_LENGTH.size :]
    try:
        job = pickle.loads(pickled)
        return _message(pickle.dumps((number, True, job()), pickle.HIGHEST_PROTOCOL))
    except Exception as error:
        return _message(_failure(number, error))


def _failure(number: int, error: Exception) -> bytes:
    text = "".join(traceback.format_exception(error))
    try:
        return pickle.dumps((number, False, _Failure(error, text)), pickle.HIGHEST_PROTOCOL)
    except Exception as unpicklable:
        stand_in = pickle.PicklingError(f"{error!r} from the job cannot be pickled: {unpicklable}")
        return pickle.dumps((number, False, _Failure(stand_in, text)), pickle.HIGHEST_PROTOCOL)


class _Failure:
    """An error that comes back with the worker process's traceback as its cause."""

    def __init__(self, error: Exception, text: str) -> None:
        self.error = error
        self.text = text

    def __reduce__(self) -> tuple[Callable[[Exception, str], Exception], tuple[Exception, str]]:
        return _with_traceback, (self.error, self.text)


def _with_traceback(error: Exception, text: str) -> Exception:
    error.__cause__ = RemoteTracebackError(text)
    return error


def _read_message(fd: int) -> bytes | None:
    """The next message from a blocking pipe; None once it is closed."""
    header = _read_exactly(fd, _LENGTH.size)
    if header is None:
        return None
    return _read_exactly(fd, _LENGTH.unpack(header)[0])


def _read_exactly(fd: int, size: int) -> bytes | None:
    parts, left = [], size
    while left:
        part = os.read(fd, min(left, _READ_BYTES))
        if not part:
            return None
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def pickled(job: Job) -> bytes:
    """A job as :meth:`WorkerProcess.send` sends it (pickled in the caller, where an
    unpicklable job raises)."""
    return pickle.dumps(job, pickle.HIGHEST_PROTOCOL)


def _message(payload: bytes) -> bytes:
    return _LENGTH.pack(len(payload)) + payload


# --- in the bot's process -----------------------------------------------------------------


class WorkerProcess:
    """One worker process, fed and read by the running event loop (whichever it is: a pool
    may serve one loop after another). ``on_answer`` is called after each answer (and once it
    died), so its owner can send the next job. ``on_start`` runs first in the process (a
    picklable function: a warm-up)."""

    def __init__(
        self,
        niceness: int,
        on_answer: Callable[[WorkerProcess], None],
        *,
        on_start: Callable[[], object] | None = None,
        name: str = "worker",
    ) -> None:
        spawn = multiprocessing.get_context("spawn")
        requests, self._requests = spawn.Pipe(duplex=False)
        self._answers, answers = spawn.Pipe(duplex=False)
        self.process = spawn.Process(
            target=serve,
            args=(requests, answers, os.getpid(), niceness, on_start),
            name=name,
            daemon=True,  # at interpreter exit multiprocessing ends it rather than waits for it
        )
        self.process.start()
        requests.close()  # the process holds these ends now: its exit closes our reading end
        answers.close()
        for connection in (self._requests, self._answers):
            with contextlib.suppress(OSError, AttributeError):
                fcntl.fcntl(connection.fileno(), fcntl.F_SETPIPE_SZ, _PIPE_BYTES)
            os.set_blocking(connection.fileno(), False)
        self._on_answer = on_answer
        self._numbers = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[Any]] = {}  # sent or being sent, in order
        self._unsent: deque[tuple[int, memoryview]] = deque()  # the head may be half written
        self._received = bytearray()
        self._loop: asyncio.AbstractEventLoop | None = None
        self.alive = True

    @property
    def in_flight(self) -> int:
        """Jobs sent and not answered yet."""
        return len(self._waiting)

    def send(
        self, pickled: bytes, future: asyncio.Future[Any] | None = None
    ) -> asyncio.Future[Any]:
        """Send a job (:func:`pickled`); ``future`` (a new one if None) gets its result or
        its error."""
        loop = asyncio.get_running_loop()
        future = loop.create_future() if future is None else future
        if not self.alive:
            future.set_exception(WorkerDiedError())
            return future
        number = next(self._numbers)
        request = _message(_LENGTH.pack(number) + pickled)
        self._waiting[number] = future
        self._unsent.append((number, memoryview(request)))
        self._attach(loop)
        self._write()
        return future

    def _attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Read answers on ``loop`` (the loop a painter ran on before may have ended)."""
        if self._loop is not loop:
            self._loop = loop
            loop.add_reader(self._answers.fileno(), self._read)

    def _write(self) -> None:
        """Write what the pipe takes now; the loop calls again when it takes more."""
        assert self._loop is not None
        fd = self._requests.fileno()
        try:
            while self._unsent:
                number, data = self._unsent[0]
                written = os.write(fd, data)
                if written < len(data):
                    self._unsent[0] = (number, data[written:])
                    self._loop.add_writer(fd, self._write)
                    return
                self._unsent.popleft()
        except BlockingIOError:
            self._loop.add_writer(fd, self._write)
            return
        except OSError:  # the process is gone; its pipe's end says so to _read
            self._unsent.clear()
        self._loop.remove_writer(fd)

    def _read(self) -> None:
        try:
            data = os.read(self._answers.fileno(), _READ_BYTES)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._died()
            return
        self._received += data
        for answer in self._complete_answers():
            self._settle(*pickle.loads(answer))

    def _complete_answers(self) -> list[bytes]:
        answers = []
        while len(self._received) >= _LENGTH.size:
            end = _LENGTH.size + _LENGTH.unpack_from(self._received)[0]
            if len(self._received) < end:
                break
            answers.append(bytes(self._received[_LENGTH.size : end]))
            del self._received[:end]
        return answers

    def _settle(self, number: int, done: bool, value: Any) -> None:
        _resolve(self._waiting.pop(number), done, value)
        self._on_answer(self)

    def _died(self) -> None:
        """The process ended: every job sent to it fails (to be run elsewhere, or again)."""
        self.alive = False
        self._detach()
        self._unsent.clear()
        waiting, self._waiting = self._waiting, {}
        for future in waiting.values():
            _resolve(future, False, WorkerDiedError())
        self.process.join(timeout=0)  # reaped now if it has exited, else at the next start
        logger.error(
            "a %s process ended (exit code %s); starting a new one",
            self.process.name,
            self.process.exitcode,
        )
        self._on_answer(self)

    def _detach(self) -> None:
        loop, self._loop = self._loop, None
        if loop is not None and not loop.is_closed():
            loop.remove_reader(self._answers.fileno())
            loop.remove_writer(self._requests.fileno())

    def close(self) -> None:
        """Stop the process once it has answered the jobs it was fully sent (those not
        sent whole are cancelled), and wait for it."""
        self._detach()
        unsent = {number for number, _data in self._unsent}
        self._unsent.clear()
        for number in unsent:
            _resolve(self._waiting.pop(number), False, None)
        self._requests.close()  # after the jobs already in the pipe it reads the end
        if self.alive:
            self._finish_answers()
        self._answers.close()
        self.process.join()
        self.alive = False

    def _finish_answers(self) -> None:
        """Read the last answers, blocking: the loop is not reading any more."""
        fd = self._answers.fileno()
        os.set_blocking(fd, True)
        while data := os.read(fd, _READ_BYTES):
            self._received += data
        for answer in self._complete_answers():
            number, done, value = pickle.loads(answer)
            _resolve(self._waiting.pop(number), done, value)
        self._received.clear()


def _resolve(future: asyncio.Future[Any], done: bool, value: Any) -> None:
    """Give ``future`` its result (``done``), its error, or cancel it (``value`` None),
    unless its caller stopped waiting or its event loop has ended."""
    if future.done() or future.get_loop().is_closed():
        return
    if done:
        future.set_result(value)
    elif value is None:
        future.cancel()
    else:
        future.set_exception(value)
