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
process. Prints one JSON object as its last line.

    python benchmarks/tournaments.py [--repeats 50]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repo

from gammon.tournament import (
    DoubleElimination,
    Format,
    Result,
    RoundRobin,
    SingleElimination,
    Swiss,
)


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=50)
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
    for key, value in figures.items():
        print(f"{key}: {value}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
