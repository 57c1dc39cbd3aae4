"""A match clock in the console chat (fake time, ``clock=10s+1m``): the caption shows both
reserves as the double and the take are charged, and the clock that ran out is told once. With
the fixed seeds and the session's fixed event ids anna opens with 5-2."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest

from bot.console_app.chat import ConsoleChat
from bot.core.scheduler import Clock
from bot.core.service import Core
from storage import Database
from tests.bot.test_clock import FakeTime
from tests.seeds import fixed_seeds


@pytest.fixture
async def console(
    migrated_url: str,
) -> AsyncIterator[tuple[ConsoleChat, io.StringIO, FakeTime, Clock]]:
    database = Database(migrated_url)
    time = FakeTime()
    core = Core(database, render_images=False, clock=time, server_seeds=fixed_seeds())
    output = io.StringIO()
    chat = ConsoleChat(core, output)
    chat.session = "clock-"  # the event ids, so the client seeds and the dice, are fixed
    yield chat, output, time, core.ports.clock
    await database.close()


async def test_a_timed_double_and_take_then_a_time_out(
    console: tuple[ConsoleChat, io.StringIO, FakeTime, Clock],
) -> None:
    chat, output, time, clock = console
    await chat.line("anna: /challenge @bob 3 clock=10s+1m")
    await chat.line("bob: [Accept]")
    assert "Clock: anna 1:00 · bob 1:00" in output.getvalue()
    time.now += timedelta(seconds=25)  # 15 s beyond anna's delay
    await chat.line("anna: /move 13/8 13/11")
    time.now += timedelta(seconds=12)  # 2 s beyond bob's
    await chat.line("bob: /double")
    time.now += timedelta(seconds=40)  # 30 s beyond anna's
    start = len(output.getvalue())
    await chat.line("anna: [Take]")
    assert "Clock: anna 0:15 · bob 0:58" in output.getvalue()[start:]
    time.now += timedelta(seconds=10 + 58)  # bob lets his delay and reserve run out
    start = len(output.getvalue())
    for message in await clock.clocks():
        chat.show(message)
    told = output.getvalue()[start:]
    assert told.count("bob's time ran out: the match is lost on time.") == 1
    assert "Match over: anna wins 3–0." in told
    assert await clock.clocks() == []
