"""The bot's decisions while hints wait for the engine: do they queue behind them?

Forty people play the bot (7-point matches at expert, SQLite, no pictures, the engine in its
worker processes as the host runs it). In each round, 40 ``/hint`` requests (world class) go to
the core at once, either all from one player or one from each of the 40; once every one of them
has reached the engine or been answered without it, the bot's decisions (``Computer.decide`` at
expert, the call behind every bot move, on positions of ``tests/data/gnubg-plays-2000.jsonl``)
are timed one after another while the hints are still being computed. The same decisions
without any hint are the floor.

Prints one JSON object as its last line: per scenario the decisions' median and p99, how many
were timed while hints were still outstanding, and the hints' own answer times and refusals.

    python benchmarks/hints_vs_bot.py [--rounds 3] [--decisions 50] [--hints 40]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.engine import _states
from bot.core.computer.computer import Computer
from bot.core.model import Actor, ChatRef, Message, Request
from bot.core.service import Core
from engine.api import Hint, Level, Situation
from gammon.flow import MatchState
from storage import Database

PLATFORM = "bench"


class CountingComputer(Computer):
    """The real engine, counting the hints that reach it (and which request asked each)."""

    def __init__(self) -> None:
        super().__init__()
        self.entered: set[asyncio.Task[object]] = set()
        self.outstanding = 0

    async def hint(self, situation: Situation, dice: tuple[int, int] | None, level: Level) -> Hint:
        task = asyncio.current_task()
        if task is not None:
            self.entered.add(task)
        self.outstanding += 1
        try:
            return await super().hint(situation, dice, level)
        finally:
            self.outstanding -= 1


def _figures(milliseconds: list[float]) -> dict[str, float]:
    values = sorted(milliseconds)
    p99 = values[min(len(values) - 1, round(0.99 * (len(values) - 1)))]
    return {
        "count": len(values),
        "median_ms": round(statistics.median(values), 2),
        "p99_ms": round(p99, 2),
        "max_ms": round(values[-1], 2),
    }


class Bench:
    def __init__(self, core: Core, computer: CountingComputer, states: list[MatchState]) -> None:
        self.core = core
        self.computer = computer
        self.states = states
        self.events = 0

    async def say(
        self, name: str, command: str | None, argument: str = "", token: str | None = None
    ) -> list[Message]:
        self.events += 1
        request = Request(
            Actor(PLATFORM, name, name.title()),
            ChatRef(PLATFORM, f"chat-{name}"),
            command=command,
            argument=argument,
            token=token,
            event_id=f"e{self.events}",
        )
        return await self.core.handle(request)

    async def start_match(self, name: str, length: str) -> None:
        """``/play``, then the [Start] under its offer, as a player begins a match."""
        offer = await self.say(name, "play", length)
        [start] = [button for button in offer[0].buttons if button.label == "Start"]
        await self.say(name, None, token=start.token)

    async def decisions(self, count: int, seed: int) -> tuple[list[float], int]:
        """``count`` bot decisions timed one after another; how many ended with hints still
        being computed."""
        spent, under_load = [], 0
        for number in range(count):
            state = self.states[(seed + number) % len(self.states)]
            started = time.perf_counter()
            await self.computer.decide(state, 0, Level.EXPERT, seed + number)
            spent.append((time.perf_counter() - started) * 1000)
            under_load += self.computer.outstanding > 0
        return spent, under_load

    async def timed_hint(self, name: str) -> tuple[float, str]:
        started = time.perf_counter()
        answer = await self.say(name, "hint")
        return (time.perf_counter() - started) * 1000, answer[0].text if answer else ""

    async def round(self, askers: list[str], decisions: int, seed: int) -> Round:
        hints = [asyncio.create_task(self.timed_hint(name)) for name in askers]
        while not all(task.done() or task in self.computer.entered for task in hints):
            await asyncio.sleep(0.002)
        computed = [task in self.computer.entered for task in hints]
        spent, under_load = await self.decisions(decisions, seed)
        answers = await asyncio.gather(*hints)
        self.computer.entered.clear()
        pairs = zip(answers, computed, strict=True)
        refusals = {text for (_ms, text), engine in pairs if not engine}
        return Round(spent, under_load, sum(computed), [ms for ms, _text in answers], refusals)


@dataclass
class Round:
    decisions: list[float]  # milliseconds, in the order they were made
    under_load: int  # decisions that ended while hints were still being computed
    hints_computed: int  # hints that reached the engine (the others were refused)
    hint_ms: list[float]
    refusals: set[str]


async def scenario(
    bench: Bench, askers: list[str], rounds: int, decisions: int
) -> dict[str, object]:
    results = [await bench.round(askers, decisions, seed=number * 1000) for number in range(rounds)]
    refusals = set().union(*(result.refusals for result in results))
    figures: dict[str, object] = {
        "bot_decisions": _figures([ms for result in results for ms in result.decisions]),
        # The first decision of each round is the one that would queue behind the hints.
        "first_decision_of_each_round_ms": [round(result.decisions[0], 2) for result in results],
        "decisions_timed_while_hints_outstanding": sum(result.under_load for result in results),
        "hints_asked": len(askers) * rounds,
        "hints_that_reached_the_engine": sum(result.hints_computed for result in results),
        "hint_answers": _figures([ms for result in results for ms in result.hint_ms]),
    }
    if refusals:
        figures["answers_without_the_engine"] = sorted(refusals)
    return figures


async def main(rounds: int, decisions: int, hints: int) -> dict[str, object]:
    load_before = os.getloadavg()
    states, _rolling = _states(300)
    with tempfile.TemporaryDirectory() as folder:
        database = Database(f"sqlite+aiosqlite:///{Path(folder) / 'hints.db'}")
        await database.migrate()
        computer = CountingComputer()
        core = Core(database, render_images=False, computer=computer)
        await computer.warm_up()  # as the host does at start
        bench = Bench(core, computer, states)
        players = [f"p{number}" for number in range(hints)]
        for name in players:
            await bench.start_match(name, "7")
        await bench.decisions(20, seed=99)  # the decision worker's analyzers are built
        result: dict[str, object] = {
            "date": datetime.now(UTC).date().isoformat(),
            "cores": os.cpu_count(),
            "load_average_before": [round(value, 2) for value in load_before],
            "no_hints": {
                "bot_decisions": _figures((await bench.decisions(rounds * decisions, seed=5000))[0])
            },
            "one_player_40_hints": await scenario(bench, [players[0]] * hints, rounds, decisions),
            "forty_players_one_hint_each": await scenario(bench, players, rounds, decisions),
            "load_average_after": [round(value, 2) for value in os.getloadavg()],
        }
        computer.close()
        await database.close()
    return result


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--decisions", type=int, default=50, help="bot decisions per round")
    parser.add_argument("--hints", type=int, default=40, help="hints per round (and players)")
    arguments = parser.parse_args()
    print(json.dumps(asyncio.run(main(arguments.rounds, arguments.decisions, arguments.hints))))
