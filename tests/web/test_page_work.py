"""Pages made a few at a time and kept a few seconds: a flood of page requests costs the chats
little (benchmarks/web.py measures how little)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager

import aiohttp
from aiohttp import web

from bot.web.page_cache import page_cache
from bot.web.page_turns import page_turns

PATIENCE = 30.0


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@asynccontextmanager
async def served(app: web.Application) -> AsyncIterator[str]:
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        yield f"http://127.0.0.1:{site.port}"
    finally:
        await runner.cleanup()


async def test_a_page_is_made_once_while_kept_and_again_for_a_new_version() -> None:
    made: list[str] = []
    version = {"now": 1}
    clock = Clock()

    async def page(request: web.Request) -> web.Response:
        made.append(request.path)
        return web.Response(text=f"<p>version {version['now']}</p>", content_type="text/html")

    async def key(request: web.Request) -> Hashable | None:
        return (request.path, request.query_string, version["now"])

    app = web.Application(middlewares=[page_cache(key, seconds=10.0, clock=clock)])
    app.router.add_get("/page", page)
    async with served(app) as base, aiohttp.ClientSession() as session:

        async def get(path: str) -> tuple[str, str]:
            async with session.get(base + path) as response:
                return await response.text(), response.headers["Content-Type"]

        assert await get("/page") == ("<p>version 1</p>", "text/html; charset=utf-8")
        clock.now += 9.0
        assert await get("/page") == ("<p>version 1</p>", "text/html; charset=utf-8")
        assert made == ["/page"]
        assert await get("/page?lang=de") == ("<p>version 1</p>", "text/html; charset=utf-8")
        assert made == ["/page", "/page"]  # another key
        version["now"] = 2  # a move: the page is made anew at once
        assert await get("/page") == ("<p>version 2</p>", "text/html; charset=utf-8")
        assert len(made) == 3
        clock.now += 10.0  # kept no longer than ten seconds
        assert await get("/page") == ("<p>version 2</p>", "text/html; charset=utf-8")
        assert len(made) == 4


async def test_only_pages_are_kept() -> None:
    made: list[str] = []

    async def picture(request: web.Request) -> web.Response:
        made.append("png")
        return web.Response(body=b"\x89PNG", content_type="image/png")

    async def missing(request: web.Request) -> web.Response:
        made.append("404")
        raise web.HTTPNotFound(text="nothing here")

    async def key(request: web.Request) -> Hashable | None:
        return request.path

    app = web.Application(middlewares=[page_cache(key, clock=Clock())])
    app.router.add_get("/picture", picture)
    app.router.add_get("/missing", missing)
    async with served(app) as base, aiohttp.ClientSession() as session:
        for path in ("/picture", "/missing") * 2:
            async with session.get(base + path) as response:
                await response.read()
    assert made == ["png", "404", "png", "404"]


async def test_pages_are_made_a_few_at_a_time() -> None:
    inside = 0
    most_inside = 0
    gate = asyncio.Event()

    async def page(request: web.Request) -> web.Response:
        nonlocal inside, most_inside
        inside += 1
        most_inside = max(most_inside, inside)
        await gate.wait()
        inside -= 1
        return web.Response(text="page")

    app = web.Application(middlewares=[page_turns(2)])
    app.router.add_get("/page", page)
    async with served(app) as base, aiohttp.ClientSession() as session:

        async def get() -> int:
            async with session.get(base + "/page") as response:
                await response.read()
                return response.status

        asking = [asyncio.ensure_future(get()) for _ in range(6)]
        async with asyncio.timeout(PATIENCE):
            while inside < 2:
                await asyncio.sleep(0.01)
        await asyncio.sleep(0.2)  # the others have arrived by now, and wait
        assert inside == 2
        gate.set()
        assert await asyncio.wait_for(asyncio.gather(*asking), PATIENCE) == [200] * 6
    assert most_inside == 2


async def test_a_page_waits_while_the_chats_are_being_answered() -> None:
    chats_busy = True
    handled: list[str] = []

    async def page(request: web.Request) -> web.Response:
        handled.append(request.path)
        return web.Response(text="page")

    app = web.Application(
        middlewares=[page_turns(2, lambda: not chats_busy, patience=PATIENCE * 4)]
    )
    app.router.add_get("/page", page)
    async with served(app) as base, aiohttp.ClientSession() as session:

        async def get() -> int:
            async with session.get(base + "/page") as response:
                await response.read()
                return response.status

        asking = asyncio.ensure_future(get())
        await asyncio.sleep(0.3)
        assert handled == []
        chats_busy = False
        assert await asyncio.wait_for(asking, PATIENCE) == 200
        assert handled == ["/page"]


async def test_pages_go_on_while_the_chats_are_always_busy() -> None:
    async def page(request: web.Request) -> web.Response:
        return web.Response(text="page")

    app = web.Application(middlewares=[page_turns(2, lambda: False, patience=0.05)])
    app.router.add_get("/page", page)
    async with served(app) as base, aiohttp.ClientSession() as session:
        for _ in range(3):
            async with session.get(base + "/page") as response:
                assert response.status == 200
