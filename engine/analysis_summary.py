"""One player's figures from the analysed decisions of a match."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.api import AnalysedDecision, DecisionKind, PlayerAnalysis

PR_SCALE: Final = 500
"""eXtreme Gammon's Performance Rating: the mean equity lost per counted decision, times 500
(so a world-class player rates about 2-4, a beginner 20 and more). The mean is GNU Backgammon's
"error rate" (``getMWCFromError``): the equity lost in checker play and cube decisions over
the unforced moves plus the close cube decisions (see :mod:`engine.analysis`); gnubg shows it
in mEMG, 1000 times the mean, so the PR is half of gnubg's figure."""

LARGEST: Final = 3
"""How many of a player's largest errors the summary names."""

_NOTHING: Final = 1e-9  # an equity difference below this is the engine's rounding, not an error


def summarise(
    name: str, player: int, decisions: Sequence[AnalysedDecision], luck: float
) -> PlayerAnalysis:
    """``player``'s totals over the match's ``decisions`` (all players'), with ``luck`` the
    sum of the luck of all their rolls (rolls before a resignation have no decision)."""
    mine = [decision for decision in decisions if decision.player == player]
    counted = [decision for decision in mine if not decision.forced]
    checker = [decision for decision in counted if decision.kind is DecisionKind.CHECKER]
    cube = [decision for decision in counted if decision.kind is not DecisionKind.CHECKER]
    checker_error = sum(decision.loss for decision in checker)
    cube_error = sum(decision.loss for decision in cube)
    error_rate = PR_SCALE * (checker_error + cube_error) / len(counted) if counted else 0.0
    errors = [decision for decision in counted if decision.loss > _NOTHING]
    errors.sort(key=lambda decision: -decision.loss)  # stable: earlier first among equals
    return PlayerAnalysis(
        name=name,
        checker_decisions=len(checker),
        checker_error=checker_error,
        cube_decisions=len(cube),
        cube_error=cube_error,
        error_rate=error_rate,
        luck=luck,
        largest_errors=tuple(errors[:LARGEST]),
    )
