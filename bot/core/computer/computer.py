"""The bot's port into the engine: three pools of workers, so that no kind of work queues
behind another. The bot's decisions have workers of their own, at full priority: a decision
takes milliseconds, and no hint (a world-class search, up to seconds) is ever ahead of it.
Hints have their own worker at a lower priority, and analyses of finished matches one at a
lower priority still, so that neither delays anyone's move. Each pool is a
:class:`~bot.core.runtime.worker_pool.WorkerPool`, as the painter's are: its workers end with
the bot, and a job whose worker died is run once more by a new one."""

from __future__ import annotations

import asyncio
import os
from contextlib import AbstractAsyncContextManager, nullcontext
from typing import Any

from bot.core.runtime.admission import Admission
from bot.core.runtime.worker_pool import WorkerPool
from engine import tasks
from engine.api import Decision, Hint, Level, Situation
from gammon.actions import Action, action_to_dict
from gammon.flow import MatchState
from gammon.match_rules import MatchRules

HINT_NICENESS = 5
"""Hints run a little below the bot's decisions and the event loop (as the boards do): the
kernel gives a decision worker three times a hint worker's share of a busy core."""
ANALYSIS_NICENESS = 10


class Computer:
    """``processes=False`` runs the engine in threads of this process (tests); it is still
    never run on the event loop."""

    def __init__(
        self,
        *,
        processes: bool = True,
        move_workers: int | None = None,
        hint_workers: int | None = None,
    ) -> None:
        cores = os.cpu_count() or 1
        workers = move_workers or max(1, cores - 1)
        self._moves = WorkerPool(workers, processes=processes, name="engine")
        self._hints = WorkerPool(
            hint_workers or max(1, cores // 2),
            niceness=HINT_NICENESS,
            processes=processes,
            name="engine",
        )
        self._analysis = WorkerPool(
            1, niceness=ANALYSIS_NICENESS, processes=processes, name="engine"
        )
        self.admission: Admission | None = None  # the core's: a request waiting steps aside

    async def warm_up(self) -> None:
        """Start every worker and load the engine in the decision and hint workers, before anyone
        waits for them (starting a process costs the bot's process a moment: at start, not
        while people play)."""
        await self._analysis.start()
        await asyncio.gather(self._moves.call(tasks.warm_up), self._hints.call(tasks.warm_up))

    async def decide(self, state: MatchState, seat: int, level: Level, seed: int) -> Decision:
        async with self._aside():
            return await self._moves.call(tasks.decide, tasks.portable(state), seat, level, seed)

    async def hint(self, situation: Situation, dice: tuple[int, int] | None, level: Level) -> Hint:
        async with self._aside():
            return await self._hints.call(tasks.hint, situation, dice, level)

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
        self._hints.close()
        self._analysis.close()
