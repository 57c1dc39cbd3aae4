"""A stranger floods the web port of a running bot (the console with its web pages, one
process) with more connections than the process may open files: they are refused or timed out,
and the chat, the pages and the process carry on.

The bot runs as ``gammonbot console`` with its open-file limit lowered to 256 and short
timeouts; the flood is 300 connections that send nothing or half a request. Before the web
port's limits, this ran the process out of files: every accept failed with a traceback, and
the next board picture ended the console with "Too many open files".
"""

from __future__ import annotations

import asyncio
import os
import re
import socket
import sys
import time
from pathlib import Path

FILES = 256  # the bot's open-file limit in this test
FLOOD = 300  # connections: more than the bot may open files
PATIENCE = 60.0  # seconds the test waits for anything at most
ROOT = Path(__file__).resolve().parents[2]
LIMITED_CONSOLE = (
    "import resource, sys\n"
    "hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]\n"
    f"resource.setrlimit(resource.RLIMIT_NOFILE, ({FILES}, hard))\n"
    "from bot.cli import main\n"
    "sys.argv = ['gammonbot', 'console']\n"
    "main()\n"
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Console:
    """The bot's console in a process of its own, spoken to line by line."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process

    async def say(self, line: str) -> str:
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.process.stdin.write(line.encode() + b"\n")
        await self.process.stdin.drain()
        said: list[str] = []
        while True:
            got = await asyncio.wait_for(self.process.stdout.readline(), PATIENCE)
            assert got, f"the console ended; it had said: {''.join(said)}"
            if got == b"--\n":
                return "".join(said)
            said.append(got.decode())


async def hold(port: int, number: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection that sends nothing (even ``number``) or half a request (odd)."""
    reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), PATIENCE)
    if number % 2:
        writer.write(b"GET /m/AAAAAAAAAAAAAAAAAAAAAA HTTP/1.1\r\nHost: bot\r\nAccept: te")
    return reader, writer


async def closed_by_the_server(reader: asyncio.StreamReader) -> bytes:
    """What the server sends on a held connection before closing it."""
    received = b""
    while True:
        try:
            chunk = await asyncio.wait_for(reader.read(4096), PATIENCE)
        except ConnectionResetError:
            return received
        if not chunk:
            return received
        received += chunk


async def page(port: int, path: str) -> tuple[int, str]:
    """A plain page request: status and text, asked again while the server is busy (503, or
    refused); a few seconds at most, as the idle connections time out."""
    deadline = time.monotonic() + PATIENCE
    while True:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(f"GET {path} HTTP/1.1\r\nHost: bot\r\nConnection: close\r\n\r\n".encode())
            answer = await closed_by_the_server(reader)
            writer.close()
        except OSError:
            answer = b""
        status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.") else 0
        if status not in (0, 503) or time.monotonic() > deadline:
            return status, answer.decode("utf-8", "replace")
        await asyncio.sleep(0.1)


async def test_a_flood_of_idle_connections_leaves_the_chat_and_the_pages_working(
    tmp_path: Path,
) -> None:
    port = free_port()
    environment = {
        **os.environ,
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}",
        "CONSOLE_IMAGE_DIR": str(tmp_path / "boards"),
        "PYTHONPATH": str(ROOT),
        "WEB_BASE_URL": f"http://127.0.0.1:{port}",
        "WEB_PORT": str(port),
        "WEB_HEADER_TIMEOUT": "1",
        "WEB_KEEPALIVE_TIMEOUT": "2",
    }
    for token in ("DISCORD_TOKEN", "TELEGRAM_TOKEN", "WEB_MAX_CONNECTIONS"):
        environment.pop(token, None)
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        LIMITED_CONSOLE,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        cwd=tmp_path,
        env=environment,
    )
    console = Console(process)
    held: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
    try:
        await console.say("anna: /challenge @bob 1")
        started = await console.say("bob: [Accept]")
        slug = re.search(rf"http://127\.0\.0\.1:{port}/m/([A-Za-z0-9_-]+)", started)
        assert slug is not None, started

        held = [await hold(port, number) for number in range(FLOOD)]
        board = await console.say("anna: /board")
        assert "(picture: " in board, board
        assert " 13 14 15 16 17 18" in board  # and the text board
        status, text = await page(port, f"/m/{slug.group(1)}")
        assert status == 200, text
        assert "anna" in text
        # Every flooding connection is closed: at once (refused, 503) or after the timeout.
        answers = await asyncio.gather(*(closed_by_the_server(reader) for reader, _ in held))
        refused = [answer for answer in answers if answer]
        assert all(answer.startswith(b"HTTP/1.1 503 ") for answer in refused)
        assert refused  # the web port was full (it holds 64 here: a quarter of the files)
        assert len(refused) < FLOOD  # and the others were timed out
        assert "(picture: " in await console.say("bob: /board")
    finally:
        for _reader, writer in held:
            writer.close()
        if process.stdin is not None:
            process.stdin.close()
        _rest, errors = await asyncio.wait_for(process.communicate(), PATIENCE)
    assert process.returncode == 0, errors.decode()
    log = errors.decode()
    assert "Traceback" not in log
    assert "Too many open files" not in log
    assert "out of system resource" not in log
    assert len(log.splitlines()) <= 3, log  # a warning about the refusals, not one each
