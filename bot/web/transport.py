"""aiohttp's HTTP protocol as the bot's web port speaks it.

- Requests are small: a request line of at most :data:`MAX_LINE` bytes (the pages' addresses
  are under a hundred characters), headers of at most :data:`MAX_FIELD` bytes each and
  :data:`MAX_HEADERS` of them; the application reads no body of more than a kilobyte. Anything
  longer is a 400.
- A bad request (a space inside the address, a header too long, no HTTP at all) is answered
  400 with one short warning in the log, at most one a minute (:class:`LogTally`), and never a
  traceback: anyone can send one, by the thousand.
- No answer names the software or its versions (aiohttp's default ``Server`` header is
  ``Python/3.11 aiohttp/3.x``): the server is called :data:`SERVER_NAME`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

from aiohttp import hdrs, web
from aiohttp.web_request import BaseRequest

from bot.web.log_tally import LogTally

logger = logging.getLogger(__name__)

SERVER_NAME = "gammonbot"
MAX_LINE = 2048
MAX_FIELD = 8190
MAX_HEADERS = 64


class _PoliteProtocol(web.RequestHandler):
    """aiohttp's protocol, answering bad requests without a traceback or a version."""

    def __init__(self, manager: web.Server, bad_requests: LogTally, **settings: Any) -> None:
        super().__init__(manager, **settings)
        self._bad_requests = bad_requests

    def handle_error(
        self,
        request: BaseRequest,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> web.StreamResponse:
        if status >= 500:  # a fault of ours: aiohttp logs it with its traceback
            answer = super().handle_error(request, status, exc, message)
        else:
            answer = _bad_request(request, status)
            why = type(exc).__name__ if exc is not None else "unreadable"
            self._bad_requests.note(
                f"web port: answered {status} to a bad request from {request.remote} ({why})"
            )
        answer.headers[hdrs.SERVER] = SERVER_NAME
        return answer


def _bad_request(request: BaseRequest, status: int) -> web.Response:
    if request.writer.output_size > 0:  # as aiohttp: an answer has begun, nothing can follow
        raise ConnectionError("an answer was being sent when the request turned out bad")
    phrase = HTTPStatus(status).phrase
    answer = web.Response(status=status, text=f"{status} {phrase}\n")
    answer.force_close()
    return answer


def http_protocols(
    runner: web.AppRunner, keepalive_timeout: float
) -> Callable[[], asyncio.Protocol]:
    """A factory of the HTTP protocol serving ``runner``'s application (set up)."""
    server = runner.server
    assert server is not None, "runner.setup() first"
    loop = asyncio.get_running_loop()
    bad_requests = LogTally(logger)

    def protocol() -> asyncio.Protocol:
        return _PoliteProtocol(
            server,
            bad_requests,
            loop=loop,
            keepalive_timeout=keepalive_timeout,
            max_line_size=MAX_LINE,
            max_field_size=MAX_FIELD,
            max_headers=MAX_HEADERS,
            access_log=None,
        )

    return protocol
