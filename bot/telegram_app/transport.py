"""The bot's calls to the Bot API over aiohttp instead of python-telegram-bot's httpx client.

Every update the bot handles makes two or three Bot API calls (the answer to a button, the
board sent or edited). Through httpx, httpcore, anyio and h11, all pure Python, a call cost
about seven times the CPU it costs through aiohttp's client, whose HTTP parser is compiled
(``benchmarks/scale.py``'s profile: a third of the bot process's time went to httpx; see
docs/benchmarks.md). aiohttp is already what the webhook's inbox and the web pages serve on.

The request is python-telegram-bot's :class:`~telegram.request.BaseRequest`, which leaves the
transport to its subclasses: the library still encodes the parameters, reads the answers and
turns Telegram's errors into its exceptions. What this class adds is what
:class:`~telegram.request.HTTPXRequest` does: its defaults (a pool of 256 connections, kept
open between calls; 5 s to connect, write and read, 20 s to upload a file, 1 s to wait for a
free connection), a proxy from the environment (``HTTPS_PROXY``, ``NO_PROXY``), and its exceptions:
:class:`~telegram.error.TimedOut` for a timeout, :class:`~telegram.error.NetworkError` for
any other failure of the connection.

aiohttp has no timeout for writing a request: the time to wait for a free connection and to
connect bounds the connecting (``connect``, ``sock_connect``), the read timeout bounds each
wait for the answer (``sock_read``), and the sum of all four bounds the whole call, so a
stalled upload still ends.
"""

from __future__ import annotations

import urllib.parse
import urllib.request

import aiohttp
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

POOL_SIZE = 256
READ_TIMEOUT_S = 5.0
WRITE_TIMEOUT_S = 5.0
CONNECT_TIMEOUT_S = 5.0
POOL_TIMEOUT_S = 1.0
MEDIA_WRITE_TIMEOUT_S = 20.0

Timeout = float | None
_DefaultValue = type(BaseRequest.DEFAULT_NONE)  # what a call passes for "the default"


class AiohttpRequest(BaseRequest):
    """Bot API calls over one :class:`aiohttp.ClientSession` (made in :meth:`initialize`,
    as aiohttp wants a running event loop)."""

    def __init__(
        self,
        connection_pool_size: int = POOL_SIZE,
        read_timeout: Timeout = READ_TIMEOUT_S,
        write_timeout: Timeout = WRITE_TIMEOUT_S,
        connect_timeout: Timeout = CONNECT_TIMEOUT_S,
        pool_timeout: Timeout = POOL_TIMEOUT_S,
        media_write_timeout: Timeout = MEDIA_WRITE_TIMEOUT_S,
    ) -> None:
        self._pool_size = connection_pool_size
        self._defaults = (read_timeout, write_timeout, connect_timeout, pool_timeout)
        self._media_write_timeout = media_write_timeout
        self._session: aiohttp.ClientSession | None = None
        self._proxies: dict[tuple[str, str], str | None] = {}  # (scheme, host) -> proxy

    @property
    def read_timeout(self) -> float | None:
        return self._defaults[0]

    async def initialize(self) -> None:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=self._pool_size),
                headers={"User-Agent": self.USER_AGENT},
            )
            self._proxies = {}

    async def shutdown(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: object = BaseRequest.DEFAULT_NONE,
        write_timeout: object = BaseRequest.DEFAULT_NONE,
        connect_timeout: object = BaseRequest.DEFAULT_NONE,
        pool_timeout: object = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        if self._session is None or self._session.closed:
            raise RuntimeError("This AiohttpRequest is not initialized!")
        uploads = request_data is not None and request_data.contains_files
        timeout = self._timeout(uploads, read_timeout, write_timeout, connect_timeout, pool_timeout)
        try:
            async with self._session.request(
                method, url, data=_body(request_data), timeout=timeout, proxy=self._proxy(url)
            ) as response:
                return response.status, await response.read()
        except TimeoutError as error:
            raise TimedOut from error
        except aiohttp.ClientError as error:
            raise NetworkError(f"aiohttp.{type(error).__name__}: {error}") from error

    def _proxy(self, url: str) -> str | None:
        """The proxy the environment names for ``url`` (``HTTPS_PROXY``, ``NO_PROXY``...),
        read once for each host, as httpx reads it once when its client is made: aiohttp's
        ``trust_env`` reads the environment again for every call."""
        address = urllib.parse.urlsplit(url)
        key = (address.scheme, address.hostname or "")
        if key not in self._proxies:
            bypass = urllib.request.proxy_bypass(key[1]) if key[1] else True
            self._proxies[key] = None if bypass else urllib.request.getproxies().get(key[0])
        return self._proxies[key]

    def _timeout(
        self, uploads: bool, read: object, write: object, connect: object, pool: object
    ) -> aiohttp.ClientTimeout:
        """The call's timeouts: those given, else this request's defaults (for an upload the
        media write timeout)."""
        default_read, default_write, default_connect, default_pool = self._defaults
        if uploads:
            default_write = self._media_write_timeout
        read_s = _given(read, default_read)
        connect_s = _given(connect, default_connect)
        pool_s = _given(pool, default_pool)
        write_s = _given(write, default_write)
        parts = (read_s, write_s, connect_s, pool_s)
        return aiohttp.ClientTimeout(
            total=None if None in parts else sum(p for p in parts if p is not None),
            connect=None if connect_s is None or pool_s is None else connect_s + pool_s,
            sock_connect=connect_s,
            sock_read=read_s,
        )


def _given(value: object, default: Timeout) -> Timeout:
    """A timeout passed for one call (a number, or None for none), else the default."""
    if isinstance(value, _DefaultValue) or not (value is None or isinstance(value, int | float)):
        return default
    return None if value is None else float(value)


def _body(request_data: RequestData | None) -> aiohttp.FormData | dict[str, str] | None:
    """The parameters as python-telegram-bot encodes them (strings, objects as JSON): a
    form, multipart when files go with it, as httpx sends them."""
    if request_data is None:
        return None
    fields = request_data.json_parameters
    if not request_data.contains_files:
        return fields
    form = aiohttp.FormData()
    for name, value in fields.items():
        form.add_field(name, value)
    for name, (filename, content, mime) in request_data.multipart_data.items():
        form.add_field(name, content, filename=filename, content_type=mime)
    return form
