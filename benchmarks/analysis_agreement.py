"""How our match analysis agrees with GNU Backgammon's 2-ply analysis of the same matches.

    python benchmarks/analysis_agreement.py [--levels expert world_class] [--refresh]

The matches are bot against bot at different levels (5 and 7 points, and a 3-point one for
the tests), played from fixed seeds by ``tests/self_play.py``. Their ``.mat`` files and GNU
Backgammon 1.07's analysis of each (``analyse match`` at 2-ply, read through gnubg's own
Python by ``tests/gnubg_analysis_script.py``) are kept in
``tests/data/gnubg-analysis-reference.json``, so gnubg is only needed with ``--refresh``,
which plays the matches again and asks gnubg anew.

Per match and player: our PR at each level, gnubg's, whether ours is within max(2, 30 %) of
gnubg's, the decisions each counted, and how many of gnubg's three largest errors (by equity
lost) are among our three. The last line is one JSON object: per level the medians and p99 of
the PR difference, the share within the tolerance, the median shared largest errors and the
analysis time (CPU seconds of this process: one core, as the analysis worker has).
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.analysis import analyse_match  # noqa: E402
from engine.analysis_summary import LARGEST  # noqa: E402
from engine.api import Level, MatchAnalysis  # noqa: E402
from gammon.mat_format import read_mat  # noqa: E402
from tests.analysis_reference import (  # noqa: E402
    agrees,
    gnubg_player,
    shared_errors,
)
from tests.self_play import SelfPlay, mat_text  # noqa: E402

REFERENCE = ROOT / "tests" / "data" / "gnubg-analysis-reference.json"
PLIES = 2

BEGINNER, INTERMEDIATE, ADVANCED, EXPERT = (
    Level.BEGINNER,
    Level.INTERMEDIATE,
    Level.ADVANCED,
    Level.EXPERT,
)
MATCHES = (
    SelfPlay(108, 3, (INTERMEDIATE, ADVANCED)),  # the short one the test has gnubg analyse
    SelfPlay(101, 5, (BEGINNER, INTERMEDIATE)),
    SelfPlay(102, 5, (INTERMEDIATE, ADVANCED)),
    SelfPlay(103, 5, (ADVANCED, EXPERT)),
    SelfPlay(104, 7, (BEGINNER, ADVANCED)),
    SelfPlay(105, 7, (INTERMEDIATE, INTERMEDIATE)),
    SelfPlay(106, 7, (ADVANCED, ADVANCED)),
    SelfPlay(107, 7, (INTERMEDIATE, EXPERT)),
)


def refresh() -> None:
    """Play the matches and have gnubg analyse them; write the reference file."""
    from tests.gnubg_runner import match_analyses

    texts = [mat_text(match) for match in MATCHES]
    answers = match_analyses(texts, PLIES, timeout=3600)
    entries = [
        {"name": match.name, "mat": text, "gnubg": answer}
        for match, text, answer in zip(MATCHES, texts, answers, strict=True)
    ]
    document = {"reference": f"gnubg 1.07, analyse match at {PLIES}-ply", "matches": entries}
    REFERENCE.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")


def reference() -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = json.loads(REFERENCE.read_text(encoding="utf-8"))["matches"]
    return entries


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def analysed(text: str, level: Level) -> tuple[MatchAnalysis, float]:
    record = read_mat(text)
    started = cpu_seconds()
    analysis = analyse_match(record.rules, record.actions, record.names, level)
    return analysis, cpu_seconds() - started


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", nargs="+", default=["expert", "world_class"])
    parser.add_argument("--refresh", action="store_true", help="play and ask gnubg again")
    arguments = parser.parse_args()
    levels = [Level(name) for name in arguments.levels]
    if arguments.refresh:
        refresh()
    differences: dict[str, list[float]] = {level.value: [] for level in levels}
    within: dict[str, list[bool]] = {level.value: [] for level in levels}
    shared: dict[str, list[int]] = {level.value: [] for level in levels}
    seconds: dict[str, dict[str, float]] = {level.value: {} for level in levels}
    print(
        f"{'match':28} {'player':16} {'level':12} {'ours':>6} {'gnubg':>6} {'ok':>3} "
        f"{'decisions':>11} {'largest':>7}"
    )
    for entry in reference():
        record = read_mat(entry["mat"])
        for level in levels:
            analysis, spent = analysed(entry["mat"], level)
            seconds[level.value][entry["name"]] = round(spent, 1)
            for player in (0, 1):
                gnubg = gnubg_player(entry["gnubg"], record.names, player)
                ours = analysis.players[player]
                good = agrees(ours.error_rate, gnubg.error_rate)
                common = shared_errors(analysis, gnubg, player)
                differences[level.value].append(abs(ours.error_rate - gnubg.error_rate))
                within[level.value].append(good)
                shared[level.value].append(common)
                counted = ours.checker_decisions + ours.cube_decisions
                print(
                    f"{entry['name']:28} {record.names[player]:16} {level.value:12} "
                    f"{ours.error_rate:6.2f} {gnubg.error_rate:6.2f} {'yes' if good else 'NO':>3} "
                    f"{counted:>5}/{gnubg.decisions:<5} {common:>3}/{len(gnubg.largest_errors)}"
                )
    summary = {
        level: {
            "players": len(differences[level]),
            "pr_difference_median": round(statistics.median(differences[level]), 2),
            "pr_difference_p99": round(percentile(differences[level], 0.99), 2),
            "within_tolerance": sum(within[level]),
            "shared_largest_median": statistics.median(shared[level]),
            "shared_largest_of": LARGEST,
            "cpu_seconds": seconds[level],
        }
        for level in differences
    }
    print(
        json.dumps(
            {
                "benchmark": "analysis_agreement",
                "reference": f"gnubg 1.07 {PLIES}-ply",
                "tolerance": "max(2, 30%) of gnubg's PR",
                "levels": summary,
            }
        )
    )


if __name__ == "__main__":
    main()
