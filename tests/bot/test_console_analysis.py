"""The console never holds an answer back for an analysis: the move that ends a match is
answered (its block ends with ``--``) while the analysis is still running; the analysis is
printed when it is ready, and a script's input ending waits for it."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from bot.console_app.chat import ConsoleChat
from bot.console_app.main import converse
from bot.core.service import Core
from storage import Database
from tests.bot.held_analyses import HeldAnalyses, until
from tests.seeds import fixed_seeds

# Whoever opens resigns at once (either may be on roll first); the other accepts.
TO_THE_END = [
    "alice: /challenge @bob 1",
    "bob: [Accept]",
    "alice: /resign",
    "alice: [Resign]",
    "bob: [Accept]",
    "bob: /resign",
    "bob: [Resign]",
    "alice: [Accept]",
]


class Typed:
    """Input lines as a test types them; ``end()`` is Ctrl-D."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[str] = asyncio.Queue()

    async def readline(self) -> str:
        return await self.queue.get()

    def type(self, line: str) -> None:
        self.queue.put_nowait(line + "\n")

    def end(self) -> None:
        self.queue.put_nowait("")


@dataclass
class Script:
    engine: HeldAnalyses
    out: io.StringIO
    typed: Typed
    running: asyncio.Task[None]

    def blocks(self) -> list[str]:
        return self.out.getvalue().split("--\n")

    async def line(self, text: str) -> str:
        """Type ``text`` and wait for its answer: the block that ends with ``--``."""
        answered = len(self.blocks())
        self.typed.type(text)
        await until(lambda: len(self.blocks()) > answered, f"no answer to {text!r}")
        return self.blocks()[answered - 1]


@pytest.fixture
async def script(migrated_url: str) -> AsyncIterator[Script]:
    database = Database(migrated_url)
    engine = HeldAnalyses()
    core = Core(database, render_images=False, server_seeds=fixed_seeds(), computer=engine)
    out = io.StringIO()
    typed = Typed()
    chat = ConsoleChat(core, out)
    running = asyncio.create_task(
        converse(core.ports, chat, asyncio.Event(), typed, interactive=False, analysis_seconds=0.01)
    )
    try:
        yield Script(engine, out, typed, running)
    finally:
        engine.released.set()
        if not running.done():
            typed.end()
        await asyncio.wait_for(running, 60)
        engine.close()
        await database.close()


async def test_the_end_of_a_match_is_answered_before_its_analysis(script: Script) -> None:
    answers = [await script.line(line) for line in TO_THE_END]
    ended = next(answer for answer in answers if "Match over" in answer)
    assert "Analysis of match" not in ended
    await asyncio.wait_for(script.engine.entered.wait(), 60)  # the analysis runs meanwhile
    assert not script.engine.released.is_set()
    assert "Analysis of match" not in script.out.getvalue()
    after = await script.line("carol: /help")  # the console answers other lines meanwhile
    assert "gammonbot plays backgammon" in after
    script.engine.released.set()
    await until(lambda: "Analysis of match 1" in script.out.getvalue(), "no analysis")
    printed = script.out.getvalue()
    assert printed.index("Match over") < printed.index("Analysis of match 1")
    assert printed.rstrip().splitlines()[-1].startswith("(file: match-1-analysis.txt")


async def test_the_end_of_the_input_waits_for_the_analysis(script: Script) -> None:
    for line in TO_THE_END:
        await script.line(line)
    await asyncio.wait_for(script.engine.entered.wait(), 60)
    script.typed.end()
    await asyncio.sleep(0.05)
    assert not script.running.done()  # the script's analysis is still to come
    script.engine.released.set()
    await asyncio.wait_for(script.running, 60)
    blocks = script.blocks()
    assert len(blocks) == len(TO_THE_END) + 1
    assert blocks[-1].startswith("[bot → #main]\nAnalysis of match 1")
