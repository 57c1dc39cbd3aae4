"""Judging cube decisions against the engine's cube advice, by the cube rule
(:mod:`engine.cube_rule`) that also makes the advice.

Both sides of one double are judged from one :class:`~engine.api.CubeAdvice`, the doubler's
(the engine analyses the cube action once; the taker's equities are the doubler's negated).
All equities are normalised to the cube before the double, so a double/pass is worth the same
as the cube shows now and the losses of a checker play and of a cube decision add up in one
unit (points per cube in money play, EMG in a match), as gnubg and eXtreme Gammon report them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from engine import cube_rule
from engine.api import CubeAdvice
from engine.cube_rule import CubeEquities

CLOSE_CUBE: Final = 0.16
"""A no-double counts as a decision only if doubling was right or within this much equity of
the best: gnubg's ``isCloseCubedecision`` (the optimal equity less the double's, the
double/take capped at the double/pass, under 0.16), which its statistics count as
``anCloseCube`` together with every double, take and pass. Without it every routine opening
turn would be a "decision" that nobody can get wrong, and the error rate would drop for no
skill shown (eXtreme Gammon leaves such no-doubles out too)."""

NO_DOUBLE: Final = "no double"
DOUBLE: Final = "double"
TAKE: Final = cube_rule.TAKE
PASS: Final = cube_rule.PASS
BEAVER: Final = cube_rule.BEAVER


@dataclass(frozen=True)
class CubeJudgement:
    """What was done and what was best, the equity given away (≥ 0) and whether the decision
    counts (see :data:`CLOSE_CUBE`)."""

    played: str
    best: str
    loss: float
    counted: bool


def _equities(advice: CubeAdvice) -> CubeEquities:
    return CubeEquities(advice.no_double, advice.double_take, advice.double_pass)


def double_equity(advice: CubeAdvice, beavers: bool = False) -> float:
    """What a double is worth to the doubler when the opponent answers it best (a beaver
    among the answers when ``beavers``)."""
    return cube_rule.double_equity(_equities(advice), beavers)


def judge_double(advice: CubeAdvice, doubled: bool, beavers: bool = False) -> CubeJudgement:
    """The doubler's decision: to double or to roll on, judged by the cube rule."""
    equities = _equities(advice)
    doubling = cube_rule.double_equity(equities, beavers)
    gammons = advice.evaluation.probabilities.win_gammon > 0
    right = cube_rule.cube_action(
        equities, may_double=True, beavers=beavers, gammon_chances=gammons
    ).double
    best = DOUBLE if right else NO_DOUBLE
    chosen = doubling if doubled else advice.no_double
    loss = max(0.0, max(doubling, advice.no_double) - chosen)
    close = right or advice.no_double - doubling < CLOSE_CUBE
    return CubeJudgement(DOUBLE if doubled else NO_DOUBLE, best, loss, counted=doubled or close)


def taker_equities(advice: CubeAdvice, beavers: bool) -> dict[str, float]:
    """The answers open to the doubled player and their equities from the taker's view. A
    beaver keeps the cube on the taker's side at twice the value, so it is worth twice the
    take."""
    answers = cube_rule.answer_equities(_equities(advice), beavers)
    return {name: -equity for name, equity in answers.items()}


def judge_answer(advice: CubeAdvice, answer: str, beavers: bool) -> CubeJudgement:
    """The doubled player's decision: take, pass, or (money play with beavers) beaver."""
    answers = taker_equities(advice, beavers)
    best = cube_rule.best_answer(_equities(advice), beavers)
    loss = max(0.0, answers[best] - answers[answer])
    return CubeJudgement(answer, best, loss, counted=True)
