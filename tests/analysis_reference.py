"""Our match analysis set against GNU Backgammon's: error rates and the largest errors.

gnubg's side is what ``tests/gnubg_analysis_script.py`` reports. Its error rate is its own
(``analysis.c``, ``getMWCFromError``): the equity lost in checker play and cube decisions over
its count of unforced moves plus close cube decisions, here times 500 as our PR is (gnubg
shows it as mEMG, 1000 times). Its largest errors are found from the equities of each record,
as gnubg judges them (``updateStatcontext``): a play by the equity between the best and the
played play; a cube decision by the cube equities, the double/pass being 1.

A decision is named by game, the row of the ``.mat`` file (our ``move``), player and kind,
so the two analyses can be compared without matching notation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from engine.analysis_summary import LARGEST, PR_SCALE
from engine.api import DecisionKind, MatchAnalysis, PlayerAnalysis

TOLERANCE: Final = 0.30
"""Our PR agrees with gnubg's when within this share of it ..."""
TOLERANCE_FLOOR: Final = 2.0
"""... or within this many PR points, whichever is more."""

DecisionKey = tuple[int, int, int, str]  # game, row, player, kind


@dataclass(frozen=True)
class GnubgPlayer:
    """One player's figures in gnubg's analysis."""

    decisions: int
    checker_decisions: int
    cube_decisions: int
    error_rate: float
    largest_errors: tuple[tuple[DecisionKey, float], ...]


def gnubg_player(answer: dict[str, Any], names: tuple[str, str], player: int) -> GnubgPlayer:
    """``player``'s figures from gnubg's ``answer`` on a match whose players are ``names``."""
    stats = answer["players"][names[player]]
    checker, cube = stats["unforced_moves"], stats["close_cube"]
    error = stats["checker_error"] + stats["cube_error"]
    rate = PR_SCALE * error / (checker + cube) if checker + cube else 0.0
    losses = [(key, loss) for key, loss in gnubg_losses(answer, names) if key[2] == player]
    losses.sort(key=lambda item: -item[1])  # stable: earlier first among equals
    largest = tuple(item for item in losses[:LARGEST] if item[1] > 0)
    return GnubgPlayer(checker + cube, checker, cube, rate, largest)


def gnubg_losses(answer: dict[str, Any], names: tuple[str, str]) -> list[tuple[DecisionKey, float]]:
    """Every decision gnubg judged, with the equity it lost (≥ 0), in the match's order."""
    found: list[tuple[DecisionKey, float]] = []
    for game, records in enumerate(answer["games"], start=1):
        rows = 0
        right = False
        doubled: dict[str, float] | None = None
        for record in records:
            if record["action"] not in ("move", "double", "take", "drop"):
                continue
            player = names.index(record["player"])
            if player == 0 or not rows or right:
                rows += 1
            right = player == 1
            cube = _cube(record)
            if record["action"] == "move":
                if cube is not None:
                    found.append(((game, rows, player, DecisionKind.DOUBLE.value), cube["nd"]))
                if "best" in record:
                    loss = max(0.0, record["best"] - record["played"])
                    found.append(((game, rows, player, DecisionKind.CHECKER.value), loss))
            elif record["action"] == "double":
                doubled = cube
                if cube is not None:
                    found.append(((game, rows, player, DecisionKind.DOUBLE.value), cube["double"]))
            elif doubled is not None:
                answer_loss = doubled["take"] if record["action"] == "take" else doubled["pass"]
                found.append(((game, rows, player, DecisionKind.TAKE.value), answer_loss))
    return found


def _cube(record: dict[str, Any]) -> dict[str, float] | None:
    """The losses of no double, double, take and pass, as gnubg's statistics count them."""
    if "no_double" not in record:
        return None
    no_double, take = record["no_double"], record["double_take"]
    doubling = min(take, 1.0)
    optimal = max(no_double, doubling)
    return {
        "nd": optimal - no_double,
        "double": optimal - doubling,
        "take": max(0.0, take - 1.0),
        "pass": max(0.0, 1.0 - take),
    }


def our_largest(player: PlayerAnalysis) -> tuple[tuple[DecisionKey, float], ...]:
    return tuple(
        ((error.game, error.move, error.player, error.kind.value), error.loss)
        for error in player.largest_errors
    )


def agrees(ours: float, gnubg: float) -> bool:
    """Whether our PR is within max(2, 30 %) of gnubg's."""
    return abs(ours - gnubg) <= max(TOLERANCE_FLOOR, TOLERANCE * gnubg)


def shared_errors(analysis: MatchAnalysis, gnubg: GnubgPlayer, player: int) -> int:
    """How many of gnubg's largest errors of ``player`` are among ours."""
    mine = {key for key, _loss in our_largest(analysis.players[player])}
    return sum(1 for key, _loss in gnubg.largest_errors if key in mine)
