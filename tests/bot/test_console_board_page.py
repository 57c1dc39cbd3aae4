"""The board page from the console chat: [Open board] prints the player's private link, a
play made on the page through it reaches the console as the next board, and a stranger's
press gets the address to watch."""

from __future__ import annotations

import io
import json
import re
from collections.abc import AsyncIterator, Sequence

import aiohttp
import pytest

from bot.console_app.chat import ConsoleChat
from bot.core.model import Message
from bot.core.service import Core
from bot.web.board import board_pages
from bot.web.server import WebServer
from storage import Database
from tests.seeds import fixed_seeds

_LINK = re.compile(r"(http://127\.0\.0\.1\S*/m/([A-Za-z0-9_-]+)/play)(#key=(\S+))?")


@pytest.fixture
async def console(migrated_url: str) -> AsyncIterator[tuple[ConsoleChat, io.StringIO, int]]:
    database = Database(migrated_url)
    core = Core(
        database, render_images=False, server_seeds=fixed_seeds(), web_base_url="http://127.0.0.1"
    )
    output = io.StringIO()
    chat = ConsoleChat(core, output)
    chat.session = "board-"

    async def deliver(messages: Sequence[Message]) -> None:
        for message in messages:
            chat.show(message)

    pages = board_pages(
        core.ports.boards, core, deliver, telegram_token=None, init_data_max_age=60, key_seconds=600
    )
    server = WebServer(core.ports.pages, "127.0.0.1", 0, board=pages)
    await server.start()
    try:
        yield chat, output, server.bound_port
    finally:
        await server.stop()
        await database.close()


async def test_a_play_made_on_the_page_shows_in_the_console(
    console: tuple[ConsoleChat, io.StringIO, int],
) -> None:
    chat, output, port = console
    await chat.line("anna: /challenge @bob 1")
    await chat.line("bob: [Accept]")
    assert "[Open board]" in output.getvalue()
    start = len(output.getvalue())
    await chat.line("carol: [Open board]")
    watching = _LINK.search(output.getvalue()[start:])
    assert watching is not None
    assert watching.group(3) is None  # no key for someone who does not play
    base = f"http://127.0.0.1:{port}/m/{watching.group(2)}/play"
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{base}/state") as got:
            state = await got.json()
        mover = ("anna", "bob")[state["turn"]]
        start = len(output.getvalue())
        await chat.line(f"{mover}: [Open board]")
        link = _LINK.search(output.getvalue()[start:])
        assert link is not None
        assert link.group(4) is not None
        nodes = state["plays"]["nodes"]
        node = nodes[0]
        while node["play"] is None:
            node = nodes[node["edges"][0][3]]
        start = len(output.getvalue())
        body = {
            "action": "play",
            "version": state["version"],
            "id": "console-page-0001",
            "play": node["play"],
        }
        headers = {"Authorization": f"Bearer {link.group(4)}"}
        async with session.post(f"{base}/act", data=json.dumps(body), headers=headers) as got:
            assert got.status == 200
    shown = output.getvalue()[start:]
    assert f"played {node['play']}" in shown
    assert "[bot → #" in shown  # the chat's board, for everyone
