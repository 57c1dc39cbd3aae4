"""The painter's processes: every picture comes back to its own caller, whatever its size,
errors come back as errors, and a painter serves one event loop after another (as the
benchmarks and tests run them)."""

from __future__ import annotations

import asyncio
import time
from functools import partial
from pathlib import Path

import pytest

from bot.core.runtime.painter import Painter


def echo(data: bytes, pause: float = 0.0) -> bytes:
    time.sleep(pause)
    return data


def numbered(number: int) -> bytes:
    return str(number).encode() * (number % 7 + 1)


def fail(text: str) -> bytes:
    raise ValueError(text)


class UnpicklableError(Exception):
    def __init__(self, text: str, extra: object) -> None:  # pickle cannot rebuild it
        super().__init__(text)
        self.extra = extra


def fail_strangely() -> bytes:
    raise UnpicklableError("odd", lambda: None)


async def test_many_drawings_at_once_each_come_back_to_their_caller() -> None:
    painter = Painter(processes=1)
    try:
        answers = await asyncio.gather(*(painter.paint(partial(numbered, n)) for n in range(200)))
        assert answers == [numbered(n) for n in range(200)]
    finally:
        painter.close()


async def test_pictures_and_drawings_larger_than_a_pipe_pass_whole() -> None:
    painter = Painter(processes=1)
    big = bytes(range(256)) * 12_000  # 3 MB each way: the pipes hold 64 KB
    try:
        first, second = await asyncio.gather(
            painter.paint(partial(echo, big, 0.2)), painter.paint(partial(echo, big[::-1]))
        )
        assert first == big
        assert second == big[::-1]
    finally:
        painter.close()


async def test_an_error_in_a_drawing_comes_back_with_its_traceback() -> None:
    painter = Painter(processes=1)
    try:
        with pytest.raises(ValueError, match="no such board") as raised:
            await painter.paint(partial(fail, "no such board"))
        assert "in fail" in str(raised.value.__cause__)  # the drawing process's traceback
        with pytest.raises(Exception, match="pickle"):  # why the error could not be sent back
            await painter.paint(fail_strangely)
        assert await painter.paint(partial(echo, b"still drawing")) == b"still drawing"
    finally:
        painter.close()


async def test_a_caller_that_stops_waiting_leaves_the_others_theirs() -> None:
    painter = Painter(processes=1)
    try:
        slow = asyncio.create_task(painter.paint(partial(echo, b"slow", 0.3)))
        await asyncio.sleep(0.05)
        slow.cancel()
        assert await painter.paint(partial(echo, b"next")) == b"next"
    finally:
        painter.close()


def test_one_painter_serves_one_event_loop_after_another() -> None:
    painter = Painter(processes=1)
    try:
        for number in range(3):
            drawn = asyncio.run(painter.paint(partial(numbered, number)))
            assert drawn == numbered(number)
    finally:
        painter.close()


def echo_noted(folder: Path, name: str, data: bytes, pause: float) -> bytes:
    """``echo``, leaving a file named ``name`` in ``folder`` when it begins."""
    (folder / name).touch()
    return echo(data, pause)


async def test_closing_waits_for_the_drawing_under_way_only(tmp_path: Path) -> None:
    """Closing finishes the drawing under way and cancels what waits. Nothing here depends on
    the machine's speed: the close comes once the first drawing has begun (its file is there),
    and what ran is counted by the files the drawings left, not by the time it took."""
    painter = Painter(processes=1)
    await painter.start()
    drawing = asyncio.ensure_future(
        painter.paint(partial(echo_noted, tmp_path, "first", b"x" * 5_000_000, 0.3))
    )
    queued = [
        asyncio.ensure_future(painter.paint(partial(echo_noted, tmp_path, f"q{n}", b"y", 0.2)))
        for n in range(8)
    ]
    for _ in range(6000):  # a minute at most, however busy the machine
        if (tmp_path / "first").exists():
            break
        await asyncio.sleep(0.01)
    assert (tmp_path / "first").exists(), "the first drawing never began"
    painter.close()
    assert await drawing == b"x" * 5_000_000
    results = await asyncio.gather(*queued, return_exceptions=True)
    cancelled = sum(isinstance(result, asyncio.CancelledError) for result in results)
    # At most the one the pool had already handed to the process besides the first ran.
    ran = len(list(tmp_path.glob("q*")))
    assert cancelled >= 6
    assert ran <= 2
    assert ran + cancelled == 8
