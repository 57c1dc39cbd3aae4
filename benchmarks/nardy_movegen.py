"""Long nardy move generation against backgammon on self-play positions of each variant.

Plays seeded random games of both variants to collect a few thousand positions with their
rolls, then times ``generate_plays`` (the generator without its cache) on each. Prints one JSON
object as its last line: median and p99 per position in ms, and positions per second over the
whole set (median of 5 passes), for each variant.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gammon import Position, Variant
from gammon.movegen import generate_plays, legal_plays

POSITIONS = 3000
PASSES = 5


def self_play_positions(
    variant: Variant, rng: random.Random
) -> list[tuple[Position, tuple[int, int]]]:
    cases: list[tuple[Position, tuple[int, int]]] = []
    position = Position.start(variant)
    while len(cases) < POSITIONS:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        cases.append((position, dice))
        plays = legal_plays(position, dice)
        if not plays:
            position = position.swapped()
            continue
        chosen = rng.choice(plays)
        position = Position.start(variant) if chosen.result.opponent[0] == 15 else chosen.result
    return cases


def measure(cases: list[tuple[Position, tuple[int, int]]]) -> dict[str, float]:
    per_position = []
    for position, dice in cases:
        started = time.perf_counter()
        generate_plays(position, dice)
        per_position.append((time.perf_counter() - started) * 1000)
    per_position.sort()
    rates = []
    for _ in range(PASSES):
        started = time.perf_counter()
        for position, dice in cases:
            generate_plays(position, dice)
        rates.append(len(cases) / (time.perf_counter() - started))
    return {
        "position_ms_median": round(statistics.median(per_position), 4),
        "position_ms_p99": round(per_position[int(len(per_position) * 0.99)], 4),
        "positions_per_second_median": round(statistics.median(rates)),
    }


def main() -> None:
    rng = random.Random(20261129)
    result: dict[str, object] = {"positions_per_variant": POSITIONS}
    for variant in (Variant.LONG_NARDY, Variant.BACKGAMMON):
        for key, value in measure(self_play_positions(variant, rng)).items():
            result[f"{variant.value}_{key}"] = value
    print(json.dumps(result))


if __name__ == "__main__":
    main()
