"""Move generation speed over the 2000 GNU Backgammon oracle positions.

Measures ``generate_plays`` (``legal_plays`` without its cache), so every pass does the work.

Prints one JSON object as its last line: positions per second (median of 5 full passes, each
building every Play with its resulting Position), and per-position median, p99 and max in ms.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gammon import Position  # noqa: E402
from gammon.movegen import generate_plays  # noqa: E402

DATA = ROOT / "tests" / "data" / "gnubg-plays-2000.jsonl"
PASSES = 5


def main() -> None:
    cases = []
    for line in DATA.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        cases.append((Position.from_id(row["pos_id"]), (row["dice"][0], row["dice"][1])))

    rates = []
    plays = 0
    for _ in range(PASSES):
        plays = 0
        started = time.perf_counter()
        for position, dice in cases:
            plays += len(generate_plays(position, dice))
        rates.append(len(cases) / (time.perf_counter() - started))

    per_position_ms = []
    for position, dice in cases:
        started = time.perf_counter()
        generate_plays(position, dice)
        per_position_ms.append((time.perf_counter() - started) * 1000)
    per_position_ms.sort()

    print(
        json.dumps(
            {
                "positions": len(cases),
                "plays_per_pass": plays,
                "passes": PASSES,
                "positions_per_second_median": round(statistics.median(rates)),
                "positions_per_second_min": round(min(rates)),
                "position_ms_median": round(statistics.median(per_position_ms), 4),
                "position_ms_p99": round(per_position_ms[int(len(per_position_ms) * 0.99)], 4),
                "position_ms_max": round(per_position_ms[-1], 4),
            }
        )
    )


if __name__ == "__main__":
    main()
