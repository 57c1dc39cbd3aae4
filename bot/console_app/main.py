"""Run the console chat on standard input and output.

Input is read by :class:`StdinLines`, not ``sys.stdin``: bytes that are not valid in the input
encoding become U+FFFD (one bad byte once ended the console with a traceback), and the reading
thread holds no lock of ``sys.stdin``, so SIGTERM can end the console while it waits for a line.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import io
import os
import queue
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Protocol

from bot.console_app.chat import ConsoleChat
from bot.core.bootstrap import Ports
from bot.core.computer.analyst import Analyst
from bot.core.model import Message
from bot.core.scheduler import Clock
from bot.core.service import Core
from bot.hosting import ANALYSIS_SECONDS, WebSettings, web_server
from bot.runtime import freeze_startup_objects
from gammon.fair_dice import new_server_seed
from storage import Database

BANNER = (
    "gammonbot console. Type lines like  alice: /challenge @bob 3  then  bob: [Accept]\n"
    "/help lists the commands; Ctrl-D ends. Administrators (/defaults, /chouette end) are\n"
    "the users the CONSOLE_ADMINS setting names, e.g. CONSOLE_ADMINS=alice.\n"
)

_CHUNK = 65536


class StdinLines:
    """Lines of a file descriptor, decoded with ``errors="replace"``, read on demand by one
    daemon thread.

    Not ``asyncio.to_thread(sys.stdin.readline)``: that thread belongs to the default executor,
    which ``asyncio.run`` waits for at the end, so a console asked to stop while nobody types
    would never end. A daemon thread blocked in ``os.read`` holds no lock and is simply left
    behind when the interpreter exits. Lines are read only when asked for, as before, so a
    long piped script is not read ahead into memory. Newlines are translated as ``sys.stdin``
    does (``\\r\\n`` and ``\\r`` become ``\\n``).
    """

    def __init__(self, fd: int, encoding: str) -> None:
        self._fd = fd
        decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
        self._decoder = io.IncrementalNewlineDecoder(decoder, translate=True)
        self._lines: deque[str] = deque()
        self._partial: list[str] = []
        self._ended = False
        self._asked: queue.SimpleQueue[asyncio.Future[str]] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None

    async def readline(self) -> str:
        """The next line with its ``\\n``; ``""`` at the end of the input."""
        answer: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self._asked.put(answer)
        if self._thread is None:
            self._thread = threading.Thread(target=self._serve, name="stdin", daemon=True)
            self._thread.start()
        return await answer

    def _serve(self) -> None:
        while True:
            answer = self._asked.get()
            line = self._next_line()
            try:
                answer.get_loop().call_soon_threadsafe(_settle, answer, line)
            except RuntimeError:  # the loop is closed: nobody reads any more
                return

    def _next_line(self) -> str:
        while not self._lines and not self._ended:
            self._fill()
        return self._lines.popleft() if self._lines else ""

    def _fill(self) -> None:
        try:
            chunk = os.read(self._fd, _CHUNK)
        except OSError:  # a closed or unreadable stdin ends the input like Ctrl-D
            chunk = b""
        self._ended = not chunk
        *complete, rest = self._decoder.decode(chunk, final=self._ended).split("\n")
        for piece in complete:
            self._lines.append("".join([*self._partial, piece, "\n"]))
            self._partial = []
        if rest:
            self._partial.append(rest)
        if self._ended and self._partial:
            self._lines.append("".join(self._partial))
            self._partial = []


class LineSource(Protocol):
    async def readline(self) -> str:
        """The next line with its newline; ``""`` at the end of the input."""
        ...


def _settle(answer: asyncio.Future[str], line: str) -> None:
    if not answer.done():  # cancelled when SIGTERM came first
        answer.set_result(line)


def _tolerant_stdout() -> None:
    """Never fail on output the terminal's encoding cannot show (e.g. PYTHONIOENCODING=ascii)."""
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(errors="backslashreplace")


def _stop_on_sigterm() -> asyncio.Event:
    """An event set by SIGTERM: the console then ends as after Ctrl-D, closing the drawing
    processes and the database instead of dying with them half-used."""
    stop = asyncio.Event()
    with contextlib.suppress(NotImplementedError):  # no signal handlers on Windows' loop
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    return stop


async def _next_line(lines: LineSource, stop: asyncio.Event) -> str:
    """The next input line, or ``""`` (the end of input) once ``stop`` is set."""
    if stop.is_set():
        return ""
    reading = asyncio.ensure_future(lines.readline())
    stopping = asyncio.ensure_future(stop.wait())
    await asyncio.wait({reading, stopping}, return_when=asyncio.FIRST_COMPLETED)
    stopping.cancel()
    if reading.done():
        return reading.result()
    reading.cancel()
    return ""


async def run_console(
    database_url: str,
    image_dir: Path | None,
    web: WebSettings | None = None,
    *,
    server_seeds: Callable[[], bytes] = new_server_seed,
    session: str | None = None,
    admins: Iterable[str] = (),
) -> None:
    """The console chat until the input ends; ``admins`` administer its chats. ``server_seeds``
    and ``session`` (the event ids' prefix) are fixed only by the demonstration
    (``bot.console_app.demo``)."""
    _tolerant_stdout()
    stop = _stop_on_sigterm()
    database = Database(database_url)
    await database.migrate()
    core = Core(
        database,
        web_base_url=web.base_url if web else None,
        page_link_hours=web.key_hours if web else 24.0,
        server_seeds=server_seeds,
    )
    shown: list[ConsoleChat] = []  # the chat, once made: a board page's answers show there

    async def deliver(messages: Sequence[Message]) -> None:
        for message in messages:
            for chat in shown:
                chat.show(message)
        for chat in shown:
            chat.out.flush()

    pages = web_server(core.ports, web, core, deliver)
    try:
        await core.ports.workers.start()
        if pages is not None:
            await pages.start()
        freeze_startup_objects()
        chat = ConsoleChat(core, sys.stdout, image_dir=image_dir, session=session, admins=admins)
        shown.append(chat)
        encoding = sys.stdin.encoding if sys.stdin is not None else "utf-8"
        interactive = sys.stdin is not None and sys.stdin.isatty()
        await converse(core.ports, chat, stop, StdinLines(0, encoding), interactive=interactive)
    finally:
        if pages is not None:
            await pages.stop()
        core.ports.workers.close()
        await database.close()


async def converse(
    ports: Ports,
    chat: ConsoleChat,
    stop: asyncio.Event,
    lines: LineSource,
    *,
    interactive: bool,
    analysis_seconds: float = ANALYSIS_SECONDS,
) -> None:
    """Answer input lines until the input ends or ``stop`` is set; with a terminal, tick the
    clock.

    Analyses run beside the conversation and are printed when ready, never in the middle of
    a line's output: the answer to the move that ends a match never waits for its analysis
    (it took the engine 13-23 s on a busy machine, and a script saw nothing meanwhile). At the
    end of a script's input the analyses of the matches it ended are awaited and printed after
    its last line's output."""
    out = chat.out
    if interactive:
        out.write(BANNER)
    clock = ports.clock
    for message in await clock.tick():  # deadlines that ran out while the bot was down
        chat.show(message)
    await ports.analyst.start()
    printing = asyncio.Lock()  # one line's output, or one batch of analyses, at a time
    finished = asyncio.Event()  # no more input: analyse what is left, then stop
    ticking = asyncio.create_task(_every_minute(clock, chat)) if interactive else None
    timing = asyncio.create_task(_clocks(clock, chat)) if interactive else None
    analysing = asyncio.create_task(
        _analyse_beside(ports.analyst, chat, printing, finished, analysis_seconds)
    )
    try:
        while True:
            if interactive:
                out.write("> ")
                out.flush()
            line = await _next_line(lines, stop)
            if not line:
                break
            async with printing:
                await chat.line(line)
                if not interactive:
                    out.write("--\n")
                out.flush()
        if not interactive and not stop.is_set():
            finished.set()
            await analysing
    finally:
        for task in (ticking, timing, analysing):
            if task is not None:
                task.cancel()


async def _every_minute(clock: Clock, chat: ConsoleChat) -> None:
    while True:
        await asyncio.sleep(60)
        for message in await clock.tick():
            chat.show(message)


async def _clocks(clock: Clock, chat: ConsoleChat) -> None:
    """Match clocks that ran out, every second (the console is one process)."""
    while True:
        await asyncio.sleep(1)
        for message in await clock.clocks():
            chat.show(message)


async def _analyse_beside(
    analyst: Analyst,
    chat: ConsoleChat,
    printing: asyncio.Lock,
    finished: asyncio.Event,
    every: float,
) -> None:
    """Analyse finished matches every ``every`` seconds and print each analysis between two
    lines' outputs; once ``finished`` is set, one more pass, then return."""
    while True:
        last = finished.is_set()
        messages = await analyst.work()
        if messages:
            async with printing:
                for message in messages:
                    chat.show(message)
                chat.out.flush()
        if last:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(finished.wait(), every)
