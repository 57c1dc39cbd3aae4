"""Real ``gammonbot run`` processes in Telegram webhook mode, all on one database and one
(fake) Bot API, each listening on a webhook port of its own: start them, kill one, restart it,
stop them all, and read their logs.

Each process is started in a session (process group) of its own, so its drawing and engine
workers can be found and ended with it: :meth:`Cluster.close` kills every group it started
that is still alive, whatever happened before (a test must leave no process behind).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from tests.fakes.telegram_bot_api import TOKEN

HOOK_PATH = "/telegram/hook"
SECRET = "system-test-secret"
READY_LINE = "telegram is running"  # bot.hosting logs it once the adapter has started
START_TIMEOUT_S = 60.0
STOP_TIMEOUT_S = 30.0
POLL_S = 0.05
# The settings every process shares, besides the database and the Bot API's address.
# Flood limits off: the fake Bot API has none, and the limiter would measure itself.
SHARED_SETTINGS = {
    "TELEGRAM_TOKEN": TOKEN,
    "TELEGRAM_WEBHOOK_URL": f"https://bot.example.org{HOOK_PATH}",
    "TELEGRAM_WEBHOOK_LISTEN": "127.0.0.1",
    "TELEGRAM_WEBHOOK_SECRET": SECRET,
    "TELEGRAM_FLOOD_LIMITS": "false",
}


def free_port() -> int:
    """A port nobody listens on now (the OS's choice for port 0). Another program could take
    it before the bot binds it: then the bot exits at start, and :meth:`Cluster.start` tries
    again on another port."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class BotProcess:
    """One ``gammonbot run``: its number, webhook port, and the logs of its lives."""

    number: int
    port: int
    popen: subprocess.Popen[bytes] | None = None
    logs: list[Path] = field(default_factory=list)
    groups: list[int] = field(default_factory=list)  # the process group of every life

    @property
    def hook(self) -> str:
        return f"http://127.0.0.1:{self.port}{HOOK_PATH}"

    @property
    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def log_text(self) -> str:
        return "".join(path.read_text(errors="replace") for path in self.logs if path.exists())


class StartError(RuntimeError):
    """A process exited or never got ready; the message ends with its log."""


class Cluster:
    """``size`` bot processes on ``database_url``, talking to the Bot API at ``api_url``;
    ``settings`` are more environment variables for all of them."""

    def __init__(
        self,
        database_url: str,
        api_url: str,
        size: int,
        workdir: Path,
        settings: Mapping[str, str] | None = None,
    ) -> None:
        self.workdir = workdir
        self.environment = _environment(database_url, api_url, settings or {})
        self.processes = [BotProcess(number, free_port()) for number in range(size)]

    @property
    def hooks(self) -> list[str]:
        return [process.hook for process in self.processes]

    async def start_all(self) -> None:
        """Start every process at once and wait until all are ready."""
        await asyncio.gather(*(self.start(process.number) for process in self.processes))

    async def start(self, number: int, attempts: int = 3) -> None:
        """Start process ``number`` (again: on its port) and wait until it is ready; a port
        taken by someone else meanwhile is replaced by another."""
        process = self.processes[number]
        for attempt in range(attempts):
            self._spawn(process)
            try:
                await _ready(process)
                return
            except StartError as error:
                if "address already in use" not in str(error) or attempt == attempts - 1:
                    raise
                process.port = free_port()

    def _spawn(self, process: BotProcess) -> None:
        log = self.workdir / f"bot{process.number}.{len(process.logs)}.log"
        process.logs.append(log)
        environment = {**self.environment, "TELEGRAM_WEBHOOK_PORT": str(process.port)}
        with log.open("wb") as stderr:
            process.popen = subprocess.Popen(
                [sys.executable, "-m", "bot.cli", "run"],
                cwd=self.workdir,  # no .env of the developer's is read
                env=environment,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=stderr,
                start_new_session=True,
            )
        process.groups.append(process.popen.pid)

    def pause(self, number: int) -> None:
        """SIGSTOP process ``number``: it does nothing more until resumed or killed (its
        workers go on, but hand nothing back)."""
        self._signal(number, signal.SIGSTOP)

    def resume(self, number: int) -> None:
        self._signal(number, signal.SIGCONT)

    def _signal(self, number: int, which: signal.Signals) -> None:
        popen = self.processes[number].popen
        assert popen is not None
        os.kill(popen.pid, which)

    def kill(self, number: int) -> None:
        """SIGKILL process ``number`` (its workers notice and exit by themselves)."""
        popen = self.processes[number].popen
        assert popen is not None
        os.kill(popen.pid, signal.SIGKILL)
        popen.wait(timeout=STOP_TIMEOUT_S)

    def cpu_seconds(self) -> list[tuple[float, float]]:
        """Per process, the CPU time of its current life so far: its own, its workers'."""
        return [
            cpu_seconds(process.popen.pid) if process.popen is not None else (0.0, 0.0)
            for process in self.processes
        ]

    async def stop_all(self) -> list[int | None]:
        """SIGTERM every live process and wait for it: the exit codes."""
        live = [process.popen for process in self.processes if process.alive]
        for popen in live:
            assert popen is not None
            popen.send_signal(signal.SIGTERM)
        codes: list[int | None] = []
        for popen in live:
            assert popen is not None
            try:
                codes.append(await asyncio.to_thread(popen.wait, STOP_TIMEOUT_S))
            except subprocess.TimeoutExpired:
                codes.append(None)
        return codes

    def close(self) -> None:
        """Kill whatever is left of every process group started (bots and their workers)."""
        for process in self.processes:
            for group in process.groups:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(group, signal.SIGKILL)
            if process.popen is not None:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.popen.wait(timeout=STOP_TIMEOUT_S)


def _environment(database_url: str, api_url: str, settings: Mapping[str, str]) -> dict[str, str]:
    """This environment without any gammonbot setting of the developer's, plus ours."""
    kept = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("DISCORD_", "TELEGRAM_", "WEB_", "DATABASE_", "CLOCK_"))
    }
    return {
        **kept,
        **SHARED_SETTINGS,
        "DATABASE_URL": database_url,
        "TELEGRAM_BASE_URL": api_url,
        **settings,
    }


async def _ready(process: BotProcess) -> None:
    """Until the process logs that Telegram is running; :class:`StartError` when it exits
    first or takes longer than :data:`START_TIMEOUT_S`."""
    deadline = time.monotonic() + START_TIMEOUT_S
    log = process.logs[-1]
    while time.monotonic() < deadline:
        text = log.read_text(errors="replace") if log.exists() else ""
        if READY_LINE in text:
            return
        if not process.alive:
            raise StartError(f"bot {process.number} exited at start:\n{text[-3000:]}")
        await asyncio.sleep(POLL_S)
    raise StartError(f"bot {process.number} not ready in {START_TIMEOUT_S} s")


def cpu_seconds(pid: int) -> tuple[float, float]:
    """CPU time (user and system) of a live process, and of its live children (for a bot:
    its drawing and engine workers); zeros when it is gone."""
    own = _cpu(pid)
    return own, sum(_cpu(child) for child in _children(pid)) if own else 0.0


def _cpu(pid: int) -> float:
    fields = _stat_fields(pid)
    if fields is None:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def _stat_fields(pid: int) -> list[str] | None:
    """/proc/PID/stat after the command's name (which may hold spaces): state first."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rpartition(")")[2].split()


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat_fields(int(entry.name))
            if fields is not None and int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def tracebacks(text: str) -> list[str]:
    """The tracebacks in a log, each with the line before it (what was being done)."""
    lines = text.splitlines()
    return [
        "\n".join(lines[max(0, index - 1) : index + 4])
        for index, line in enumerate(lines)
        if line.startswith("Traceback")
    ]
