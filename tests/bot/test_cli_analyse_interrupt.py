"""Ctrl-C stops ``gammonbot analyse`` cleanly: one line "interrupted", exit 130, no traceback,
no JSON, and no process of it left behind. Stderr is a terminal (a pseudo-terminal), so the
progress bar shows; the interrupt is sent once it has, as a terminal sends it: to the
command's whole process group."""

from __future__ import annotations

import errno
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.bot.long_sessions import played_session

ROOT = Path(__file__).resolve().parents[2]
WAIT = 300.0  # seconds: generous, only a hung command comes near it


def read_until(master: int, wanted: bytes, seen: bytearray, process: subprocess.Popen[str]) -> None:
    """Read the terminal into ``seen`` until ``wanted`` shows (or the command ended)."""
    deadline = time.monotonic() + WAIT
    while wanted not in seen and process.poll() is None and time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 1.0)
        if ready:
            seen.extend(_read(master))


def drain(master: int, seen: bytearray) -> None:
    while chunk := _read(master):
        seen.extend(chunk)


def _read(master: int) -> bytes:
    try:
        return os.read(master, 4096)
    except OSError as error:  # EIO: the command closed its end of the terminal
        if error.errno == errno.EIO:
            return b""
        raise


def _default_interrupt() -> None:
    """A command started from a test runner that ignores SIGINT would inherit that."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals and process groups")
def test_ctrl_c_stops_a_long_analysis_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "session.mat"
    path.write_text(played_session(90), encoding="utf-8")  # minutes of work at world class
    master, terminal = os.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "analyse", str(path), "--level", "world_class"],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=terminal,
        text=True,
        start_new_session=True,  # its own process group, as a terminal's foreground job
        preexec_fn=_default_interrupt,
    )
    os.close(terminal)
    seen = bytearray()
    try:
        read_until(master, b"analysing", seen, process)
        assert b"analysing" in seen, seen.decode(errors="replace")
        os.killpg(process.pid, signal.SIGINT)
        stdout, _ = process.communicate(timeout=WAIT)
        drain(master, seen)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        os.close(master)
    said = seen.decode(errors="replace")
    assert process.returncode == 130, said
    assert "Traceback" not in said
    assert said.rstrip().endswith("interrupted")
    assert stdout == ""
    with pytest.raises(ProcessLookupError):  # nothing of its process group is left
        os.killpg(process.pid, 0)
