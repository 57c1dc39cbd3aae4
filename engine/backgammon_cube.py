"""The cube action through the bgsage engine: chances, the three cubeful equities, the verdict.

Together with :mod:`engine.backgammon` (boards, analyzers, checker play) this is the engine
adapter, the only code that imports ``bgsage``. The verdict itself is :mod:`engine.cube_rule`'s,
from the equities alone.

How the equities are made, and why (the figures are in docs/benchmarks.md; GNU Backgammon's
2-ply cube analysis is the reference, ``benchmarks/cube_agreement.py`` measures it):

- The quick estimate: the decider's cubeless chances before the roll, the average of the
  plain net's and of a one-roll look-ahead's (bgsage ``"1ply"`` and ``"2ply"``), turned into
  the three equities by Janowski's conversion (bgsage's ``cube_decision_1ply``: cube life
  0.68 in contact, 0.6 to 0.7 in races; the match's own cash and take points through the
  Kazaross-XG2 table), as gnubg's 0-ply makes them. It costs a few milliseconds and is what
  :func:`evaluate` gives (luck, the equity of a position).
- A cube decision near one of its edges by the quick estimate (doubling or not, taking or
  passing, too good or not: within :data:`CLOSE`) is decided by a cubeful search two rolls
  deep (bgsage's ``cubeful_equity_nply`` at :data:`SEARCH_PLIES`, gnubg's 2-ply depth: the
  cube decisions of both players inside the tree, Janowski only at its leaves). Janowski's
  single formula misses what gnubg's 2-ply finds there: how the next two rolls move the
  chances across the cash and take points (measured against gnubg's 2-ply with gnubg's own
  2-ply chances, the conversion alone still disagreed on 26 of 1,480 cube actions, most of
  them its no double equity). About 20–45 ms of one core, so only where it can matter.
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
from functools import cache
from typing import Any, Final

import bgbot_cpp  # type: ignore[import-not-found]
import bgsage

from engine.api import CubeAdvice, CubeOwner, CubeVerdict, Evaluation, Level, Situation
from engine.backgammon import (
    CPP_OWNER,
    OWNER_NAME,
    analyzer,
    cubeless_equity,
    net_and_bearoff,
    probabilities_of,
    to_board,
)
from engine.cube_rule import CubeEquities, answer_equities, cube_action, double_equity

CHANCE_DEPTHS: Final = ("1ply", "2ply")
"""The depths whose pre-roll chances are averaged for the cube (see the module's text)."""
SEARCH_PLIES: Final = 3
"""The cubeful search's depth as bgsage counts it (the net itself is its first ply): two
rolls ahead, gnubg's 2-ply."""
SEARCH_THREADS: Final = 2
"""The search's rolls are shared out to both cores: a hint waits for it."""
CLOSE: Final = 0.1
"""How near an edge of the cube decision the quick equities must be for the search to decide
it. Measured on both reference sets (docs/benchmarks.md): a wider band searched more often
without agreeing better."""
TIE: Final = 0.01
"""The search gives the equity of the decider's best cube action, not the no double equity:
a double is the best action when that equity is the double's, to within this. The library's
float match equities put a double's own value up to 0.003 above the double/take it reports,
and the search's no double runs about 0.02 above gnubg's 2-ply (mean over the reference),
so near-ties go to the double: on both reference sets 0.01 agreed better with gnubg than
0.005 (37 and 51 clear disagreements of 1,480 against 40 and 56). Either way a no double
within it of the double is a close call, below the 0.02 that counts as a clear error."""


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
    the cube as it is; EMG in a match): Janowski's conversion, and the automatic redouble.
    The quick estimate of the module's text."""
    board = to_board(situation.position)
    pips, opponent_pips = bgbot_cpp.pip_counts(board)
    life = bgbot_cpp.cube_efficiency(list(chances), bgbot_cpp.is_race(board), pips, opponent_pips)
    away, other = situation.away
    cube = situation.cube_value
    decision = bgbot_cpp.cube_decision_1ply(
        list(chances),
        cube,
        CPP_OWNER[situation.cube_owner],
        life,
        away,
        other,
        situation.crawford,
        situation.jacoby and situation.is_money,
    )
    double_take = _with_automatic_redouble(situation, chances, float(decision.equity_dt))
    return CubeEquities(float(decision.equity_nd), double_take, float(decision.equity_dp))


def _with_automatic_redouble(
    situation: Situation, chances: Sequence[float], double_take: float
) -> float:
    away, other = situation.away
    if (
        not situation.is_money
        and not situation.crawford
        and away <= 2 * situation.cube_value < other
    ):
        # The taker redoubles only where that is better for them than keeping the cube.
        return min(double_take, _after_automatic_redouble(situation, chances))
    return double_take


def near_an_edge(equities: CubeEquities, beavers: bool) -> bool:
    """Whether the quick equities put the cube decision within :data:`CLOSE` of one of its
    edges: doubling or not, taking or passing, too good or not."""
    doubled = double_equity(equities, beavers)
    return (
        abs(doubled - equities.no_double) < CLOSE
        or abs(equities.double_take - equities.double_pass) < CLOSE
        or abs(equities.no_double - equities.double_pass) < CLOSE
    )


@cache
def _search_engine() -> tuple[Any, Any]:
    """The plain net as bgsage's own 1-ply analyzer holds it, and its bear-off database:
    the search reuses them rather than load the net's weights once more."""
    return net_and_bearoff(analyzer("1ply", False)._analyzer)


def _searched(situation: Situation, owner: Any, cube: int) -> float:
    """The cubeful search's equity for the decider with the cube at ``cube`` held by
    ``owner`` (bgsage's normalisation: to ``cube``), the cube actions inside it included —
    the decider's own now too, where the cube lets them double."""
    strategy, bearoff = _search_engine()
    away, other = situation.away
    return float(
        bgbot_cpp.cubeful_equity_nply(
            to_board(situation.position),
            owner,
            strategy,
            n_plies=SEARCH_PLIES,
            n_threads=SEARCH_THREADS,
            cube_value=cube,
            away1=away,
            away2=other,
            is_crawford=situation.crawford,
            jacoby=situation.jacoby and situation.is_money,
            beaver=False,
            bearoff_db=bearoff,
        )
    )


def searched_equities(
    situation: Situation, chances: Sequence[float], quick: CubeEquities, beavers: bool
) -> CubeEquities:
    """The three equities by the cubeful search (see the module's text). The search gives
    the double/take and the equity of the best action; where that is the double's (to
    within :data:`TIE`) the no double equity is the quick one, kept below the double's."""
    cube = situation.cube_value
    taken = _searched(situation, bgbot_cpp.CubeOwner.OPPONENT, 2 * cube)
    if situation.is_money:
        double_take = 2 * taken
    else:
        away, other = situation.away
        crawford = situation.crawford
        won = bgbot_cpp.eq2mwc(taken, away, other, 2 * cube, crawford)
        double_take = float(bgbot_cpp.mwc2eq(won, away, other, cube, crawford))
    double_take = _with_automatic_redouble(situation, chances, double_take)
    searched = CubeEquities(quick.no_double, double_take, quick.double_pass)
    doubled = min(answer_equities(searched, beavers).values())
    best = _searched(situation, CPP_OWNER[situation.cube_owner], cube)
    no_double = best if best > doubled + TIE else min(quick.no_double, doubled)
    return CubeEquities(no_double, double_take, quick.double_pass)


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
            OWNER_NAME[situation.cube_owner],
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
    return _advice(situation, search=True)


def evaluate(situation: Situation, level: Level) -> Evaluation:
    """The position before the decider rolls: cubeless chances and equity, and the cubeful
    equity with the decider's best cube action (the no-double equity when they may not
    double), by the quick estimate alone (see the module's text): it is asked for every
    roll of an analysed match."""
    del level
    return _advice(situation, search=False).evaluation


def _advice(situation: Situation, *, search: bool) -> CubeAdvice:
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
    doubling = may_double(situation)
    if search and doubling and near_an_edge(equities, beavers):
        equities = searched_equities(situation, chances, equities, beavers)
    action = cube_action(
        equities,
        may_double=doubling,
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
