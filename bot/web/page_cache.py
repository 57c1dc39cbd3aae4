"""Pages made once and sent many times: each answer kept for a few seconds.

A match's page linked in a busy chat is asked for by many people at once, and a stranger can
ask for one page thousands of times. Made anew each time, a page takes the event loop for 1-30
ms (the template, a caption for every play), time every chat waits. So each page (HTML) is
kept for ``seconds`` under a key the pages give (:data:`PageKey`: its address, language and
the match's version, so a move shows at once) and sent again as it is.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass

from aiohttp import web
from aiohttp.typedefs import Handler, Middleware
from multidict import CIMultiDict

PageKey = Callable[[web.Request], Awaitable[Hashable | None]]
"""What an answer is kept under; None: not kept (an unknown address, a picture)."""


@dataclass(frozen=True)
class _Kept:
    made: float
    status: int
    body: bytes
    headers: CIMultiDict[str]


def page_cache(
    key_of: PageKey,
    seconds: float = 10.0,
    most: int = 64,
    clock: Callable[[], float] = time.monotonic,
) -> Middleware:
    """A middleware keeping the last ``most`` HTML answers for ``seconds`` each."""
    kept: OrderedDict[Hashable, _Kept] = OrderedDict()

    @web.middleware
    async def cached(request: web.Request, handler: Handler) -> web.StreamResponse:
        key = await key_of(request)
        if key is None:
            return await handler(request)
        found = kept.get(key)
        if found is not None and clock() - found.made < seconds:
            return web.Response(status=found.status, body=found.body, headers=found.headers)
        answer = await handler(request)
        if (
            isinstance(answer, web.Response)
            and answer.status == 200
            and answer.content_type == "text/html"
            and isinstance(answer.body, bytes)
        ):
            kept[key] = _Kept(clock(), answer.status, answer.body, CIMultiDict(answer.headers))
            kept.move_to_end(key)
            while len(kept) > most:
                kept.popitem(last=False)
        return answer

    return cached
