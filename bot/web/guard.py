"""The web port's connections: a bounded number, each closed when it dawdles.

aiohttp limits each request (line, header and body sizes) and closes a keep-alive connection
idle between requests, but it holds any number of connections, and one that never completes
its first request stays open for its keep-alive timeout (an hour by default; older versions:
for good): a stranger's 1,100 silent connections once used up the bot's open files.
:class:`ConnectionGuard` wraps the protocol factory of the listening socket, below aiohttp:

- past ``most`` connections, a new one is answered ``503`` and closed at once, with a warning
  in the log at most once a minute (:class:`LogTally`);
- a new connection that has not sent its first request's whole head (line and headers, up to
  the empty line; empty lines before it do not count) within ``head_timeout`` seconds is
  closed: later requests on the same connection are timed by aiohttp's keep-alive timeout,
  from the end of the previous answer;
- a connection whose client takes nothing of an answer for ``send_timeout`` seconds (the send
  buffer stays full and does not shrink) is closed.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable

from bot.web.log_tally import LogTally

logger = logging.getLogger(__name__)

_END_OF_HEAD = re.compile(rb"\r?\n\r?\n")
_BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\n"
    b"Content-Length: 0\r\nConnection: close\r\nRetry-After: 10\r\n\r\n"
)


class ConnectionGuard:
    """A protocol factory for ``loop.create_server``: ``make``'s protocols, at most ``most``
    connections at once, each under the timeouts."""

    def __init__(
        self,
        make: Callable[[], asyncio.Protocol],
        most: int,
        head_timeout: float,
        send_timeout: float,
    ) -> None:
        self._make = make
        self.most = most
        self.head_timeout = head_timeout
        self.send_timeout = send_timeout
        self.open = 0
        self._refusals = LogTally(logger)

    def __call__(self) -> asyncio.Protocol:
        if self.open >= self.most:
            self._refusals.note(
                f"web port: refused a connection, {self.open} open is the most "
                "(WEB_MAX_CONNECTIONS)"
            )
            return _Refused()
        self.open += 1  # counted here, not once connected: the system hands over many at once
        return _Guarded(self._make(), self)

    def closed(self) -> None:
        self.open -= 1


class _Refused(asyncio.Protocol):
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.WriteTransport)
        transport.write(_BUSY)
        transport.close()


class _Guarded(asyncio.Protocol):
    """Passes everything on to ``inner`` (the HTTP protocol), timing the client meanwhile."""

    def __init__(self, inner: asyncio.Protocol, guard: ConnectionGuard) -> None:
        self._inner = inner
        self._guard = guard
        self._transport: asyncio.WriteTransport | None = None
        self._head_due: asyncio.TimerHandle | None = None
        self._head_begun = False
        self._head_seen = b""  # the last bytes received, to find the head's end across chunks
        self._send_due: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.WriteTransport)
        self._transport = transport
        loop = asyncio.get_running_loop()
        self._head_due = loop.call_later(self._guard.head_timeout, transport.abort)
        self._inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self._head_due is not None:
            self._watch_head(data)
        self._inner.data_received(data)

    def _watch_head(self, data: bytes) -> None:
        seen = self._head_seen + data
        if not self._head_begun:  # empty lines before the request line are no head
            seen = seen.lstrip(b"\r\n")
            self._head_begun = bool(seen)
        if self._head_due is not None and _END_OF_HEAD.search(seen):
            self._head_due.cancel()
            self._head_due = None
            self._head_seen = b""
        else:
            self._head_seen = seen[-3:]

    def eof_received(self) -> bool | None:
        return self._inner.eof_received()

    def pause_writing(self) -> None:
        if self._transport is not None:
            self._watch_sending(self._transport.get_write_buffer_size())
        self._inner.pause_writing()

    def resume_writing(self) -> None:
        self._stop_watching_sending()
        self._inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._head_due is not None:
            self._head_due.cancel()
            self._head_due = None
        self._stop_watching_sending()
        self._guard.closed()
        self._inner.connection_lost(exc)

    def _watch_sending(self, waiting: int) -> None:
        loop = asyncio.get_running_loop()
        self._send_due = loop.call_later(self._guard.send_timeout, self._check_sending, waiting)

    def _check_sending(self, waiting_before: int) -> None:
        transport = self._transport
        if transport is None or transport.is_closing():
            return
        waiting = transport.get_write_buffer_size()
        if waiting >= waiting_before:  # the client took nothing
            transport.abort()
        else:
            self._watch_sending(waiting)

    def _stop_watching_sending(self) -> None:
        if self._send_due is not None:
            self._send_due.cancel()
            self._send_due = None
