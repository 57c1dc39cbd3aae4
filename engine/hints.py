"""Hints: the best plays for a roll, or the cube action before it, as a player asks for them.

A hint is about the player on roll, seen the way GNU Backgammon shows it: the best few plays
with their equities and how far each is behind the best, or the three cubeful equities (no
double, double/take, double/pass) with the proper cube action in gnubg's words. Positions come
from gnubg's two IDs, so anything gnubg (or ``/board``) shows can be asked about.
"""

from __future__ import annotations

from typing import Final

from engine.api import (
    CubeAdvice,
    CubeHint,
    CubeOwner,
    CubeVerdict,
    Hint,
    HintPlay,
    Level,
    Situation,
)
from engine.backgammon import rank_plays
from engine.backgammon_cube import cube_advice
from gammon.match import GameState, Match, Resignation
from gammon.match_consistency import check_consistent
from gammon.match_rules import MAX_MATCH_LENGTH
from gammon.movegen import checked_dice
from gammon.position import CHECKERS, OFF, Position

DEFAULT_COUNT: Final = 3


def hint(
    situation: Situation, dice: tuple[int, int] | None, level: Level, count: int = DEFAULT_COUNT
) -> Hint:
    """The ``count`` best plays of ``dice``, or the cube action when ``dice`` is ``None``."""
    if count < 1:
        raise ValueError("a hint names at least one play")
    if dice is None:
        return Hint(dice=None, plays=(), cube=cube_hint(cube_advice(situation, level), situation))
    checked_dice(dice)  # a clear ValueError for anything but two dice
    dice = (dice[0], dice[1])
    ranked = rank_plays(situation, dice, level)
    best = ranked[0].equity if ranked else 0.0
    plays = tuple(HintPlay(play.notation, play.equity, play.equity - best) for play in ranked)
    return Hint(dice=dice, plays=plays[:count], cube=None)


def cube_hint(advice: CubeAdvice, situation: Situation) -> CubeHint:
    return CubeHint(
        verdict=advice.verdict,
        action=action_name(advice, redouble=situation.cube_owner is CubeOwner.DECIDER),
        no_double=advice.no_double,
        double_take=advice.double_take,
        double_pass=advice.double_pass,
        double=advice.double,
        take=advice.take,
        beaver=advice.beaver,
    )


def action_name(advice: CubeAdvice, *, redouble: bool) -> str:
    """The proper cube action in gnubg's words; "redouble" once the cube has been turned.
    The answer named is the advice's own (take, pass or beaver), whatever the verdict."""
    verb = "Redouble" if redouble else "Double"
    lower = verb.lower()
    answer = "beaver" if advice.beaver else "take" if advice.take else "pass"
    verdict = advice.verdict
    if verdict is CubeVerdict.NO_CUBE:
        return "Cube not available"
    if verdict in (CubeVerdict.TOO_GOOD_TAKE, CubeVerdict.TOO_GOOD_PASS):
        return f"Too good to {lower}, {answer}"
    if verdict is CubeVerdict.NO_DOUBLE:
        return f"No {lower}, {answer}"
    return f"{verb}, {answer}"


def situation_from_ids(
    position_id: str, match_id: str, *, jacoby: bool = False, beavers: bool = False
) -> tuple[Situation, tuple[int, int] | None]:
    """The situation of the player on roll, and their dice if rolled, from gnubg's IDs.

    gnubg's Position ID shows the board from the player on roll (the Match ID's "player on
    roll", who owns the dice), also while a double waits for the other player's answer (the
    Match ID's "turn"): the situation is then still the doubler's, the cube as it was before
    the double, and the hint is the cube action that both decisions come from. Match length 0
    is money play; Jacoby and beavers are not in the IDs and are off unless asked for. Raises
    ``ValueError`` with a reason for IDs that do not make a position to play: an inconsistent
    Match ID (:func:`gammon.match_consistency.inconsistency`), no game being played, a
    resignation on offer (its answer is no play and no cube action), a finished game.
    """
    position = Position.from_id(position_id.strip())
    match = check_consistent(Match.from_id(match_id.strip()))
    if match.game_state is not GameState.PLAYING:
        raise ValueError("the Match ID shows no game being played")
    if match.resignation is not Resignation.NONE:
        raise ValueError(
            "the Match ID shows a resignation on offer: the decision is to accept or reject "
            "it, not a play or a cube action"
        )
    if CHECKERS in (position.player[OFF], position.opponent[OFF]):
        raise ValueError("the game is over in this position: a side has borne off")
    if match.length > MAX_MATCH_LENGTH:
        raise ValueError(f"matches are 1 to {MAX_MATCH_LENGTH} points long")
    decider = match.player_on_roll
    money = match.is_money()
    return (
        Situation(
            position=position,
            cube_value=match.cube_value,
            cube_owner=_owner(match.cube_owner, decider),
            away=(0, 0) if money else _away(match, decider),
            crawford=match.crawford and not money,
            jacoby=jacoby and money,
            beavers=beavers and money,
        ),
        match.dice,
    )


def _owner(owner: int | None, decider: int) -> CubeOwner:
    if owner is None:
        return CubeOwner.CENTRED
    return CubeOwner.DECIDER if owner == decider else CubeOwner.OPPONENT


def _away(match: Match, decider: int) -> tuple[int, int]:
    return (match.length - match.score[decider], match.length - match.score[1 - decider])
