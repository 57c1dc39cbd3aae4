"""Pages made a few at a time, so that a flood of page requests leaves the bot to its chats.

Making a page takes the event loop (the template), the database (the bot's one database
thread with SQLite) and for a picture a drawing process: all shared with the chats. Requests
past ``at_once`` wait their turn, holding nothing but their connection; a chat's request never
waits behind more than ``at_once`` pages.
"""

from __future__ import annotations

import asyncio

from aiohttp import web
from aiohttp.typedefs import Handler, Middleware


def page_turns(at_once: int) -> Middleware:
    """A middleware letting ``at_once`` requests be answered at a time, the others in turn."""
    turns = asyncio.Semaphore(at_once)

    @web.middleware
    async def in_turn(request: web.Request, handler: Handler) -> web.StreamResponse:
        async with turns:
            return await handler(request)

    return in_turn
