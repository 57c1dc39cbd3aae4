"""What the bot does when it is its turn: one :class:`~engine.api.Decision` per match phase.

The engine ranks the choices (:mod:`engine.backgammon`); a playing level then picks among them
as GNU Backgammon's presets do, by adding Gaussian noise of the level's size to each
candidate's equity — every legal play, and the three cube equities (no double, double/take,
double/pass) — and taking the best after the noise (for the cube: what the cube rule of
:mod:`engine.cube_rule` makes of the noisy equities). The noise comes from
``random.Random(seed)`` and is drawn in a fixed order, so one seed always gives one choice.
Resignations are answered without noise: it is arithmetic, not judgement.

Long nardy is delegated to :func:`engine.nardy.decide`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.api import CubeAdvice, CubeVerdict, Decision, Level, RankedPlay, Situation
from engine.backgammon import match_equity, rank_plays, winning_chance
from engine.backgammon_cube import cube_advice, evaluate
from engine.cube_rule import BEAVER, PASS, CubeEquities, best_answer, cube_action
from engine.levels import spec
from gammon.flow import MatchState, Phase, game_points
from gammon.position import Variant

_TIE = 1e-6
"""Equities this close count as equal when answering a resignation."""


def decide(state: MatchState, seat: int, level: Level, seed: int) -> Decision:
    """What the player in ``seat`` does now; ``ValueError`` unless it is their turn.

    Rolling: ``"double"`` or ``"roll"``. Moving: ``"move"`` with the play's notation (the only
    play when there is one). Doubled: ``"take"``, ``"drop"`` or ``"beaver"``. A resignation
    offer: ``"accept"`` or ``"reject"``.
    """
    if state.turn != seat:
        raise ValueError(f"it is not seat {seat}'s turn to act (phase {state.phase.value})")
    if state.variant is Variant.LONG_NARDY:
        from engine import nardy

        return nardy.decide(state, seat, seed)
    noise = spec(level).noise
    rng = random.Random(seed)
    if state.phase is Phase.ROLLING:
        return _before_roll(state, seat, level, noise, rng)
    if state.phase is Phase.MOVING:
        return _move(state, seat, level, noise, rng)
    if state.phase is Phase.DOUBLED:
        return _answer_double(state, level, noise, rng)
    if state.phase is Phase.RESIGNING:
        return Decision("accept" if accepts_resignation(state, seat, level) else "reject")
    raise ValueError(f"nothing to decide in phase {state.phase.value}")


# --- noise ----------------------------------------------------------------------------------


def noisy_choice(plays: Sequence[RankedPlay], noise: float, rng: random.Random) -> RankedPlay:
    """The best of ``plays`` after adding Gaussian noise (std ``noise``) to each equity; the
    best play itself without noise. Draws go by result ID, not by rank, so a seed's choice does
    not hang on how the engine orders plays of equal equity."""
    if noise <= 0 or len(plays) == 1:
        return plays[0]
    jitter = {
        play.result_id: rng.gauss(0.0, noise)
        for play in sorted(plays, key=lambda play: play.result_id)
    }
    return max(plays, key=lambda play: play.equity + jitter[play.result_id])


def _noisy_cube(advice: CubeAdvice, noise: float, rng: random.Random) -> CubeEquities:
    """The three cube equities (no double, double/take, double/pass), each with its noise;
    as they are without noise."""
    if noise <= 0:
        return CubeEquities(advice.no_double, advice.double_take, advice.double_pass)
    return CubeEquities(
        advice.no_double + rng.gauss(0.0, noise),
        advice.double_take + rng.gauss(0.0, noise),
        advice.double_pass + rng.gauss(0.0, noise),
    )


# --- the phases -----------------------------------------------------------------------------


def _before_roll(
    state: MatchState, seat: int, level: Level, noise: float, rng: random.Random
) -> Decision:
    """Double when the cube rule says so, on the equities with the level's noise."""
    if state.double_refusal(seat) is not None:
        return Decision("roll")
    situation = Situation.of(state, seat)
    advice = cube_advice(situation, level)
    if advice.verdict is CubeVerdict.NO_CUBE:
        return Decision("roll")
    beavers = situation.beavers and situation.is_money
    action = cube_action(
        _noisy_cube(advice, noise, rng),
        may_double=True,
        beavers=beavers,
        gammon_chances=advice.evaluation.probabilities.win_gammon > 0,
    )
    return Decision("double" if action.double else "roll")


def _move(state: MatchState, seat: int, level: Level, noise: float, rng: random.Random) -> Decision:
    plays = state.legal_plays()
    if not plays:
        raise ValueError("no legal play: the rules pass such a turn by themselves")
    if len(plays) == 1:
        return Decision("move", str(plays[0]))
    assert state.dice is not None
    ranked = rank_plays(Situation.of(state, seat), state.dice, level)
    return Decision("move", noisy_choice(ranked, noise, rng).notation)


def _answer_double(state: MatchState, level: Level, noise: float, rng: random.Random) -> Decision:
    """Take, drop or beaver by the cube rule, from the doubler's cube analysis (with the
    level's noise): the answer that leaves the doubler least."""
    advice = cube_advice(Situation.of(state, state.player_on_roll), level)
    beavers = state.rules.is_money and state.rules.beavers
    answer = best_answer(_noisy_cube(advice, noise, rng), beavers)
    if answer == PASS:
        return Decision("drop")
    return Decision("beaver" if answer == BEAVER else "take")


# --- resignations ---------------------------------------------------------------------------


def equity_playing_on(state: MatchState, seat: int, level: Level) -> float:
    """``seat``'s cubeful equity (per cube; EMG in a match) if the game goes on from here.

    The player on roll (the resigner, usually) either still has to roll — then it is their
    pre-roll equity with their best cube action — or has rolled, and then it is the equity
    after their best play of the dice.
    """
    on_roll = state.player_on_roll
    offer = state.resignation
    rolled = offer is not None and offer.resume is Phase.MOVING and state.dice is not None
    if rolled:
        assert state.dice is not None
        ranked = rank_plays(Situation.of(state, on_roll), state.dice, level)
        if ranked:
            mover = ranked[0].equity
        else:  # the roll cannot be played: the other player rolls next
            mover = -evaluate(Situation.of(state, 1 - on_roll), level).cubeful_equity
    else:
        mover = evaluate(Situation.of(state, on_roll), level).cubeful_equity
    return mover if on_roll == seat else -mover


def accepts_resignation(state: MatchState, seat: int, level: Level) -> bool:
    """Accept when the offer gives at least what playing on is worth to ``seat``.

    The offer scores as the game would (:func:`gammon.flow.game_points`: its kind times the
    cube, a single game under Jacoby while the cube is unturned). Money: compared in points
    with the cubeful equity times the cube. Match: compared as match-winning chances, the
    offer's through the match equity table at the score it leads to. A tie accepts: a position
    that can only be cashed is worth exactly the cash, and rounding must not reject it.
    """
    offer = state.resignation
    if offer is None:
        raise ValueError("there is no resignation to answer")
    points = game_points(state, offer.level)
    equity = equity_playing_on(state, seat, level)
    if state.rules.is_money:
        return points >= equity * state.cube_value - _TIE
    situation = Situation.of(state, seat)
    away, other = situation.away
    # After this game the Crawford game is over or was never to be (no cube, no Crawford).
    post_crawford = state.crawford_used or not state.rules.uses_cube
    offered = match_equity(away - points, other, post_crawford)
    return offered >= winning_chance(situation, equity) - _TIE
