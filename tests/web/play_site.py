"""A stand-in for the server's board routes: the page, a fake hello, an act that records what
it got, and a live stream that sends a new state when a test asks. Bound to 127.0.0.1 on a
free port, running its own event loop in a thread."""

from __future__ import annotations

import asyncio
import copy
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from aiohttp import web

from bot.pages.pages import PageText, PlayPageData, PlayUrls, play_page

SLUG = "/m/s3cret/play"
URLS = PlayUrls(
    live=f"{SLUG}/live", hello=f"{SLUG}/hello", act=f"{SLUG}/act", state=f"{SLUG}/state"
)
KEYS = {"k": 0, "k1": 1}  # the private links' keys the fake hello knows, and their seats
INIT_DATA = "user=bob&hash=x"  # Telegram's initData the fake hello takes for bob (seat 1)
REFUSED = "Dieser Link gilt nicht."  # what hello answers to any other key


def _start_side() -> list[int]:
    side = [0] * 26
    for point, count in {6: 5, 8: 3, 13: 5, 24: 2}.items():
        side[point] = count
    return side


def opening_state() -> dict[str, Any]:
    """The opening position, alice (player 0) to play 3-1, with a hand-written part of the
    plays tree: 8/5 6/5 (either order) and 24/23 13/10 (either order)."""
    nodes = [
        {"edges": [[8, 5, 0, 1], [6, 5, 0, 2], [24, 23, 0, 3], [13, 10, 0, 4]], "play": None},
        {"edges": [[6, 5, 0, 5]], "play": None},  # after 8/5
        {"edges": [[8, 5, 0, 5]], "play": None},  # after 6/5
        {"edges": [[13, 10, 0, 6]], "play": None},  # after 24/23
        {"edges": [[24, 23, 0, 6]], "play": None},  # after 13/10
        {"edges": [], "play": "8/5 6/5"},
        {"edges": [], "play": "24/23 13/10"},
    ]
    return {
        "match": 12,
        "version": 40,
        "variant": "backgammon",
        "names": ["alice", "bob"],
        "light": 0,
        "length": 5,
        "score": [0, 1],
        "crawford": False,
        "sides": [_start_side(), _start_side()],
        "phase": "moving",
        "turn": 0,
        "on_roll": 0,
        "dice": [3, 1],
        "opening_dice": None,
        "cube": {"value": 1, "owner": None, "visible": True, "offered": False},
        "can_double": False,
        "beavers": False,
        "resignation": None,
        "pips": [167, 167],
        "clock": {
            "reserve_ms": [60000, 55000],
            "delay_ms": 10000,
            "running": 0,
            "left_ms": 67300,
        },
        "winner": None,
        "plays": {"nodes": nodes},
    }


def after_alice_played() -> dict[str, Any]:
    """The next version: alice played 8/5 6/5, bob to roll."""
    state = copy.deepcopy(opening_state())
    side = state["sides"][0]
    side[8], side[6], side[5] = 2, 4, 2
    state.update(
        version=41, phase="rolling", turn=1, on_roll=1, dice=None, plays=None, can_double=True
    )
    state["pips"] = [163, 167]
    state["clock"] = {
        "reserve_ms": [60000, 55000],
        "delay_ms": 10000,
        "running": 1,
        "left_ms": 65000,
    }
    return state


class PlaySite:
    """The fake routes' state: what act received, what it answers, the states it streams."""

    def __init__(self, state: dict[str, Any], text: PageText) -> None:
        self.state = state
        self.text = text
        self.acts: list[tuple[str | None, dict[str, Any]]] = []  # (Authorization, body)
        self.hellos: list[dict[str, Any]] = []
        self.refusal: str | None = None  # set: act answers 409 with it
        self.act_delay = 0.0  # seconds act takes to answer
        self.loop = asyncio.new_event_loop()
        self.queues: set[asyncio.Queue[dict[str, Any] | None]] = set()
        self.url = ""

    def drop_streams(self) -> None:
        """End every open live stream (as a restarting server does); the page reconnects."""

        def end() -> None:
            for queue in self.queues:
                queue.put_nowait(None)

        self.loop.call_soon_threadsafe(end)

    def push(self, state: dict[str, Any]) -> None:
        """Send ``state`` to every open live stream (and to the page's later requests)."""

        def send() -> None:
            self.state = state
            for queue in self.queues:
                queue.put_nowait(state)

        self.loop.call_soon_threadsafe(send)

    async def page(self, request: web.Request) -> web.Response:
        data = PlayPageData(12, ("alice", "bob"), self.state, URLS)
        page = play_page(data, self.text)
        return web.Response(
            text=page.html,
            content_type="text/html",
            headers={"Content-Security-Policy": page.csp},
        )

    async def hello(self, request: web.Request) -> web.Response:
        body = await request.json()
        self.hellos.append(body)
        if body.get("init_data") == INIT_DATA:
            return web.json_response({"key": "signed-tg", "seat": 1, "name": "bob"})
        link = str(body.get("key")).removeprefix("signed-")  # a key it gave out counts too
        seat = KEYS.get(link)
        if seat is None:
            return web.json_response({"error": REFUSED}, status=403)
        return web.json_response({"key": f"signed-{link}", "seat": seat, "name": "x"})

    async def act(self, request: web.Request) -> web.Response:
        self.acts.append((request.headers.get("Authorization"), await request.json()))
        await asyncio.sleep(self.act_delay)
        if self.refusal is not None:
            return web.json_response({"error": self.refusal}, status=409)
        return web.json_response({"ok": True})

    async def live(self, request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
        )
        await response.prepare(request)
        queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.queues.add(queue)
        await response.write(b"retry: 300\n\n")  # reconnect soon after drop_streams
        try:
            state: dict[str, Any] | None = self.state
            while state is not None:  # None: the site is closing
                await response.write(f"event: state\ndata: {json.dumps(state)}\n\n".encode())
                state = await queue.get()
        finally:
            self.queues.discard(queue)
        return response

    async def close(self, runner: web.AppRunner) -> None:
        """End the open streams, then the server."""
        self.drop_streams()
        await asyncio.sleep(0.05)
        await runner.cleanup()

    async def current(self, request: web.Request) -> web.Response:
        return web.json_response(self.state)

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get(SLUG, self.page)
        app.router.add_post(URLS.hello, self.hello)
        app.router.add_post(URLS.act, self.act)
        app.router.add_get(URLS.live, self.live)
        app.router.add_get(URLS.state, self.current)
        return app


@contextmanager
def serving(site: PlaySite) -> Iterator[PlaySite]:
    """Run ``site`` on 127.0.0.1 (a free port) until the block ends; ``site.url`` is the
    page's address."""
    runner = web.AppRunner(site.app(), shutdown_timeout=0.5)
    started = threading.Event()

    def run() -> None:
        asyncio.set_event_loop(site.loop)
        site.loop.run_until_complete(runner.setup())
        tcp = web.TCPSite(runner, "127.0.0.1", 0)
        site.loop.run_until_complete(tcp.start())
        host, port = runner.addresses[0][:2]
        site.url = f"http://{host}:{port}{SLUG}"
        started.set()
        site.loop.run_forever()
        site.loop.run_until_complete(site.close(runner))
        site.loop.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    started.wait(10)
    try:
        yield site
    finally:
        site.loop.call_soon_threadsafe(site.loop.stop)
        thread.join(10)
