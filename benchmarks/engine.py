"""The bot as a player, measured: its decisions, a person's move answered through the core,
the analysis of a 7-point match, other matches' moves while an analysis runs, and the long
nardy player against a random one.

1. Decisions: ``engine.decide.decide`` (what the bot's worker runs) on positions of
   ``tests/data/gnubg-plays-2000.jsonl`` at 5-away/3-away in a 7-point match: checker plays at
   expert and world class, cube decisions (before a roll) at expert.
2. A person's ``/move`` answered by the bot through the core, as the host runs it: SQLite,
   both boards drawn (the painter's process), the engine in its worker process.
3. The analysis of a 7-point match (with the cube) that the engine played against itself at
   intermediate level: CPU seconds of this one process, at the analysis level.
4. Moves of a match between two people (drawn boards) while that analysis runs in the
   low-priority worker, against the same moves without it: how much later they are answered.
5. The long nardy player against a uniformly random legal player: wins of 200 seeded games.

Prints one JSON object as its last line.

    python benchmarks/engine.py [--positions 300] [--moves 60] [--nardy-games 200]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.chat_player import PLATFORM, Player
from bot.core.computer.computer import Computer
from bot.core.model import ChatRef
from bot.core.service import Core
from engine import nardy
from engine.acting import action_for
from engine.analysis import analyse_match
from engine.api import Level
from engine.arena import play_games, random_decider
from engine.decide import decide
from engine.levels import ANALYSIS_LEVEL
from gammon import legal_plays
from gammon.actions import (
    Action,
    CannotMove,
    OpeningRoll,
)
from gammon.flow import MatchState, Phase, apply, new_match
from gammon.match_rules import MatchRules
from gammon.position import Position, Variant
from storage import Database

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "gnubg-plays-2000.jsonl"


def _ms(milliseconds: list[float]) -> dict[str, float]:
    values = sorted(milliseconds)
    p99 = values[min(len(values) - 1, round(0.99 * (len(values) - 1)))]
    return {
        "decisions": len(values),
        "median_ms": round(statistics.median(values), 2),
        "p99_ms": round(p99, 2),
        "max_ms": round(values[-1], 2),
    }


def _states(count: int) -> tuple[list[MatchState], list[MatchState]]:
    """Checker-play states (dice rolled) and cube states (before the roll) of the data file."""
    rules = MatchRules(length=7)
    moving, rolling = [], []
    with DATA.open(encoding="utf-8") as lines:
        for line in lines:
            entry = json.loads(line)
            position = Position.from_id(entry["pos_id"])
            if not legal_plays(position, entry["dice"]):
                continue  # a dance: the rules pass the turn, nothing to decide
            common = {"rules": rules, "position": position, "score": (2, 4)}
            moving.append(MatchState(phase=Phase.MOVING, dice=tuple(entry["dice"]), **common))
            rolling.append(MatchState(phase=Phase.ROLLING, **common))
            if len(moving) == count:
                break
    return moving, rolling


def decisions(count: int) -> dict[str, object]:
    moving, rolling = _states(count)
    results: dict[str, object] = {}
    for name, level, states in (
        ("expert_checker_play", Level.EXPERT, moving),
        ("expert_cube_decision", Level.EXPERT, rolling),
        ("world_class_checker_play", Level.WORLD_CLASS, moving[: max(1, count // 3)]),
        ("world_class_cube_decision", Level.WORLD_CLASS, rolling[: max(1, count // 3)]),
    ):
        decide(states[0], 0, level, 0)  # the analyzers are built once per worker
        spent = []
        for seed, state in enumerate(states):
            started = time.perf_counter()
            decide(state, 0, level, seed)
            spent.append((time.perf_counter() - started) * 1000)
        results[name] = _ms(spent)
    return results


def _roll(dice: random.Random) -> tuple[int, int]:
    return (dice.randint(1, 6), dice.randint(1, 6))


def self_played_match(length: int, seed: int) -> tuple[MatchRules, list[Action]]:
    """A match the engine plays against itself at intermediate level, with the cube."""
    rules = MatchRules(length=length)
    dice = random.Random(seed)
    state = new_match(rules)
    actions: list[Action] = []
    for count in range(20_000):
        if state.phase is Phase.FINISHED:
            return rules, actions
        if state.phase is Phase.OPENING:
            action: Action = OpeningRoll((dice.randint(1, 6), dice.randint(1, 6)))
        elif state.phase is Phase.MOVING and not state.legal_plays():
            action = CannotMove(state.player_on_roll)
        else:
            seat = state.turn
            assert seat is not None
            decision = decide(state, seat, Level.INTERMEDIATE, seed * 100_000 + count)
            action = action_for(state, decision, seat, partial(_roll, dice))
        state = apply(state, action)
        actions.append(action)
    raise RuntimeError("the self-played match did not end")


def analysis(length: int) -> dict[str, object]:
    rules, actions = self_played_match(length, seed=7)
    analyse_match(rules, actions[:40], ("A", "B"), ANALYSIS_LEVEL)  # analyzers built once
    cpu = time.process_time()
    wall = time.perf_counter()
    result = analyse_match(rules, actions, ("A", "B"), ANALYSIS_LEVEL)
    return {
        "match_length": length,
        "level": ANALYSIS_LEVEL.value,
        "decisions": len(result.decisions),
        "cpu_seconds": round(time.process_time() - cpu, 2),
        "wall_seconds": round(time.perf_counter() - wall, 2),
    }


async def match_of(player: Player) -> MatchState | None:
    """The state of the player's active match in their chat."""
    core = player.core
    chat = await core.ports.repositories.chats.upsert_chat(PLATFORM, player.chat.chat_id)
    user = await core.ports.repositories.users.upsert_user(
        PLATFORM, player.actor.user_id, player.actor.name
    )
    loaded = await core.ports.repositories.matches.active_match_for(chat.id, user.id)
    return None if loaded is None else loaded.state


async def moves_against_the_bot(core: Core, wanted: int) -> list[float]:
    """``/move`` requests of people playing the bot, each answered with the bot's turn."""
    rng = random.Random(5)
    timings: list[float] = []  # milliseconds
    for number in range(100):
        person = Player(core, ChatRef(PLATFORM, f"bot-{number}"), f"p{number}")
        await person.say("play", "25 nocube expert")
        await person.press("Start")  # the offer's commitment first, then the seeds
        while len(timings) < wanted:
            state = await match_of(person)
            if state is None:
                break
            if state.phase is Phase.ROLLING:
                await person.say("roll")
            elif state.phase is Phase.MOVING:
                timings.append(await person.say("move", str(rng.choice(state.legal_plays()))))
            else:
                raise RuntimeError(f"unexpected phase {state.phase}")
        if len(timings) >= wanted:
            return timings
    return timings


async def moves_between_people(core: Core, chat_name: str, wanted: int) -> list[float]:
    rng = random.Random(9)
    chat = ChatRef(PLATFORM, chat_name)
    one, two = Player(core, chat, f"{chat_name}-a"), Player(core, chat, f"{chat_name}-b")
    await one.say("challenge", f"@{two.actor.user_id} 25 nocube", mention=two.actor.user_id)
    await two.say("accept")
    timings: list[float] = []  # milliseconds
    while len(timings) < wanted:
        state = await match_of(one)
        if state is None:
            raise RuntimeError("the match ended before enough moves")
        mover = one if state.player_on_roll == 0 else two
        if state.phase is Phase.MOVING:
            timings.append(await mover.say("move", str(rng.choice(state.legal_plays()))))
        else:
            timings.append(await mover.say("roll"))
    return timings


async def core_figures(folder: Path, moves: int, match_length: int) -> dict[str, object]:
    database = Database(f"sqlite+aiosqlite:///{folder / 'engine.db'}")
    await database.migrate()
    computer = Computer()
    core = Core(database, render_images=True, computer=computer)
    await core.ports.workers.start()
    await computer.warm_up()  # as the host does at start
    against_bot = await moves_against_the_bot(core, moves)
    # An analysis waits in the queue: a finished 7-point match, recorded as if played here.
    rules, actions = self_played_match(match_length, seed=11)
    baseline = await moves_between_people(core, "quiet", moves)
    await _queue_finished_match(core, rules, actions)
    analysing = asyncio.create_task(core.ports.analyst.work())
    await asyncio.sleep(0.2)  # the worker has begun
    during = await moves_between_people(core, "busy", moves)
    still_running = not analysing.done()
    posted = await analysing
    core.ports.workers.painter.close()
    computer.close()
    await database.close()
    return {
        "human_move_then_bot_answer_through_the_core": _ms(against_bot),
        "moves_between_people_without_analysis": _ms(baseline),
        "moves_between_people_while_an_analysis_runs": _ms(during),
        "analysis_still_running_after_those_moves": still_running,
        "analyses_posted": len(posted),
    }


async def _queue_finished_match(core: Core, rules: MatchRules, actions: list[Action]) -> None:
    """Store a finished match as the core would have (its analysis is queued with it)."""
    from gammon.flow import Step
    from storage import SecretSeed

    chat = await core.ports.repositories.chats.upsert_chat(PLATFORM, "finished")
    players = [
        await core.ports.repositories.users.upsert_user(PLATFORM, name, name) for name in ("x", "y")
    ]
    state = new_match(rules)
    steps = []
    for action in actions:
        after = apply(state, action)
        steps.append(Step(state, (action,), after))
        state = after
    started = await core.ports.repositories.matches.start_match(
        chat_id=chat.id,
        player_ids=(players[0].id, players[1].id),
        rules=rules,
        client_seeds=("x", "y"),
        seed=SecretSeed(bytes(32)),
        steps=steps[:1],
    )
    await core.ports.repositories.matches.append(
        started.match.info.id, started.match.info.version, steps[1:], then=None
    )  # a match not played to its end: nothing to set off


def nardy_against_random(games: int) -> dict[str, object]:
    rng = random.Random(2026)
    results = play_games(
        lambda state, seat: nardy.decide(state, seat),
        random_decider(rng),
        games,
        seed=15,
        variant=Variant.LONG_NARDY,
    )
    wins, losses = results.wins
    return {"games": games, "wins": wins, "losses": losses, "draws": results.draws}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--nardy-games", type=int, default=200)
    parser.add_argument("--match-length", type=int, default=7)
    options = parser.parse_args()
    report: dict[str, object] = {
        "decisions_at_7_point_score_5_away_3_away": decisions(options.positions)
    }
    print(json.dumps(report), flush=True)
    report["analysis_of_a_match"] = analysis(options.match_length)
    print(json.dumps(report["analysis_of_a_match"]), flush=True)
    with tempfile.TemporaryDirectory() as folder:
        report["core"] = asyncio.run(
            core_figures(Path(folder), options.moves, options.match_length)
        )
    print(json.dumps(report["core"]), flush=True)
    report["long_nardy_player_vs_random"] = nardy_against_random(options.nardy_games)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
