"""A request waiting for the engine's worker gives its place to others."""

from __future__ import annotations

import asyncio

import pytest

import bot.core.runtime.painter as painter_module
from bot.core.bootstrap import REQUESTS_AT_ONCE
from bot.core.computer.computer import Computer
from bot.core.model import ChatRef
from bot.core.runtime.admission import Admission
from bot.core.runtime.painter import Drawing, Painter
from bot.core.service import Core
from engine.api import Hint, HintPlay, Level, Situation
from storage import Database
from tests.bot.scripted import PLATFORM, Room
from tests.seeds import fixed_seeds


class SlowComputer(Computer):
    """Hints that take as long as the test wants: the worker is busy elsewhere."""

    def __init__(self) -> None:
        super().__init__(processes=False)
        self.release = asyncio.Event()
        self.waiting = 0

    async def hint(self, situation: Situation, dice: tuple[int, int] | None, level: Level) -> Hint:
        async with self._aside():
            self.waiting += 1
            await self.release.wait()
        return Hint(dice, (HintPlay("8/5 6/5", 0.1, 0.0),), None)


async def test_requests_waiting_for_the_engine_do_not_block_others(migrated_url: str) -> None:
    database = Database(migrated_url)
    computer = SlowComputer()
    core = Core(database, render_images=False, server_seeds=fixed_seeds(), computer=computer)
    players = [f"p{number}" for number in range(REQUESTS_AT_ONCE + 2)]
    rooms = [Room(core, ChatRef(PLATFORM, f"chat-{name}")) for name in players]
    for room, name in zip(rooms, players, strict=True):
        await room.command(name, "/play 1")
        await room.press(name, "Start")
    hints = [
        asyncio.create_task(room.command(name, "/hint"))
        for room, name in zip(rooms, players, strict=True)
    ]
    for _wait in range(200):
        if computer.waiting == len(players):
            break
        await asyncio.sleep(0.01)
    assert computer.waiting == len(players)  # more than the places: each gave its place away
    answer = await asyncio.wait_for(Room(core, rooms[0].chat).command("zed", "/help"), 5)
    assert "/play" in answer[0].text
    computer.release.set()
    for hint in await asyncio.gather(*hints):
        assert "8/5 6/5" in hint[0].text
    computer.close()
    await database.close()


async def _enters(admission: Admission) -> bool:
    """Whether a place can be had within a moment."""

    async def enter() -> None:
        async with admission.place():
            pass

    try:
        await asyncio.wait_for(enter(), 0.05)
    except TimeoutError:
        return False
    return True


async def test_a_place_given_aside_is_lent_and_comes_back_once() -> None:
    admission = Admission(1)
    async with admission.aside():  # outside a request: nothing to give
        assert await _enters(admission)
    async with admission.place():
        assert not await _enters(admission)  # the one place is taken
        async with admission.aside():
            assert await _enters(admission)  # lent to another while waiting
        assert not await _enters(admission)  # and taken back
    assert await _enters(admission)


class HeldPainter(Painter):
    """Boards that take as long as the test wants: the drawing process is busy elsewhere."""

    def __init__(self) -> None:
        super().__init__()
        self.release = asyncio.Event()
        self.waiting = 0

    async def paint(self, drawing: Drawing, *, aside: bool = False) -> bytes:
        self.waiting += 1
        await self.release.wait()
        return b"\x89PNG board"


async def test_requests_waiting_for_their_board_do_not_block_others(
    migrated_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    painter = HeldPainter()
    monkeypatch.setattr(painter_module, "_SHARED", painter)
    database = Database(migrated_url)
    core = Core(database, server_seeds=fixed_seeds())  # pictures on
    players = [f"p{number}" for number in range(REQUESTS_AT_ONCE + 2)]
    boards = [
        asyncio.create_task(
            Room(core, ChatRef(PLATFORM, f"chat-{name}")).command(name, "/rules setup")
        )
        for name in players
    ]
    for _wait in range(200):
        if painter.waiting == len(players):
            break
        await asyncio.sleep(0.01)
    assert painter.waiting == len(players)  # more than the places: each gave its place away
    answer = await asyncio.wait_for(Room(core, ChatRef(PLATFORM, "x")).command("zed", "/help"), 5)
    assert "/play" in answer[0].text
    painter.release.set()
    for board in await asyncio.gather(*boards):
        assert board[0].image == b"\x89PNG board"
    await database.close()
