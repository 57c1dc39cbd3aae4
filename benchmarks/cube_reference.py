"""Make ``tests/data/gnubg-cube-reference.jsonl``: GNU Backgammon's cube analyses of cube
decision points in every score context of ``tests/cube_reference.py``.

    python benchmarks/cube_reference.py [--games 240] [--examined 1200] [--per-stratum 40]
                                        [--seed TEXT --output FILE]

It needs Debian's ``gnubg`` (1.07). Positions come from games the engine plays against itself
(cubeless, at four strengths: no noise, gnubg's intermediate and beginner noise, and random
plays) and from ``tests/data/gnubg-plays-2000.jsonl``; every position before a roll is a
candidate. Each context draws a seeded sample of candidates and keeps two strata: "any", the
sample's first positions as they come (every moment before a roll is a cube decision,
however clear), and "close", the first of the rest that gnubg's 0-ply finds close by its
own test (:func:`close_decision`); where the cube is not available, "any" only. The kept
positions are analysed at 0-ply and 2-ply (gnubg's defaults otherwise: pruning nets,
cubeful, no noise), and that is what the file holds. The positions are the only thing our
engine contributes; every number in the file is gnubg's.

``--seed`` draws another set of positions (other games, other samples) into ``--output``: a
fresh set to check that a change to the cube agrees better with gnubg beyond the cached file
(``benchmarks/cube_agreement.py --reference``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.api import Level, Situation  # noqa: E402
from engine.backgammon import rank_plays  # noqa: E402
from engine.decide import noisy_choice  # noqa: E402
from gammon import Position, legal_plays  # noqa: E402
from gammon.position import CHECKERS, OFF  # noqa: E402
from tests.cube_reference import (  # noqa: E402
    CONTEXTS,
    DATA,
    CubeContext,
    GnubgCube,
    answer_equities,
    case_to_json,
)
from tests.gnubg_runner import cube_analyses  # noqa: E402

PLAYS = ROOT / "tests" / "data" / "gnubg-plays-2000.jsonl"
STYLES = {"expert": 0.0, "intermediate": 0.04, "beginner": 0.06, "random": None}
"""How the engine's games are played: the noise added to each play's equity (gnubg's level
presets), or None for uniformly random plays."""
CLOSE = 0.16
"""How far behind the best action a double may be for the decision to count as close: gnubg's
threshold (``isCloseCubedecision``), also the one of our analysis (``engine.analysis_cube``)."""
GNUBG_TIMEOUT = 3 * 3600


def game_positions(style: str, game: int, seed: str = "") -> Iterator[Position]:
    """The positions before each roll of one cubeless game, the player on roll's view."""
    rng = random.Random(f"cube-reference{seed}:{style}:{game}")
    noise = STYLES[style]
    position = Position.start()
    first = True
    while True:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        if first:
            while dice[0] == dice[1]:
                dice = (rng.randint(1, 6), rng.randint(1, 6))
            first = False
        else:
            yield position
        plays = legal_plays(position, dice)
        if not plays:
            position = position.swapped()
            continue
        if noise is None:
            result = rng.choice(plays).result
        else:
            ranked = rank_plays(Situation(position, cube_enabled=False), dice, Level.EXPERT)
            chosen = noisy_choice(ranked, noise, rng)
            result = Position.from_id(chosen.result_id)
        if CHECKERS in (result.player[OFF], result.opponent[OFF]):
            return
        position = result


def candidates(games: int, seed: str = "") -> dict[str, str]:
    """Position ID -> where it comes from, in a fixed order."""
    found: dict[str, str] = {}
    for game in range(games):
        style = list(STYLES)[game % len(STYLES)]
        for turn, position in enumerate(game_positions(style, game, seed)):
            found.setdefault(position.id(), f"engine games, {style}, game {game}, turn {turn}")
    for line in PLAYS.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        found.setdefault(row["pos_id"], f"gnubg-plays-2000.jsonl line {row['i']}")
    return found


def close_decision(cube: GnubgCube, context: CubeContext) -> bool:
    """gnubg's own test for a cube decision worth counting (``isCloseCubedecision``): a
    double, answered best, is worth within :data:`CLOSE` of the best action."""
    doubled = min(answer_equities(cube, context.beavers).values())
    return cube.available and cube.no_double - doubled < CLOSE


def choose(
    context: CubeContext, sample: list[str], screened: Iterator[dict[str, Any]], per_stratum: int
) -> list[tuple[str, str]]:
    """(stratum, Position ID) of one context: the sample's first positions as they come
    ("any"), then the first close decisions among the rest ("close"). Where the cube is not
    available, "any" only."""
    chosen = [("any", position_id) for position_id in sample[:per_stratum]]
    close = 0
    for position_id in sample[per_stratum:]:
        cube = GnubgCube.from_json(next(screened)["0"])
        if close < per_stratum and close_decision(cube, context):
            chosen.append(("close", position_id))
            close += 1
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=240)
    parser.add_argument("--examined", type=int, default=1200, help="candidates per context")
    parser.add_argument("--per-stratum", type=int, default=40)
    parser.add_argument(
        "--seed", default="", help="another draw of positions (default: the cached file's)"
    )
    parser.add_argument("--output", type=Path, default=DATA)
    arguments = parser.parse_args()
    seed = f":{arguments.seed}" if arguments.seed else ""
    per_stratum = arguments.per_stratum

    started = time.monotonic()
    pool = candidates(arguments.games, seed)
    ids = list(pool)
    print(f"{len(ids)} candidate positions ({time.monotonic() - started:.0f} s)", flush=True)
    samples = {
        context.name: random.Random(f"cube-reference{seed}:{context.name}").sample(
            ids, min(arguments.examined, len(ids))
        )
        for context in CONTEXTS
    }
    screening = [
        context.request(position_id, (0,))
        for context in CONTEXTS
        for position_id in samples[context.name][per_stratum:]
    ]
    screened = iter(cube_analyses(screening, GNUBG_TIMEOUT))
    chosen: list[tuple[CubeContext, str, str]] = []
    for context in CONTEXTS:
        picked = choose(context, samples[context.name], screened, per_stratum)
        chosen.extend((context, stratum, position_id) for stratum, position_id in picked)
        print(f"{context.name}: {len(picked)} kept", flush=True)
    print(f"screened ({time.monotonic() - started:.0f} s)", flush=True)
    answers = cube_analyses(
        [context.request(position_id, (0, 2)) for context, _, position_id in chosen],
        GNUBG_TIMEOUT,
    )
    lines = [
        case_to_json(context, stratum, position_id, pool[position_id], answer)
        for (context, stratum, position_id), answer in zip(chosen, answers, strict=True)
    ]
    arguments.output.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(lines)} cases to {arguments.output} ({time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
