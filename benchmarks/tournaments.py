"""How long deriving a tournament takes: the work the transaction that ends a tournament's match
does (:mod:`bot.core.tournament.advance`), on the pure formats of :mod:`gammon.tournament`.

- ``swiss_256_pair_round_ms_*``: a 256-player Swiss event after 4 of its 7 rounds (results
  drawn at random with a fixed seed), asked for the view that pairs round 5 (every round-4
  result in);
- ``double_256_advance_ms_*``: a 256-player double elimination halfway through (every match
  of the winners' bracket's first three rounds and the losers' bracket's first four decided),
  asked for the view after one more result: what one match's end costs;
- ``single_64_consolation_advance_ms_*`` and ``round_robin_64_advance_ms_*`` alike, for the
  knockout with consolation and last chance, and 8 groups of 8.

Each figure is the median and p99 of ``--repeats`` views (after two unmeasured ones), in one
process.

And a move inside a tournament's match against a move in an ordinary match, side by side: a
core on SQLite (no pictures: the bot's own work), one chat with a 64-player knockout whose 32
first-round matches are all in play, another with 32 ordinary matches between 64 other
players; ``--moves`` rounds in which every match's player on turn rolls or plays (a random
legal play), the two chats' requests interleaved: ``tournament_request_ms_*`` and
``ordinary_request_ms_*``, and the ratio of the medians (``tournament_to_ordinary``).

Prints one JSON object as its last line.

    python benchmarks/tournaments.py [--repeats 50] [--moves 6]
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
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repo

from benchmarks.chat_player import PLATFORM, Player
from bot.core.model import Actor, ChatRef, Request
from bot.core.service import Core
from gammon.flow import Phase
from gammon.tournament import (
    DoubleElimination,
    Format,
    Result,
    RoundRobin,
    SingleElimination,
    Swiss,
)
from storage import Database
from tests.seeds import fixed_seeds


def _play(
    tournament: Format, players: list[int], until: Callable[[str], bool], seed: int
) -> dict[str, Result]:
    """Results for every ready match that ``until`` accepts, at random, until none is left."""
    rng = random.Random(seed)
    results: dict[str, Result] = {}
    while True:
        view = tournament.view(players, results)
        ready = [p for p in view.ready if p.slot.key not in results and until(p.slot.key)]
        if not ready:
            return results
        for pairing in ready:
            first, second = pairing.players
            assert first is not None
            assert second is not None
            winner, loser = (first, second) if rng.random() < 0.5 else (second, first)
            results[pairing.slot.key] = Result(winner, loser, 5, rng.randrange(5))


def _round(key: str) -> int:
    return int(key.split("-")[-2])


def _times(work: Callable[[], object], repeats: int) -> tuple[float, float]:
    for _ in range(2):
        work()
    spent = []
    for _ in range(repeats):
        started = time.perf_counter()
        work()
        spent.append((time.perf_counter() - started) * 1000)
    spent.sort()
    return statistics.median(spent), spent[min(len(spent) - 1, int(len(spent) * 0.99))]


def _case(
    name: str, tournament: Format, size: int, until: Callable[[str], bool], repeats: int
) -> dict[str, float]:
    players = list(range(1, size + 1))
    results = _play(tournament, players, until, seed=size)
    median, p99 = _times(lambda: tournament.view(players, results), repeats)
    return {f"{name}_ms_median": round(median, 2), f"{name}_ms_p99": round(p99, 2)}


class _Everyone:
    """The benchmark's platform: everyone administers its chats."""

    async def is_admin(self, actor: Actor, chat: ChatRef) -> bool:
        return True


async def _moves_side_by_side(rounds: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        database = Database(f"sqlite:///{folder}/bench.db")
        await database.migrate()
        core = Core(database, render_images=False, server_seeds=fixed_seeds())
        core.register_admins(PLATFORM, _Everyone())
        try:
            cup, friendly = ChatRef(PLATFORM, "cup"), ChatRef(PLATFORM, "friendly")
            entrants = [Player(core, cup, f"t{n:02d}") for n in range(64)]
            pairs = [Player(core, friendly, f"o{n:02d}") for n in range(64)]
            await entrants[0].say("tournament", 'new single 25 "Bench cup"')
            for player in entrants[1:]:
                await player.say("tournament", "join")
            await entrants[0].say("tournament", "start")
            by_name = {player.actor.user_id: player for player in entrants}
            for message in entrants[0].answer:
                for button in message.buttons:
                    if button.label == "Start":
                        starter = by_name[message.mention[0]]
                        await _send(starter, Request(starter.actor, cup, token=button.token))
            for first, second in zip(pairs[::2], pairs[1::2], strict=True):
                await first.say("challenge", "25", mention=second.actor.user_id)
                second.answer = first.answer  # the challenge's [Accept] is for the second
                await second.press("Accept")
            spent: dict[str, list[float]] = {"tournament": [], "ordinary": []}
            rng = random.Random(1)
            for _ in range(rounds):
                for kind, players in (("tournament", entrants), ("ordinary", pairs)):
                    spent[kind] += await _one_turn_each(core, players, rng)
        finally:
            await database.close()
    figures: dict[str, float] = {}
    for kind, times in spent.items():
        times.sort()
        figures[f"{kind}_request_ms_median"] = round(statistics.median(times), 2)
        figures[f"{kind}_request_ms_p99"] = round(times[int(len(times) * 0.99)], 2)
        figures[f"{kind}_requests"] = len(times)
    figures["tournament_to_ordinary"] = round(
        figures["tournament_request_ms_median"] / figures["ordinary_request_ms_median"], 3
    )
    return figures


async def _send(player: Player, request: Request) -> float:
    started = time.perf_counter()
    player.answer = await player.core.handle(request)
    return (time.perf_counter() - started) * 1000


async def _one_turn_each(core: Core, players: list[Player], rng: random.Random) -> list[float]:
    """Every active match of these players: its player on turn rolls or plays once."""
    stores = core.ports.repositories
    spent: list[float] = []
    seen: set[int] = set()
    for player in players:
        chat = await stores.chats.upsert_chat(PLATFORM, player.chat.chat_id)
        user = await stores.users.upsert_user(PLATFORM, player.actor.user_id, player.actor.name)
        loaded = await stores.matches.active_match_for(chat.id, user.id)
        if loaded is None or loaded.info.id in seen:
            continue
        state = loaded.state
        actor = state.turn if state.turn is not None else state.player_on_roll
        if loaded.info.player_ids[actor] != user.id:
            continue  # the other player's turn: they act when their own name comes
        seen.add(loaded.info.id)
        if state.phase is Phase.ROLLING:
            spent.append(await player.say("roll"))
        elif state.phase is Phase.MOVING:
            spent.append(await player.say("move", str(rng.choice(state.legal_plays()))))
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=50)
    parser.add_argument("--moves", type=int, default=6, help="rounds of one turn per match")
    arguments = parser.parse_args()
    figures: dict[str, float] = {}
    figures |= _case(
        "swiss_256_pair_round", Swiss(7), 256, lambda key: _round(key) <= 4, arguments.repeats
    )
    figures |= _case(
        "double_256_advance",
        DoubleElimination(),
        256,
        lambda key: (
            (key.startswith("winners") and _round(key) <= 3)
            or (key.startswith("losers") and _round(key) <= 4)
        ),
        arguments.repeats,
    )
    figures |= _case(
        "single_64_consolation_advance",
        SingleElimination(consolation=True, last_chance=True),
        64,
        lambda key: _round(key) <= 2,
        arguments.repeats,
    )
    figures |= _case(
        "round_robin_64_advance", RoundRobin(8), 64, lambda key: _round(key) <= 4, arguments.repeats
    )
    figures |= asyncio.run(_moves_side_by_side(arguments.moves))
    for key, value in figures.items():
        print(f"{key}: {value}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
