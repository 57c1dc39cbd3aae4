"""The bot's port into the engine: two pools of workers, one for what a player waits for
(the bot's decisions, hints) and one, at a lower priority, for analyses of finished matches,
so that a long analysis never delays anyone's move."""

from __future__ import annotations

import os
from contextlib import AbstractAsyncContextManager, nullcontext
from functools import partial
from typing import Any

from bot.core.admission import Admission
from bot.core.painter import watch_parent
from engine import tasks
from engine.api import Decision, Hint, Level, Situation
from engine.pool import EnginePool
from gammon.actions import Action, action_to_dict
from gammon.flow import MatchState
from gammon.match_rules import MatchRules

ANALYSIS_NICENESS = 10


class Computer:
    """``processes=False`` runs the engine in threads of this process (tests); it is still
    never run on the event loop."""

    def __init__(self, *, processes: bool = True, move_workers: int | None = None) -> None:
        cores = os.cpu_count() or 1
        # A worker exits when the bot is gone (killed: it cannot stop them), like the painter's.
        orphaned = partial(watch_parent, os.getpid())
        workers = move_workers or max(1, cores - 1)
        self._moves = EnginePool(workers, processes=processes, on_start=orphaned)
        self._analysis = EnginePool(
            1, niceness=ANALYSIS_NICENESS, processes=processes, on_start=orphaned
        )
        self.admission: Admission | None = None  # the core's: a request waiting steps aside

    async def warm_up(self) -> None:
        """Start every worker and load the engine in the decision workers, before anyone
        waits for them (starting a process costs the bot's process a moment: at start, not
        while people play)."""
        await self._analysis.start()
        await self._moves.call(tasks.warm_up)

    async def decide(self, state: MatchState, seat: int, level: Level, seed: int) -> Decision:
        async with self._aside():
            return await self._moves.call(tasks.decide, tasks.portable(state), seat, level, seed)

    async def hint(self, situation: Situation, dice: tuple[int, int] | None, level: Level) -> Hint:
        async with self._aside():
            return await self._moves.call(tasks.hint, situation, dice, level)

    def _aside(self) -> AbstractAsyncContextManager[None]:
        return nullcontext() if self.admission is None else self.admission.aside()

    async def analyse(
        self,
        rules: MatchRules,
        actions: tuple[Action, ...],
        names: tuple[str, str],
        level: Level,
    ) -> dict[str, Any]:
        recorded = [action_to_dict(action) for action in actions]
        return await self._analysis.call(tasks.analyse, rules.to_dict(), recorded, names, level)

    def close(self) -> None:
        self._moves.close()
        self._analysis.close()
