"""Which engine the bot plays backgammon with: bgsage against GNU Backgammon's PyPI module.

Reproducible comparison on the positions of ``tests/data/gnubg-plays-2000.jsonl`` (those with
a choice to make, in file order)::

    python benchmarks/engine_choice.py [--positions N] [--deep-positions M]

It needs ``bgsage`` (a project dependency) and, for the comparison, PyPI ``gnubg``
(``pip install gnubg``: version 1.1.0a16, GPL-3.0-or-later); without gnubg it says so and
measures bgsage alone.

For each candidate and depth it measures the time per checker-play decision (median, p99),
how often its fast choice agrees with its own deepest search and with the other engine, and
the mean equity a choice gives away as judged by each engine's deepest search on all
positions (bgsage 2-ply, gnubg 2-ply). Depths: bgsage counts as XG does (``1ply`` is the plain
net = gnubg's 0-ply; bgsage ``2ply`` ≈ gnubg 1-ply, bgsage ``3ply`` ≈ gnubg 2-ply, run on the
first M positions only since it can take tens of seconds). Both engines play money with a
centred cube and the Jacoby rule (gnubg's ``cubeinfo()`` default). bgsage is timed through
``engine.backgammon`` (what the bot pays, our move list already cached); gnubg by its raw
``findbestmoves`` call.

It also probes whether each API offers cube decisions for money (Jacoby, beavers) and match
play (any score, the Crawford game, post-Crawford): calling them and catching what fails.
Everything gnubg runs in a child process with a timeout, since some of its calls hang.

The last line printed is one JSON object with the results.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import backgammon  # noqa: E402
from engine.api import CubeOwner, CubeVerdict, Level, Situation  # noqa: E402
from engine.backgammon_cube import cube_advice  # noqa: E402
from gammon import Position, legal_plays, parse_play  # noqa: E402
from gammon.position import BAR, OFF  # noqa: E402

DATA = ROOT / "tests" / "data" / "gnubg-plays-2000.jsonl"
INSTALL_GNUBG = "pip install gnubg  (PyPI gnubg 1.1.0a16, GPL-3.0-or-later)"
GNUBG_TIMEOUT = 1800  # seconds for all of gnubg's measurements
PROBE_TIMEOUT = 20  # seconds for one probe that may hang

Case = tuple[Position, tuple[int, int]]


def load_cases(count: int) -> list[Case]:
    cases: list[Case] = []
    for line in DATA.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row["ref_count"] < 2:
            continue
        cases.append((Position.from_id(row["pos_id"]), (row["dice"][0], row["dice"][1])))
        if len(cases) == count:
            break
    return cases


def timing(seconds: Sequence[float]) -> dict[str, float | int]:
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return {
        "decisions": len(ordered),
        "median_ms": round(statistics.median(ordered) * 1000, 2),
        "p99_ms": round(p99 * 1000, 2),
        "max_ms": round(ordered[-1] * 1000, 2),
        "mean_ms": round(statistics.fmean(ordered) * 1000, 2),
    }


# --- bgsage ---------------------------------------------------------------------------------


def bgsage_run(cases: Sequence[Case], depth: str) -> dict[str, Any]:
    """Best play, every play's equity and the time per decision at one depth."""
    choices: list[str] = []
    equities: list[dict[str, float]] = []
    seconds: list[float] = []
    for position, dice in cases:
        legal_plays(position, dice)  # our move list is cached, as it is when the bot plays
        started = time.perf_counter()
        ranked = backgammon.rank_plays_at_depth(Situation(position, jacoby=True), dice, depth)
        seconds.append(time.perf_counter() - started)
        choices.append(ranked[0].result_id)
        equities.append({play.result_id: play.equity for play in ranked})
    return {"choices": choices, "equities": equities, "timing": timing(seconds)}


def bgsage_cube_action(situation: Situation, depth: str) -> Any:
    """bgsage's own ``cube_action`` at ``depth`` (its ``should_double`` and equities)."""
    owners = {CubeOwner.CENTRED: "centered", CubeOwner.DECIDER: "player"}
    return backgammon.analyzer(depth, True).cube_action(
        backgammon.to_board(situation.position),
        situation.cube_value,
        owners.get(situation.cube_owner, "opponent"),
        away1=situation.away[0],
        away2=situation.away[1],
        is_crawford=situation.crawford,
        jacoby=situation.jacoby,
        beaver=situation.beavers,
    )


def bgsage_cube_timing(cases: Sequence[Case]) -> dict[str, Any]:
    """Cube actions: ours (engine.backgammon_cube), and bgsage's own call at 1 and 2 plies."""
    runs = {
        "ours (engine.backgammon_cube)": lambda s: cube_advice(s, Level.EXPERT),
        "1ply (bgsage cube_action)": lambda s: bgsage_cube_action(s, "1ply"),
        "2ply (bgsage cube_action)": lambda s: bgsage_cube_action(s, "2ply"),
    }
    result = {}
    for name, run in runs.items():
        seconds = []
        for position, _dice in cases:
            started = time.perf_counter()
            run(Situation(position, jacoby=True))
            seconds.append(time.perf_counter() - started)
        result[name] = timing(seconds)
    return result


def bgsage_cube_api() -> dict[str, dict[str, Any]]:
    """Probe each cube feature through bgsage and check it is honoured (the expected
    verdicts are textbook ones, see tests/engine/test_cube_textbook.py)."""
    start = Position.start()
    after_31 = parse_play("8/5 6/5", start, (3, 1)).result
    blitz = Position.from_points(
        {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 8: 3}, {25: 2, 13: 5, 8: 3, 6: 5}
    )
    behind = Position.from_points(
        {4: 3, 5: 2, 6: 3, 7: 2, 8: 2, 9: 1, 10: 1, 11: 1}, {3: 1, 4: 3, 5: 3, 6: 5, 8: 2, 9: 1}
    )

    def verdict(situation: Situation) -> CubeVerdict:
        return cube_advice(situation, Level.EXPERT).verdict

    probes = {
        "money": lambda: verdict(Situation(start)) is CubeVerdict.NO_DOUBLE,
        "money_jacoby": lambda: (
            verdict(Situation(blitz, jacoby=True)) is CubeVerdict.DOUBLE_PASS
            and verdict(Situation(blitz)) is CubeVerdict.TOO_GOOD_PASS
        ),
        "money_beavers": lambda: cube_advice(Situation(behind, beavers=True), Level.EXPERT).beaver,
        "money_cube_owned": lambda: (
            verdict(Situation(start, cube_value=2, cube_owner=CubeOwner.OPPONENT))
            is CubeVerdict.NO_CUBE
        ),
        "match_any_score": lambda: all(
            verdict(Situation(after_31, away=away)) in CubeVerdict
            for away in [(7, 7), (3, 9), (9, 3), (2, 2)]
        ),
        "match_crawford_game": lambda: (
            not bgsage_cube_action(
                Situation(after_31, away=(2, 1), crawford=True), "1ply"
            ).should_double
        ),
        "match_post_crawford": lambda: (
            bgsage_cube_action(Situation(after_31, away=(2, 1)), "1ply").should_double
        ),
    }
    results: dict[str, dict[str, Any]] = {}
    for name, probe in probes.items():
        try:
            results[name] = {"available": True, "honoured": bool(probe())}
        except Exception as error:  # a probe reports whatever fails
            results[name] = {"available": False, "error": repr(error)}
    return results


# --- gnubg (in a child process) -------------------------------------------------------------


def gnubg_measure() -> None:
    """Child process: read ``{"cases": [[pos_id, dice]...], "plies": [...]}`` from stdin and
    write every play gnubg lists (move tuple, score) and the time of each call."""
    import gnubg

    job = json.load(sys.stdin)
    cube = gnubg.cubeinfo()  # money, centred cube, Jacoby
    result: dict[str, Any] = {"version": gnubg.version, "plies": {}}
    for plies in job["plies"]:
        context = gnubg.evalcontext(1, plies, 1, 1, 0.0)  # cubeful, deterministic, pruning
        rows = []
        for position_id, dice in job["cases"]:
            board = gnubg.positionfromid(position_id)
            started = time.perf_counter()
            moves = gnubg.findbestmoves(board, cube, context, tuple(dice))
            seconds = time.perf_counter() - started
            rows.append({"s": seconds, "moves": [[list(m["move"]), m["score"]] for m in moves]})
        result["plies"][str(plies)] = rows
    json.dump(result, sys.stdout)


GNUBG_PROBES = {
    "cube_functions": (
        "import gnubg; print(sorted(n for n in dir(gnubg) if 'cube' in n.lower() "
        "or 'double' in n.lower() or 'take' in n.lower()))"
    ),
    "evaluate_sees_the_cube": (
        "import gnubg\n"
        "b = gnubg.positionfromid('4HPwATDgc/ABMA')\n"
        "ec = gnubg.evalcontext(1, 0, 1, 1, 0.0)\n"
        "e = [gnubg.evaluate(b, gnubg.cubeinfo(2, o, 0, 0, (0, 0), 0, 0), ec)[5] "
        "for o in (-1, 0, 1)]\n"
        "print(len(set(e)) > 1)"
    ),
    "match_checker_play_sees_the_score": (
        "import gnubg\n"
        "b = gnubg.positionfromid('4HPwATDgc/ABMA')\n"
        "ec = gnubg.evalcontext(1, 0, 1, 1, 0.0)\n"
        "money = gnubg.findbestmoves(b, gnubg.cubeinfo(), ec, (6, 4))\n"
        "dmp = gnubg.findbestmoves(b, gnubg.cubeinfo(1, -1, 0, 5, (4, 4), 0, 0), ec, (6, 4))\n"
        "print([m['score'] for m in money[:3]] != [m['score'] for m in dmp[:3]])"
    ),
    "crawford_cubeinfo": (
        "import gnubg; print(gnubg.cubeinfo(1, -1, 0, 5, (4, 2), 1, 0)['crawford'] == 1)"
    ),
    "hint_after_setting_up_a_game": (
        "import gnubg\n"
        "gnubg.command('new session')\n"
        "gnubg.command('set board 4HPwATDgc/ABMA')\n"
        "print(type(gnubg.hint()).__name__)"
    ),
}


def gnubg_probe(code: str) -> dict[str, Any]:
    try:
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=PROBE_TIMEOUT
        )
    except subprocess.TimeoutExpired:
        return {"outcome": f"hung (killed after {PROBE_TIMEOUT} s)"}
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
        return {"outcome": f"failed, exit code {done.returncode}", "message": last}
    return {"outcome": "ok", "answer": done.stdout.strip().splitlines()[-1]}


def gnubg_available() -> bool:
    done = subprocess.run([sys.executable, "-c", "import gnubg"], capture_output=True)
    return done.returncode == 0


def gnubg_run(cases: Sequence[Case], plies: Sequence[int]) -> dict[str, Any]:
    job = {"cases": [[position.id(), list(dice)] for position, dice in cases], "plies": plies}
    done = subprocess.run(
        [sys.executable, __file__, "--gnubg-child"],
        input=json.dumps(job),
        capture_output=True,
        text=True,
        timeout=GNUBG_TIMEOUT,
        check=True,
    )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def gnubg_result_id(position: Position, dice: tuple[int, int], move: list[int]) -> str | None:
    """Our Position ID after gnubg's move tuple, or None when the tuple cannot be read.

    gnubg's tuples are (from, to) pairs, 1-based, 25 the bar; PyPI gnubg cuts them at the
    first bear-off (its "off" is the terminator), so a tuple of odd length lost the rest of
    the play and cannot be rebuilt."""
    if len(move) % 2:
        return None
    mine, theirs = list(position.player), list(position.opponent)
    for start, end in zip(move[::2], move[1::2], strict=True):
        mine[start] -= 1
        if end <= 0:
            mine[OFF] += 1
            continue
        if theirs[25 - end] == 1:
            theirs[25 - end] = 0
            theirs[BAR] += 1
        mine[end] += 1
    try:
        result = Position(mine, theirs).swapped().id()
    except ValueError:
        return None
    legal = {play.result.id() for play in legal_plays(position, dice)}
    return result if result in legal else None


def gnubg_digest(cases: Sequence[Case], rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Choices (None when unreadable), every readable play's score, and timings."""
    choices: list[str | None] = []
    scores: list[dict[str, float]] = []
    for (position, dice), row in zip(cases, rows, strict=True):
        readable = {}
        for move, score in row["moves"]:
            result_id = gnubg_result_id(position, dice, move)
            if result_id is not None:
                readable.setdefault(result_id, score)
        first = row["moves"][0][0] if row["moves"] else []
        choices.append(gnubg_result_id(position, dice, first))
        scores.append(readable)
    return {
        "choices": choices,
        "scores": scores,
        "timing": timing([row["s"] for row in rows]),
        "unreadable_choices": sum(choice is None for choice in choices),
    }


# --- comparing ------------------------------------------------------------------------------


def agreement(first: Sequence[str | None], second: Sequence[str | None]) -> dict[str, Any]:
    pairs = [(a, b) for a, b in zip(first, second, strict=False) if a and b]
    same = sum(a == b for a, b in pairs)
    return {"positions": len(pairs), "agreement": round(same / len(pairs), 4) if pairs else None}


def mean_loss(choices: Sequence[str | None], judge: Sequence[dict[str, float]]) -> dict[str, Any]:
    """The mean equity given away by ``choices``, by a judge's equities of every play."""
    losses = []
    for choice, equities in zip(choices, judge, strict=False):
        if choice is None or choice not in equities or not equities:
            continue
        losses.append(max(equities.values()) - equities[choice])
    return {
        "positions": len(losses),
        "mean_loss": round(statistics.fmean(losses), 5) if losses else None,
        "best_choice_rate": round(sum(loss <= 1e-9 for loss in losses) / len(losses), 4)
        if losses
        else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--deep-positions", type=int, default=20, help="for bgsage 3ply")
    parser.add_argument("--gnubg-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.gnubg_child:
        gnubg_measure()
        return

    cases = load_cases(args.positions)
    deep = cases[: args.deep_positions]
    print(f"{len(cases)} positions ({len(deep)} for bgsage 3ply)", file=sys.stderr)

    bg = {depth: bgsage_run(cases, depth) for depth in ("1ply", "2ply")}
    bg_deep = bgsage_run(deep, "3ply")
    print("bgsage measured", file=sys.stderr)
    report: dict[str, Any] = {
        "positions": len(cases),
        "positions_bgsage_3ply": len(deep),
        "cpus": os.cpu_count(),
        "bgsage_checker_ms": {
            "1ply (= gnubg 0-ply)": bg["1ply"]["timing"],
            "2ply": bg["2ply"]["timing"],
            "3ply (first positions only)": bg_deep["timing"],
        },
        "bgsage_cube_ms": bgsage_cube_timing(cases[:30]),
    }
    agreements = {
        "bgsage_1ply_vs_bgsage_2ply": agreement(bg["1ply"]["choices"], bg["2ply"]["choices"]),
        "bgsage_1ply_vs_bgsage_3ply": agreement(bg["1ply"]["choices"], bg_deep["choices"]),
        "bgsage_2ply_vs_bgsage_3ply": agreement(bg["2ply"]["choices"], bg_deep["choices"]),
    }
    losses = {
        "bgsage_1ply_judged_by_bgsage_2ply": mean_loss(
            bg["1ply"]["choices"], bg["2ply"]["equities"]
        ),
    }
    cube_api: dict[str, Any] = {"bgsage": bgsage_cube_api()}

    if not gnubg_available():
        print(f"gnubg is not installed; for the comparison: {INSTALL_GNUBG}", file=sys.stderr)
        report["gnubg"] = {"installed": False, "install": INSTALL_GNUBG}
    else:
        raw = gnubg_run(cases, [0, 1, 2])
        gn = {plies: gnubg_digest(cases, raw["plies"][str(plies)]) for plies in (0, 1, 2)}
        print("gnubg measured", file=sys.stderr)
        report["gnubg"] = {"installed": True, "version": raw["version"]}
        report["gnubg_checker_ms"] = {f"{p}-ply": gn[p]["timing"] for p in (0, 1, 2)}
        report["gnubg_unreadable_choices (move tuple cut at a bear-off)"] = {
            f"{p}-ply": gn[p]["unreadable_choices"] for p in (0, 1, 2)
        }
        agreements.update(
            {
                "gnubg_0ply_vs_gnubg_1ply": agreement(gn[0]["choices"], gn[1]["choices"]),
                "gnubg_0ply_vs_gnubg_2ply": agreement(gn[0]["choices"], gn[2]["choices"]),
                "bgsage_1ply_vs_gnubg_0ply": agreement(bg["1ply"]["choices"], gn[0]["choices"]),
                "bgsage_1ply_vs_gnubg_2ply": agreement(bg["1ply"]["choices"], gn[2]["choices"]),
                "bgsage_2ply_vs_gnubg_1ply": agreement(bg["2ply"]["choices"], gn[1]["choices"]),
                "bgsage_2ply_vs_gnubg_2ply": agreement(bg["2ply"]["choices"], gn[2]["choices"]),
                "bgsage_3ply_vs_gnubg_2ply": agreement(bg_deep["choices"], gn[2]["choices"]),
            }
        )
        judge_bg, judge_gn = bg["2ply"]["equities"], gn[2]["scores"]
        losses.update(
            {
                "gnubg_0ply_judged_by_bgsage_2ply": mean_loss(gn[0]["choices"], judge_bg),
                "gnubg_2ply_judged_by_bgsage_2ply": mean_loss(gn[2]["choices"], judge_bg),
                "bgsage_1ply_judged_by_gnubg_2ply": mean_loss(bg["1ply"]["choices"], judge_gn),
                "bgsage_2ply_judged_by_gnubg_2ply": mean_loss(bg["2ply"]["choices"], judge_gn),
                "gnubg_0ply_judged_by_gnubg_2ply": mean_loss(gn[0]["choices"], judge_gn),
            }
        )
        cube_api["gnubg"] = {name: gnubg_probe(code) for name, code in GNUBG_PROBES.items()}
    report["agreement_of_choices"] = agreements
    report["equity_lost_per_decision"] = losses
    report["cube_api"] = cube_api
    print(json.dumps(report))


if __name__ == "__main__":
    main()
