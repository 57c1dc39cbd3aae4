"""No process outlives a killed or stopped bot: its drawing processes and multiprocessing's
resource tracker end with it (290 killed consoles once left 290 orphans, 13.9 GiB)."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bot.core.runtime.painter import default_processes
from tests.bot.test_console import console_environment

pytestmark = [
    pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)"),
    pytest.mark.skipif(default_processes() == 0, reason="one core: the bot draws on a thread"),
]

Process = tuple[int, int]  # pid and start time: a pid alone may be reused
Launch = Callable[..., subprocess.Popen[bytes]]

HOST_SCRIPT = """
import asyncio, sys
from bot.hosting import host

class Idle:
    platform = "idle"

    def __init__(self, core):
        pass

    async def start(self):
        print("running", flush=True)

    async def deliver(self, messages):
        pass

    async def stop(self):
        pass

asyncio.run(host(sys.argv[1], [Idle]))
"""


def _stat(pid: int) -> tuple[int, str, int] | None:
    """Parent pid, state and start time of a process; None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text.rpartition(")")[2].split()  # the name in parentheses may hold spaces
    return int(fields[1]), fields[0], int(fields[19])


def descendants(root: int) -> set[Process]:
    """Every living process below ``root``."""
    parents: dict[int, list[Process]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (found := _stat(int(entry.name))) is not None:
            parents.setdefault(found[0], []).append((int(entry.name), found[2]))
    below: set[Process] = set()
    waiting = [root]
    while waiting:
        for child in parents.get(waiting.pop(), []):
            below.add(child)
            waiting.append(child[0])
    return below


def living(processes: set[Process]) -> set[Process]:
    """Those of ``processes`` still running (a zombie has ended)."""
    alive = set()
    for pid, started in processes:
        found = _stat(pid)
        if found is not None and found[2] == started and found[1] != "Z":
            alive.add((pid, started))
    return alive


def wait_until_gone(processes: set[Process], seconds: float) -> set[Process]:
    """Wait for ``processes`` to end; answers those still running after ``seconds``."""
    deadline = time.monotonic() + seconds
    while living(processes) and time.monotonic() < deadline:
        time.sleep(0.05)
    return living(processes)


def read_until(process: subprocess.Popen[bytes], marker: bytes, seconds: float = 60) -> bytes:
    """Output of ``process`` up to a line ``marker``; fails the test after ``seconds``."""
    assert process.stdout is not None
    seen = b""
    deadline = time.monotonic() + seconds
    while marker not in seen.splitlines():
        ready, _, _ = select.select([process.stdout], [], [], max(0, deadline - time.monotonic()))
        chunk = os.read(process.stdout.fileno(), 65536) if ready else b""
        assert chunk, f"no {marker!r} line: {seen.decode(errors='replace')}"
        seen += chunk
    return seen


@pytest.fixture
def launch(tmp_path: Path) -> Iterator[Launch]:
    """Starts Python processes in ``tmp_path`` with the console's environment, and kills those
    still running when the test ends (a failed test leaves nothing running either)."""
    started: list[subprocess.Popen[bytes]] = []

    def start(*arguments: str) -> subprocess.Popen[bytes]:
        started.append(
            subprocess.Popen(
                [sys.executable, *arguments],
                stdin=subprocess.PIPE,  # kept open, as a terminal's would be
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=tmp_path,
                env=console_environment(tmp_path),
            )
        )
        return started[-1]

    yield start
    for process in started:
        if process.poll() is None:
            process.kill()
        process.communicate(timeout=30)


def start_console(launch: Launch) -> subprocess.Popen[bytes]:
    """A console that has answered one line, so its drawing processes run."""
    console = launch("-m", "bot.cli", "console")
    assert console.stdin is not None
    console.stdin.write(b"alice: /help\n")
    console.stdin.flush()
    read_until(console, b"--")
    return console


def stop(process: subprocess.Popen[bytes], how: signal.Signals) -> tuple[int, set[Process]]:
    """Send ``how``; answers the exit status and the descendants still running 5 s later
    (killed then, so that a failing test leaves no orphans either)."""
    below = descendants(process.pid)
    process.send_signal(how)
    status = process.wait(timeout=30)
    left = wait_until_gone(below, seconds=5)
    for pid, _started in left:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    return status, left


def errors(process: subprocess.Popen[bytes]) -> str:
    """What an ended process wrote to stderr (once nothing holds its pipes any more)."""
    return process.communicate(timeout=5)[1].decode(errors="replace")


def test_a_killed_console_leaves_no_process_behind(launch: Launch) -> None:
    console = start_console(launch)
    assert len(descendants(console.pid)) >= 2  # a drawing process and the resource tracker
    assert stop(console, signal.SIGKILL) == (-signal.SIGKILL, set())


def test_sigterm_ends_the_console_like_end_of_input(launch: Launch) -> None:
    console = start_console(launch)
    assert len(descendants(console.pid)) >= 2
    assert stop(console, signal.SIGTERM) == (0, set())
    assert "Traceback" not in errors(console)


def test_sigterm_stops_the_host_and_its_drawing_processes(tmp_path: Path, launch: Launch) -> None:
    bot = launch("-c", HOST_SCRIPT, f"sqlite+aiosqlite:///{tmp_path / 'host.db'}")
    read_until(bot, b"running")
    assert len(descendants(bot.pid)) >= 2
    assert stop(bot, signal.SIGTERM) == (0, set())
    assert "Traceback" not in errors(bot)
