"""Pages made a few at a time, after the chats, so that a flood of page requests leaves the
bot to its chats.

Answering a page request takes the event loop (the HTTP exchange, the template), the database
(the bot's one database thread with SQLite) and for a picture a drawing process: all shared
with the chats. Requests past ``at_once`` wait their turn, holding nothing but their
connection, so a chat's request never waits behind more than ``at_once`` of them. And a turn
begins only when no chat request is being answered (``chats_idle``), or after ``patience``
seconds of waiting for that moment: while the chats are busy the pages go on, slowly.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from aiohttp import web
from aiohttp.typedefs import Handler, Middleware

PATIENCE = 0.05
"""Seconds a turn waits at most for the chats to be idle."""
_GLANCE = 0.005  # seconds between two looks at the chats


def page_turns(
    at_once: int,
    chats_idle: Callable[[], bool] = lambda: True,
    patience: float = PATIENCE,
    exempt: Callable[[web.Request], bool] = lambda _request: False,
) -> Middleware:
    """A middleware answering ``at_once`` requests at a time, each after the chats; an
    ``exempt`` request (a board page's stream, a player's action) does not wait its turn."""
    turns = asyncio.Semaphore(at_once)

    @web.middleware
    async def in_turn(request: web.Request, handler: Handler) -> web.StreamResponse:
        if exempt(request):
            return await handler(request)
        async with turns:
            await _after_the_chats(chats_idle, patience)
            return await handler(request)

    return in_turn


async def _after_the_chats(chats_idle: Callable[[], bool], patience: float) -> None:
    if chats_idle():
        return
    loop = asyncio.get_running_loop()
    give_up = loop.time() + patience
    while not chats_idle() and loop.time() < give_up:
        await asyncio.sleep(_GLANCE)
