"""An engine whose analyses wait until the test lets them finish: for showing that nothing a
player waits for waits for an analysis."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.core.computer.computer import Computer
from engine.api import Level, MatchAnalysis, PlayerAnalysis
from engine.records import analysis_to_json
from gammon.actions import Action
from gammon.match_rules import MatchRules


class HeldAnalyses(Computer):
    """The engine in threads; an analysis blocks until :attr:`released` is set (and says it
    has begun with :attr:`entered`), then answers with an analysis without decisions."""

    def __init__(self) -> None:
        super().__init__(processes=False)
        self.entered = asyncio.Event()
        self.released = asyncio.Event()

    async def analyse(
        self,
        rules: MatchRules,
        actions: tuple[Action, ...],
        names: tuple[str, str],
        level: Level,
    ) -> dict[str, Any]:
        self.entered.set()
        await self.released.wait()
        players = tuple(PlayerAnalysis(name, 0, 0.0, 0, 0.0, 0.0, 0.0, ()) for name in names)
        return analysis_to_json(MatchAnalysis(level, (players[0], players[1]), ()))


async def until(condition: Any, what: str, seconds: float = 60.0) -> None:
    """Wait until ``condition()`` is true (checked every 10 ms); fail after ``seconds``, which
    only a broken program reaches (a correct one is there at once)."""
    async with asyncio.timeout(seconds):
        while not condition():
            await asyncio.sleep(0.01)
    assert condition(), what
