"""How often our cube actions clearly disagree with GNU Backgammon's 2-ply cube analysis.

    python benchmarks/cube_agreement.py [--levels expert world_class] [--reference FILE]

The reference is ``tests/data/gnubg-cube-reference.jsonl`` (gnubg 1.07's own analyses, made
by ``benchmarks/cube_reference.py``; gnubg is not needed here), or another file it made
(``--reference``, e.g. a fresh draw of positions with its ``--seed``). For every position and score
context our cube action at each level (the double and the answer to it) is judged in gnubg's
2-ply equities (``tests.cube_reference.action_loss``): giving away more than 0.02 (normalised
to the cube; EMG in a match) is a clear disagreement, less a close call. gnubg's own 0-ply
action, judged the same way, is the floor: a quick evaluation agreeing as well as gnubg's
own does. Figures per context and stratum ("any": positions as they came; "close": close
decisions by gnubg's test), then one JSON line with all of them.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.api import CubeAdvice, Level  # noqa: E402
from engine.backgammon_cube import cube_advice  # noqa: E402
from tests.cube_reference import (  # noqa: E402
    BEAVER,
    CLEAR,
    PASS,
    TAKE,
    ReferenceCase,
    action_loss,
    case_from_json,
    gnubg_action,
    reference_cases,
)

FLOOR = "gnubg_0ply"


def answer_of(advice: CubeAdvice) -> str:
    if advice.beaver:
        return BEAVER
    return TAKE if advice.take else PASS


def our_loss(case: ReferenceCase, level: Level) -> float:
    advice = cube_advice(case.situation(), level)
    beavers = case.context.beavers
    return action_loss(case.best, double=advice.double, answer=answer_of(advice), beavers=beavers)


def floor_loss(case: ReferenceCase) -> float:
    beavers = case.context.beavers
    double, answer = gnubg_action(case.by_ply[0], beavers)
    return action_loss(case.best, double=double, answer=answer, beavers=beavers)


def read_cases(path: Path) -> tuple[ReferenceCase, ...]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return tuple(case_from_json(line) for line in lines if line.strip())


def rate(clear: int, cases: int) -> float:
    return round(100 * clear / cases, 1) if cases else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", nargs="+", default=["expert", "world_class"])
    parser.add_argument(
        "--reference", type=Path, help="another reference file (default: the cached one)"
    )
    arguments = parser.parse_args()
    levels = [Level(name) for name in arguments.levels]
    judges = [FLOOR, *(level.value for level in levels)]

    cases = reference_cases() if arguments.reference is None else read_cases(arguments.reference)
    clear: dict[tuple[str, str, str], int] = defaultdict(int)
    counted: dict[tuple[str, str], int] = defaultdict(int)
    seconds: dict[str, float] = defaultdict(float)
    for case in cases:
        context, stratum = case.context.name, case.stratum
        counted[(context, stratum)] += 1
        clear[(context, stratum, FLOOR)] += floor_loss(case) > CLEAR
        for level in levels:
            started = time.perf_counter()
            loss = our_loss(case, level)
            seconds[level.value] += time.perf_counter() - started
            clear[(context, stratum, level.value)] += loss > CLEAR

    contexts = list(dict.fromkeys(case.context.name for case in cases))
    strata = ("any", "close")
    report: dict[str, object] = {}
    header = f"{'context':38} {'stratum':8} {'cases':>5}  " + "  ".join(
        f"{judge:>12}" for judge in judges
    )
    print(header)
    for context in contexts:
        entry: dict[str, object] = {}
        for stratum in strata:
            cases_here = counted[(context, stratum)]
            if not cases_here:
                continue
            figures = {judge: clear[(context, stratum, judge)] for judge in judges}
            entry[stratum] = {"cases": cases_here, "clear": figures}
            cells = "  ".join(
                f"{figures[judge]:>4} {rate(figures[judge], cases_here):>5}%" for judge in judges
            )
            print(f"{context:38} {stratum:8} {cases_here:>5}  {cells}")
        report[context] = entry
    totals: dict[str, object] = {}
    for stratum in (*strata, "all"):
        chosen = strata if stratum == "all" else (stratum,)
        cases_here = sum(counted[(c, s)] for c in contexts for s in chosen)
        figures = {
            judge: sum(clear[(c, s, judge)] for c in contexts for s in chosen) for judge in judges
        }
        totals[stratum] = {
            "cases": cases_here,
            "clear": figures,
            "percent": {judge: rate(figures[judge], cases_here) for judge in judges},
        }
        cells = "  ".join(
            f"{figures[judge]:>4} {rate(figures[judge], cases_here):>5}%" for judge in judges
        )
        print(f"{'total':38} {stratum:8} {cases_here:>5}  {cells}")
    timing = {level: round(1000 * total / len(cases), 2) for level, total in seconds.items()}
    print(
        json.dumps(
            {
                "benchmark": "cube_agreement",
                "clear_above": CLEAR,
                "reference": "gnubg 1.07 2-ply",
                "floor": FLOOR,
                "totals": totals,
                "contexts": report,
                "ms_per_cube_action": timing,
            }
        )
    )


if __name__ == "__main__":
    main()
