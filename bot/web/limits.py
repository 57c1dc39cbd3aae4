"""What a stranger may take of the bot through its web port, and what stays for the chats.

The web server runs in the process that answers the chats: every connection to the web port is
an open file of that process, and so are the chats' connections, the database's and the
drawing processes' pipes. Past the open-file limit (``RLIMIT_NOFILE``, 1,024 by default under
systemd) nothing can be opened: no new chat connection, no database connection, no board
picture written. So the web port gets at most half of the limit (:func:`connection_cap`), and
each connection has to get on with it (:class:`WebLimits`' timeouts).

Kept free of aiohttp and Jinja2: the settings read it without starting the web server.
"""

from __future__ import annotations

from dataclasses import dataclass

BACKLOG = 64
"""Connections the system holds for the server to accept. Past :attr:`WebLimits.max_connections`
they are still accepted, only to be closed at once, so up to this many more may be open for a
moment: they are counted against the web port's half of the open files."""
DEFAULT_MOST = 512
"""The most connections by default however high the open-file limit (each one holds buffers)."""


@dataclass(frozen=True)
class WebLimits:
    """The web port's limits (``WEB_MAX_CONNECTIONS``, ``WEB_HEADER_TIMEOUT``,
    ``WEB_KEEPALIVE_TIMEOUT``).

    ``max_connections``: connections open at once; more are answered 503 and closed at once.
    None: a quarter of the open-file limit, at most :data:`DEFAULT_MOST`; a number is lowered
    to what :func:`connection_cap` allows. ``header_timeout``: seconds a new connection has to
    send its first request's line and headers. ``keepalive_timeout``: seconds a connection may
    sit idle between requests (then the next request's head must be complete within it), and
    an answer the client takes nothing of for as long is abandoned. ``pages_at_once``: page
    and picture requests answered at once; more wait their turn, and a turn begins once no
    chat request is being answered (or after a moment: :mod:`bot.web.page_turns`), so a flood
    of page requests leaves the event loop and the database to the chats.
    """

    max_connections: int | None = None
    header_timeout: float = 15.0
    keepalive_timeout: float = 75.0
    pages_at_once: int = 2


def connection_cap(asked: int | None, open_files: int) -> int:
    """The most connections the web port may hold with ``open_files`` as the limit: what was
    asked (by default a quarter of the limit, at most :data:`DEFAULT_MOST`), and never more
    than half the limit less :data:`BACKLOG`; the other half stays for the chats, the database,
    the drawing processes and the files the bot writes.

    >>> connection_cap(None, 1024), connection_cap(None, 65536), connection_cap(None, 256)
    (256, 512, 64)
    >>> connection_cap(1000, 1024), connection_cap(100, 1024), connection_cap(None, 100)
    (448, 100, 1)
    """
    most = open_files // 2 - BACKLOG
    wanted = asked if asked is not None else min(DEFAULT_MOST, open_files // 4)
    return max(1, min(wanted, most))


def open_file_limit() -> int:
    """The process's open-file limit (the soft one, which the system enforces); on Windows,
    which has no such limit for sockets, the C library's for files."""
    try:
        import resource
    except ImportError:  # Windows
        return 512
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft if soft != resource.RLIM_INFINITY else 1 << 20
