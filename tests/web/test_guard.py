"""The web port's limits, on real sockets: a bounded number of connections, each closed when it
dawdles, bad requests answered 400 without a traceback, and no version in any answer.

Timeouts are short here (a fraction of a second) and every wait for the server is generous:
the tests wait for what the server does, not for a time it takes.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.core.service import Core
from bot.web.guard import ConnectionGuard
from bot.web.limits import WebLimits
from bot.web.server import WebServer
from storage import Database
from tests.databases import sqlite_copy

PATIENCE = 30.0  # seconds: how long a test waits for the server at most
UNKNOWN = b"GET /m/AAAAAAAAAAAAAAAAAAAAAA HTTP/1.1\r\nHost: test\r\n\r\n"  # a 404


@asynccontextmanager
async def serving(
    tmp_path: Path, migrated_sqlite: Path, limits: WebLimits
) -> AsyncIterator[WebServer]:
    database = Database(sqlite_copy(migrated_sqlite, tmp_path / "guard.db"))
    core = Core(database, render_images=False, web_base_url="http://127.0.0.1")
    server = WebServer(core.ports.pages, "127.0.0.1", 0, limits)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()
        core.ports.workers.computer.close()
        await database.close()


async def connect(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", port)


async def until_closed(reader: asyncio.StreamReader) -> bytes:
    """Everything the server sends until it closes the connection."""
    received = b""
    while True:
        try:
            chunk = await asyncio.wait_for(reader.read(65536), PATIENCE)
        except ConnectionResetError:
            return received
        if not chunk:
            return received
        received += chunk


async def until(condition: object, what: str) -> None:
    """Wait for ``condition()`` (checked every few milliseconds), failing after PATIENCE."""
    assert callable(condition)
    deadline = time.monotonic() + PATIENCE
    while not condition():
        assert time.monotonic() < deadline, f"waited {PATIENCE} s for {what}"
        await asyncio.sleep(0.01)


async def answer(reader: asyncio.StreamReader) -> bytes:
    """One answer's head (the server's, up to the empty line) and body of Content-Length."""
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), PATIENCE)
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return head + await asyncio.wait_for(reader.readexactly(length), PATIENCE)


async def test_connections_past_the_most_are_told_busy_and_closed_at_once(
    tmp_path: Path, migrated_sqlite: Path, caplog: pytest.LogCaptureFixture
) -> None:
    limits = WebLimits(max_connections=3, header_timeout=PATIENCE * 4)
    async with serving(tmp_path, migrated_sqlite, limits) as server:
        guard = server.guard
        assert guard is not None
        assert guard.most == 3
        held = [await connect(server.bound_port) for _ in range(3)]
        await until(lambda: guard.open == 3, "three connections")
        with caplog.at_level(logging.WARNING, logger="bot.web.guard"):
            for _ in range(5):
                reader, writer = await connect(server.bound_port)
                refused = await until_closed(reader)
                writer.close()
                assert refused.startswith(b"HTTP/1.1 503 Service Unavailable\r\n")
        warnings = [record for record in caplog.records if record.name == "bot.web.guard"]
        assert len(warnings) == 1  # not one line per refusal: at most one a minute
        assert "WEB_MAX_CONNECTIONS" in warnings[0].getMessage()
        assert guard.open == 3
        # One of the three leaves: a newcomer is served.
        held[0][1].close()
        await until(lambda: guard.open == 2, "the connection to close")
        reader, writer = await connect(server.bound_port)
        writer.write(UNKNOWN)
        assert (await answer(reader)).startswith(b"HTTP/1.1 404")
        writer.close()
        for _reader, each in held[1:]:
            each.close()
        await until(lambda: guard.open == 0, "every connection to close")


async def test_a_silent_or_half_sent_request_is_closed_after_the_header_timeout(
    tmp_path: Path, migrated_sqlite: Path
) -> None:
    limits = WebLimits(header_timeout=0.5, keepalive_timeout=PATIENCE * 4)
    async with serving(tmp_path, migrated_sqlite, limits) as server:
        started = time.monotonic()
        silent, silent_writer = await connect(server.bound_port)
        half, half_writer = await connect(server.bound_port)
        half_writer.write(b"GET /m/AAAAAAAAAAAAAAAAAAAAAA HTTP/1.1\r\nHost: te")
        blank, blank_writer = await connect(server.bound_port)
        blank_writer.write(b"\r\n\r\n\r\nGET / HTTP/1.1\r\n")  # empty lines are no head
        assert await until_closed(silent) == b""
        assert await until_closed(half) == b""
        assert await until_closed(blank) == b""
        assert time.monotonic() - started >= 0.45  # not before the timeout
        for writer in (silent_writer, half_writer, blank_writer):
            writer.close()
        guard = server.guard
        assert guard is not None
        await until(lambda: guard.open == 0, "the connections to be counted closed")


async def test_a_head_sent_in_pieces_in_time_keeps_its_connection(
    tmp_path: Path, migrated_sqlite: Path
) -> None:
    """The header timeout ends with the first head: the keep-alive connection then stays
    open past it and answers a second request."""
    limits = WebLimits(header_timeout=0.5, keepalive_timeout=PATIENCE * 4)
    async with serving(tmp_path, migrated_sqlite, limits) as server:
        reader, writer = await connect(server.bound_port)
        for piece in (UNKNOWN[:10], UNKNOWN[10:-3], UNKNOWN[-3:]):  # the end split over chunks
            writer.write(piece)
            await writer.drain()
            await asyncio.sleep(0.05)
        assert (await answer(reader)).startswith(b"HTTP/1.1 404")
        await asyncio.sleep(1.0)  # twice the header timeout
        writer.write(UNKNOWN)
        assert (await answer(reader)).startswith(b"HTTP/1.1 404")
        writer.close()


async def test_an_idle_keep_alive_connection_is_closed(
    tmp_path: Path, migrated_sqlite: Path
) -> None:
    limits = WebLimits(header_timeout=PATIENCE * 4, keepalive_timeout=0.5)
    async with serving(tmp_path, migrated_sqlite, limits) as server:
        reader, writer = await connect(server.bound_port)
        writer.write(UNKNOWN)
        assert (await answer(reader)).startswith(b"HTTP/1.1 404")
        assert await until_closed(reader) == b""
        writer.close()


SENT = 8 << 20  # bytes: far more than the socket buffers hold


class Flooding(asyncio.Protocol):
    """Sends SENT bytes as soon as it is connected."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.WriteTransport)
        transport.write(b"x" * SENT)


async def test_an_answer_the_client_does_not_take_is_abandoned() -> None:
    guard = ConnectionGuard(Flooding, most=10, head_timeout=PATIENCE * 4, send_timeout=0.5)
    loop = asyncio.get_running_loop()
    listener = await loop.create_server(guard, "127.0.0.1", 0)
    port = listener.sockets[0].getsockname()[1]
    client = socket.socket()
    client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    client.setblocking(False)
    try:
        await loop.sock_connect(client, ("127.0.0.1", port))
        await until(lambda: guard.open == 1, "the connection")
        await until(lambda: guard.open == 0, "the server to give up on a client reading nothing")
    finally:
        client.close()
        listener.close()
        await listener.wait_closed()


async def test_a_slow_reader_that_keeps_taking_is_not_cut_off() -> None:
    """The client takes at most 256 KiB every 0.05 s: slower than the server sends, so the
    server's buffer stays full for longer than the send timeout, but shrinks within each."""
    guard = ConnectionGuard(Flooding, most=10, head_timeout=PATIENCE * 4, send_timeout=1.0)
    loop = asyncio.get_running_loop()
    listener = await loop.create_server(guard, "127.0.0.1", 0)
    port = listener.sockets[0].getsockname()[1]
    client = socket.socket()
    client.setblocking(False)
    try:
        await loop.sock_connect(client, ("127.0.0.1", port))
        started, taken = time.monotonic(), 0
        while taken < SENT:
            chunk = await asyncio.wait_for(loop.sock_recv(client, 256 << 10), PATIENCE)
            assert chunk, f"cut off after {taken} bytes"
            taken += len(chunk)
            await asyncio.sleep(0.05)
        assert time.monotonic() - started > 1.0  # the answer outlasted the send timeout
        assert guard.open == 1
    finally:
        client.close()
        listener.close()
        await listener.wait_closed()


async def test_a_bad_request_is_a_400_with_one_short_log_line(
    tmp_path: Path, migrated_sqlite: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with serving(tmp_path, migrated_sqlite, WebLimits()) as server:
        with caplog.at_level(logging.DEBUG):
            for _ in range(3):
                reader, writer = await connect(server.bound_port)
                writer.write(b"GET /m/ SLUG HTTP/1.1\r\nHost: test\r\n\r\n")
                answered = await until_closed(reader)
                writer.close()
                assert answered.split(b" ", 1)[1].startswith(b"400 Bad Request\r\n"), answered
                assert b"\r\nServer: gammonbot\r\n" in answered
                assert b"aiohttp" not in answered
                assert b"Python" not in answered
    logged = [record for record in caplog.records if record.levelno >= logging.INFO]
    assert len(logged) == 1, [record.getMessage() for record in logged]
    assert logged[0].exc_info is None
    assert logged[0].exc_text is None
    assert "\n" not in logged[0].getMessage()
    assert "400" in logged[0].getMessage()
    assert "Traceback" not in caplog.text


async def test_no_answer_names_the_server_software(tmp_path: Path, migrated_sqlite: Path) -> None:
    async with serving(tmp_path, migrated_sqlite, WebLimits()) as server:
        for request in (
            UNKNOWN,
            b"GET / HTTP/1.1\r\nHost: test\r\n\r\n",
            b"POST /m/AAAAAAAAAAAAAAAAAAAAAA HTTP/1.1\r\nHost: test\r\nContent-Length: 0\r\n\r\n",
            b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: test\r\n\r\n",  # a line too long
        ):
            reader, writer = await connect(server.bound_port)
            writer.write(request)
            head = (await answer(reader)).split(b"\r\n\r\n")[0]
            writer.close()
            assert head.split(b" ")[1][:1] in (b"2", b"4"), head
            assert b"\r\nServer: gammonbot" in head, head
            assert b"aiohttp" not in head, head
            assert b"Python" not in head, head


async def test_requests_are_small(tmp_path: Path, migrated_sqlite: Path) -> None:
    """A request line of 2 KiB at most (the pages' addresses are under a hundred characters),
    64 headers: aiohttp's defaults allow 8 KiB and 128."""
    long_line = b"GET /m/" + b"A" * 2100 + b" HTTP/1.1\r\nHost: test\r\n\r\n"
    many_headers = (
        b"GET /m/AAAAAAAAAAAAAAAAAAAAAA HTTP/1.1\r\nHost: test\r\n"
        + b"".join(b"X-%d: 1\r\n" % number for number in range(70))
        + b"\r\n"
    )
    async with serving(tmp_path, migrated_sqlite, WebLimits()) as server:
        for request, status in ((UNKNOWN, b"404"), (long_line, b"400"), (many_headers, b"400")):
            reader, writer = await connect(server.bound_port)
            writer.write(request)
            head = await answer(reader)
            writer.close()
            assert head.split(b" ")[1] == status, head[:200]
