"""Whether a Match ID describes a moment that can happen in a game.

Every field of GNU Backgammon's Match ID can be set on its own, so an ID can combine fields no
match ever reaches: a cube turned in the Crawford game, a Crawford game in money play, dice
rolled while a double waits for its answer. gnubg's own reader refuses only two of them (a
Crawford game in money play, a score above the match length); :func:`inconsistency` names
each contradiction between the fields, as the rules and the ID's meaning give it:

* ``player_on_roll`` rolls the dice and offers doubles; ``turn`` is who acts now. They differ
  only while a double (or a resignation) waits for the other player's answer.
* A double is offered before the roll, by the player on roll, with the cube centred or theirs.
* The Crawford game is the one game after a player first comes within one point of winning
  the match: only in a match, with the other player further away, and without doubling.
* The cube is owned only after a take (so at 2 or more); a centred cube above 1 comes from
  automatic doubles, which only money play has.
* No game is played once a player has reached the match length.

A resignation on offer is a real moment (a player offered to give up, the other answers);
which player resigned is not in the ID, so ``turn`` is not checked then. Turn, double and the
Crawford score are checked while a game is being played: gnubg keeps the last game's flags
for a while after it ends (the Crawford flag, for one, until the next game starts).
"""

from __future__ import annotations

from gammon.match import GameState, Match, Resignation


def inconsistency(match: Match) -> str | None:
    """What in ``match`` contradicts the rules or the other fields, in one sentence; ``None``
    when it describes a moment a match can reach."""
    for check in (_crawford, _cube, _double, _turn, _score):
        problem = check(match)
        if problem is not None:
            return problem
    return None


def check_consistent(match: Match) -> Match:
    """``match`` itself, or ``ValueError`` naming what is inconsistent in it."""
    problem = inconsistency(match)
    if problem is not None:
        raise ValueError(f"the Match ID is inconsistent: {problem}")
    return match


def _crawford(match: Match) -> str | None:
    if not match.crawford:
        return None
    if match.is_money():
        return "a money game has no Crawford game"
    if match.cube_value > 1 or match.cube_owner is not None:
        return f"the cube is turned (at {match.cube_value}) in the Crawford game"
    if match.game_state is not GameState.PLAYING:
        return None
    if match.double_offered:
        return "a double is offered in the Crawford game, where nobody may double"
    at_match_point = [points == match.length - 1 for points in match.score]
    if at_match_point.count(True) != 1:
        return (
            "the Crawford game is played only when exactly one player is one point from "
            f"winning, not at {match.score[0]}-{match.score[1]} of {match.length}"
        )
    return None


def _cube(match: Match) -> str | None:
    if match.cube_owner is not None and match.cube_value == 1:
        return "a player owns the cube at 1, but the cube is owned only after a double"
    if match.cube_owner is None and match.cube_value > 1 and not match.is_money():
        return (
            f"the cube is centred at {match.cube_value} in a match (only money play has "
            "automatic doubles)"
        )
    return None


def _double(match: Match) -> str | None:
    if not match.double_offered or match.game_state is not GameState.PLAYING:
        return None
    if match.dice is not None:
        return "dice are rolled while a double is offered (a double comes before the roll)"
    doubler = match.player_on_roll
    if match.turn == doubler:
        return f"player {doubler} offers a double and is also the one to answer it"
    if match.cube_owner == 1 - doubler:
        return f"player {doubler} offers a double while player {1 - doubler} owns the cube"
    return None


def _turn(match: Match) -> str | None:
    waiting = match.double_offered or match.resignation is not Resignation.NONE
    playing = match.game_state is GameState.PLAYING
    if waiting or not playing or match.turn == match.player_on_roll:
        return None
    return (
        f"player {match.turn} is to act while player {match.player_on_roll} is on roll, "
        "with no double or resignation waiting for an answer"
    )


def _score(match: Match) -> str | None:
    if not match.length:
        return None
    reached = [points >= match.length for points in match.score]
    if all(reached):
        return f"both players have reached the match length {match.length}"
    if any(reached) and match.game_state is GameState.PLAYING:
        return "a game is being played, but the match is already over at this score"
    return None
