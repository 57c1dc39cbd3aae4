"""The long nardy computer player: a one-roll lookahead on the static evaluation.

:func:`best_play` ranks every legal play by the static evaluation of the position after it
(:mod:`engine.nardy_eval`, from the opponent's side on roll), keeps the best
:data:`CANDIDATES`, and for each of those looks one roll ahead: for each of the opponent's 21
rolls (a double weighs 1/36, any other roll 2/36) the opponent answers with the reply that is
best for them by the static evaluation, and the play scores the average of the evaluation
after those replies (now from our side, on roll). The play with the best average is chosen;
ties go to the better static score, then to the notation, so the choice is deterministic.

:func:`decide` answers a :class:`~gammon.flow.MatchState` with a :class:`~engine.api.Decision`.

>>> from gammon import Position, Variant
>>> str(best_play(Position.start(Variant.LONG_NARDY), (6, 6)))
'24/18(2)'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.api import Decision
from engine.nardy_eval import (
    DEFAULT_WEIGHTS,
    Side,
    Weights,
    equity,
    position_chances,
    worst_reply,
)
from gammon import Play, PlayError, Position, Variant, legal_plays, parse_play
from gammon.flow import MatchState, Phase
from gammon.nardy_movegen import generate

CANDIDATES: Final = 6
"""How many plays (best by the static evaluation) get the one-roll lookahead."""
ROLLS: Final = tuple(
    (high, low, 1 if high == low else 2) for high in range(1, 7) for low in range(1, high + 1)
)
"""The 21 distinct rolls as (higher die, lower die, weight out of 36)."""


def best_play(
    position: Position,
    dice: tuple[int, int],
    *,
    mars: bool = True,
    candidates: int = CANDIDATES,
    weights: Weights = DEFAULT_WEIGHTS,
) -> Play:
    """The play the player chooses for ``dice`` in ``position`` (long nardy, side on roll).

    ``mars``: whether a loser who bore off nothing pays double. ``candidates`` is how many of
    the best plays by the static evaluation are searched one roll deeper (0: static only).
    Raises ``ValueError`` when the roll cannot be played at all (there is no play to choose).
    """
    return ranked_plays(position, dice, mars=mars, candidates=candidates, weights=weights)[0]


def ranked_plays(
    position: Position,
    dice: tuple[int, int],
    *,
    mars: bool = True,
    candidates: int = CANDIDATES,
    weights: Weights = DEFAULT_WEIGHTS,
) -> list[Play]:
    """Every legal play, best first: the searched candidates by their lookahead score, then
    the rest by their static score (see the module docstring)."""
    if position.variant is not Variant.LONG_NARDY:
        raise ValueError("the long nardy player plays long nardy positions only")
    plays = legal_plays(position, dice)
    if not plays:
        raise ValueError(f"no legal play for {dice} here")
    if len(plays) == 1:
        return list(plays)
    ranked = rank_static(plays, mars=mars, weights=weights)
    if candidates <= 0 or ranked[0][1].result.opponent[0] == 15:
        return [play for _static, play in ranked]  # static only, or the best play wins now
    searched = [
        (lookahead(play.result, mars=mars, weights=weights), static, str(play), play)
        for static, play in ranked[:candidates]
    ]
    searched.sort(key=lambda item: (-item[0], -item[1], item[2]))
    return [item[3] for item in searched] + [play for _static, play in ranked[candidates:]]


def rank_static(
    plays: Sequence[Play], *, mars: bool = True, weights: Weights = DEFAULT_WEIGHTS
) -> list[tuple[float, Play]]:
    """The plays with their static score (equity after the play, ours), best first; equal
    scores in notation order."""
    scored = [
        (after_play(play.result, mars=mars, weights=weights), str(play), play) for play in plays
    ]
    scored.sort(key=lambda item: (-item[0], item[1]))
    return [(score, play) for score, _text, play in scored]


def after_play(result: Position, *, mars: bool = True, weights: Weights = DEFAULT_WEIGHTS) -> float:
    """Our equity after our play: ``result`` has the opponent on roll."""
    return -equity(result.player, result.opponent, mars=mars, weights=weights)


def lookahead(result: Position, *, mars: bool = True, weights: Weights = DEFAULT_WEIGHTS) -> float:
    """Our expected equity one roll later: ``result`` (after our play, opponent on roll)
    averaged over the opponent's rolls, each answered by their best reply by the static
    evaluation."""
    us: Side = result.opponent
    them: Side = result.player
    if us[0] == 15 or them[0] == 15:
        return -equity(them, us, mars=mars, weights=weights)
    total = 0.0
    for high, low, weight in ROLLS:
        replies = [board for board, _hits in generate(result, high, low)]
        if replies:
            total += weight * worst_reply(us, replies, mars=mars, weights=weights)
        else:
            total += weight * equity(us, them, mars=mars, weights=weights)
    return total / 36


def expected_points(state: MatchState, seat: int, *, weights: Weights = DEFAULT_WEIGHTS) -> float:
    """What ``seat`` expects to win by playing on from ``state`` (points, negative when
    losing), by the static evaluation: for the player on roll with the dice rolled, after
    their best play by it."""
    mars = state.rules.mars
    position = state.position
    on_roll = state.player_on_roll
    if state.dice is not None and state.phase in (Phase.MOVING, Phase.RESIGNING):
        plays = legal_plays(position, state.dice)
        if plays:
            value = rank_static(plays, mars=mars, weights=weights)[0][0]  # for the mover
            return value if on_roll == seat else -value
        position = position.swapped()
        on_roll = 1 - on_roll
    value = position_chances(position, mars=mars, weights=weights).equity
    return value if on_roll == seat else -value


def decide(state: MatchState, seat: int, seed: int = 0) -> Decision:
    """The bot's action for ``seat`` in a long nardy match: roll, play, or answer a
    resignation (accept when the offer is at least what playing on is expected to win).

    ``seed`` is accepted for the shared decider interface; the player is deterministic and
    does not use it. Raises ``ValueError`` for backgammon, or when ``seat`` is not to act.
    """
    del seed
    if state.variant is not Variant.LONG_NARDY:
        raise ValueError("this player plays long nardy only")
    if state.turn != seat:
        raise ValueError(f"it is not seat {seat}'s turn to act")
    if state.phase is Phase.ROLLING:
        return Decision("roll")
    if state.phase is Phase.MOVING:
        assert state.dice is not None
        plays = state.legal_plays()
        if len(plays) == 1:
            return Decision("move", play=str(plays[0]))
        if not plays:
            raise ValueError("the roll cannot be played (the rules pass the turn by themselves)")
        ranked = ranked_plays(state.position, state.dice, mars=state.rules.mars)
        readable = (play for play in ranked if _round_trips(play))
        return Decision("move", play=str(next(readable, ranked[0])))
    if state.phase is Phase.RESIGNING and state.resignation is not None:
        offered = int(state.resignation.level)
        accept = offered >= expected_points(state, seat)
        return Decision("accept" if accept else "reject")
    raise ValueError(f"nothing for the long nardy player to decide in phase {state.phase.value}")


def _round_trips(play: Play) -> bool:
    """Whether the play's notation reads back as the same play. Some long nardy plays whose
    step order matters under the six-block rule are written in a form the parser reads
    differently (a gammon notation bug); the player then prefers its next-best play."""
    try:
        return parse_play(str(play), play.start, play.dice) == play
    except PlayError:
        return False
