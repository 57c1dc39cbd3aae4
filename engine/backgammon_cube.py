"""The cube action through the bgsage engine: chances, the three cubeful equities, the verdict.

Together with :mod:`engine.backgammon` (boards, analyzers, checker play) this is the engine
adapter, the only code that imports ``bgsage``. The verdict itself is :mod:`engine.cube_rule`'s,
from the equities alone.

How the equities are made, and why (the figures are in docs/benchmarks.md; GNU Backgammon's
2-ply cube analysis is the reference, ``benchmarks/cube_agreement.py`` measures it):

- The decider's cubeless chances before the roll are the average of the plain net's and of
  a one-roll look-ahead's (bgsage ``"1ply"`` and ``"2ply"``). Either alone is further from
  gnubg than their mean: the plain net errs in some races and bear-offs it has no database
  for, a single look-ahead ply overshoots the other way (the odd-ply effect that gnubg's
  even plies avoid). The look-ahead costs a few milliseconds, once per cube decision.
- The equities are Janowski's conversion of those chances (bgsage's ``cube_decision_1ply``:
  cube life 0.68 in contact, 0.6 to 0.7 in races; the match's own cash and take points
  through the Kazaross-XG2 table), as gnubg's 0-ply makes them. Deeper searches (bgsage's
  cubeful ``"2ply"`` and ``"3ply"``) agreed no better with gnubg's 2-ply, so every level uses
  this one; the levels differ in their checker play and their noise.
- One correction the conversion lacks: after a double in a match, when the doubler then wins
  the match with any win, the taker's redouble costs the taker nothing and they give it at
  once ("automatic redouble"; 2-away against 3-away or more). The double/take equity is
  then the better of playing for the whole match at four times the cube and passing the
  redouble — what gnubg's 2-ply finds and its 0-ply misses — unless keeping the cube is
  better still for the taker (their gammons win the match at twice the cube: a doubler
  losing a gammon anyway would pass the redouble and save the match).
- Nothing decides by score alone: post-Crawford the trailer's double, the leader's take or
  free drop and "too good" all come out of the equities.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import bgbot_cpp  # type: ignore[import-not-found]
import bgsage

from engine.api import CubeAdvice, CubeOwner, CubeVerdict, Evaluation, Level, Situation
from engine.backgammon import analyzer, cubeless_equity, probabilities_of, to_board
from engine.cube_rule import CubeEquities, cube_action, double_equity

_CPP_OWNER: Final = {
    CubeOwner.CENTRED: bgbot_cpp.CubeOwner.CENTERED,
    CubeOwner.DECIDER: bgbot_cpp.CubeOwner.PLAYER,
    CubeOwner.OPPONENT: bgbot_cpp.CubeOwner.OPPONENT,
}
_OWNER: Final = {
    CubeOwner.CENTRED: "centered",
    CubeOwner.DECIDER: "player",
    CubeOwner.OPPONENT: "opponent",
}
CHANCE_DEPTHS: Final = ("1ply", "2ply")
"""The depths whose pre-roll chances are averaged for the cube (see the module's text)."""


def pre_roll_chances(situation: Situation, depth: str) -> list[float]:
    """The decider's cubeless chances before rolling (win, win gammon, win backgammon, lose
    gammon, lose backgammon), at ``depth``: bgsage evaluates positions after a move, so this
    is the opponent's post-move evaluation, inverted."""
    away, other = situation.away
    seen_by_opponent = analyzer(depth, False).post_move_analytics(
        bgbot_cpp.flip_board(to_board(situation.position)),
        "centered",
        1,
        away1=other,
        away2=away,
        is_crawford=situation.crawford,
        jacoby=False,
    )
    chances: list[float] = bgsage.invert_probs(seen_by_opponent.probs.to_list())
    return chances


def cube_chances(situation: Situation) -> list[float]:
    """The chances the cube is judged by: the mean over :data:`CHANCE_DEPTHS`."""
    each = [pre_roll_chances(situation, depth) for depth in CHANCE_DEPTHS]
    return [sum(values) / len(each) for values in zip(*each, strict=True)]


def cube_equities(situation: Situation, chances: Sequence[float]) -> CubeEquities:
    """No double, double/take and double/pass for ``chances`` (decider's view, normalised to
    the cube as it is; EMG in a match): Janowski's conversion, and the automatic redouble."""
    board = to_board(situation.position)
    pips, opponent_pips = bgbot_cpp.pip_counts(board)
    life = bgbot_cpp.cube_efficiency(list(chances), bgbot_cpp.is_race(board), pips, opponent_pips)
    away, other = situation.away
    cube = situation.cube_value
    decision = bgbot_cpp.cube_decision_1ply(
        list(chances),
        cube,
        _CPP_OWNER[situation.cube_owner],
        life,
        away,
        other,
        situation.crawford,
        situation.jacoby and situation.is_money,
    )
    double_take = float(decision.equity_dt)
    if not situation.is_money and not situation.crawford and away <= 2 * cube < other:
        # The taker redoubles only where that is better for them than keeping the cube.
        double_take = min(double_take, _after_automatic_redouble(situation, chances))
    return CubeEquities(float(decision.equity_nd), double_take, float(decision.equity_dp))


def _after_automatic_redouble(situation: Situation, chances: Sequence[float]) -> float:
    """The double/take equity when the taker redoubles at once: the doubler, who wins the
    match with any win, takes the cube at four times the value (a dead cube: every game now
    decides the match for one side at least) or passes it and loses twice the cube. The
    taker gains by it unless their own gammons win the match at twice the cube already: a
    redouble would then let the doubler pass and lose only twice the cube."""
    away, other = situation.away
    cube = situation.cube_value
    crawford = situation.crawford
    take = bgbot_cpp.cubeless_mwc(list(chances), away, other, 4 * cube, crawford)
    dropped = bgbot_cpp.cubeless_mwc([0.0] * 5, away, other, 2 * cube, crawford)
    return float(bgbot_cpp.mwc2eq(max(take, dropped), away, other, cube, crawford))


def may_double(situation: Situation) -> bool:
    """Whether the decider may double now: the cube is in play and centred or theirs; in a
    match also not the Crawford game and not dead — a cube worth at least what they
    still need cannot gain them anything (bgsage's ``can_double_match``, gnubg's rule)."""
    if not situation.cube_enabled:
        return False
    if situation.is_money:
        # can_double_match reads away 0 as a dead cube, so money play is decided here.
        return situation.cube_owner is not CubeOwner.OPPONENT
    return bool(
        bgsage.can_double_match(
            situation.away[0],
            situation.away[1],
            situation.cube_value,
            _OWNER[situation.cube_owner],
            is_crawford=situation.crawford,
        )
    )


def cube_advice(situation: Situation, level: Level) -> CubeAdvice:
    """The cube action before the decider rolls, the same at every level (see the module's
    text; a level's noise is added by :mod:`engine.decide`).

    The verdict is ``no_cube`` whenever the decider may not double (:func:`may_double`), but
    the equities are still made: ``take`` and ``beaver`` answer a double that was offered
    anyway. Without a cube at all the three equities are the cubeless equity (and 1.0 for a
    pass), nobody doubles and a take is moot.
    """
    del level  # one cube evaluation for all levels
    chances = cube_chances(situation)
    probabilities = probabilities_of(chances)
    cubeless = cubeless_equity(situation, probabilities)
    if not situation.cube_enabled:
        return CubeAdvice(
            verdict=CubeVerdict.NO_CUBE,
            no_double=cubeless,
            double_take=cubeless,
            double_pass=1.0,
            double=False,
            take=True,
            beaver=False,
            evaluation=Evaluation(probabilities, cubeless, cubeless),
        )
    equities = cube_equities(situation, chances)
    beavers = situation.beavers and situation.is_money
    action = cube_action(
        equities,
        may_double=may_double(situation),
        beavers=beavers,
        gammon_chances=probabilities.win_gammon > 0,
    )
    cubeful = double_equity(equities, beavers) if action.double else equities.no_double
    return CubeAdvice(
        verdict=action.verdict,
        no_double=equities.no_double,
        double_take=equities.double_take,
        double_pass=equities.double_pass,
        double=action.double,
        take=action.take,
        beaver=action.beaver,
        evaluation=Evaluation(probabilities, cubeless, cubeful),
    )


def evaluate(situation: Situation, level: Level) -> Evaluation:
    """The position before the decider rolls: cubeless chances and equity, and the cubeful
    equity with the decider's best cube action (the no-double equity when they may not
    double)."""
    return cube_advice(situation, level).evaluation
