"""Whole games between two computer players, for tests, benchmarks and tuning.

A *decider* is a function ``(state, seat) -> Decision``: what the player in ``seat`` does in a
:class:`~gammon.flow.MatchState` where it is their turn to act. The arena rolls the dice from a
seeded :class:`random.Random`, turns each decision into an action and applies it through
:func:`gammon.flow.advance` (which records unplayable rolls by itself), until the game ends.
Works for both variants; backgammon games are played without the doubling cube.

>>> import random
>>> from gammon import Variant
>>> results = play_games(
...     random_decider(random.Random(1)), random_decider(random.Random(2)), 2, seed=7,
...     variant=Variant.LONG_NARDY,
... )
>>> len(results.games), sum(results.wins) + results.draws
(2, 2)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from engine.acting import action_for
from engine.api import Decision
from gammon.actions import (
    Action,
    Move,
    OpeningRoll,
    WinKind,
)
from gammon.flow import MatchState, Phase, advance, new_match
from gammon.match_rules import MatchRules
from gammon.position import Variant

Decider = Callable[[MatchState, int], Decision]
MAX_ACTIONS: Final = 5000
"""A game that takes more actions than this is a bug (a long nardy game takes about 250)."""


@dataclass(frozen=True)
class GameOutcome:
    """One game of :func:`play_games`. ``winner`` is 0 for the first decider, 1 for the second,
    ``None`` for a draw (long nardy's last roll); ``first_seat`` is the seat the first decider
    sat in; ``points`` what the winner scored (mars/gammon 2); ``turns`` the plays made."""

    winner: int | None
    points: int
    kind: WinKind | None
    first_seat: int
    turns: int


@dataclass(frozen=True)
class Results:
    """All games of :func:`play_games`, with totals from the first decider's view first."""

    games: tuple[GameOutcome, ...]

    @property
    def wins(self) -> tuple[int, int]:
        """Games won by (first, second)."""
        first = sum(1 for game in self.games if game.winner == 0)
        second = sum(1 for game in self.games if game.winner == 1)
        return (first, second)

    @property
    def draws(self) -> int:
        return sum(1 for game in self.games if game.winner is None)

    @property
    def points(self) -> tuple[int, int]:
        """Points scored by (first, second)."""
        first = sum(game.points for game in self.games if game.winner == 0)
        second = sum(game.points for game in self.games if game.winner == 1)
        return (first, second)


def rules_for(variant: Variant) -> MatchRules:
    """The rules of one arena game: a single long nardy game with mars, or a cubeless
    backgammon money game."""
    if variant is Variant.LONG_NARDY:
        return MatchRules(length=0, variant=Variant.LONG_NARDY)
    return MatchRules(length=0, cube=False, variant=Variant.BACKGAMMON)


def play_games(
    first: Decider,
    second: Decider,
    games: int,
    seed: int,
    variant: Variant = Variant.LONG_NARDY,
    *,
    rules: MatchRules | None = None,
) -> Results:
    """Play ``games`` games in duplicate pairs: the first decider sits in seat 0 in even games
    and seat 1 in odd ones, and the two games of a pair roll the same dice (game ``n`` from
    ``random.Random(f"arena:{seed}:{n // 2}")``), so each player gets the other's luck in
    turn (the same opening roll, the same rolls) as long as the games run alike. Every game
    can be replayed on its own."""
    rules = rules or rules_for(variant)
    outcomes = []
    for number in range(games):
        first_seat = number % 2
        seats = (first, second) if first_seat == 0 else (second, first)
        dice = random.Random(f"arena:{seed}:{number // 2}")
        state, turns = play_game(seats, dice, rules)
        result = state.games[0]
        winner = None if result.winner is None else int(result.winner != first_seat)
        outcomes.append(GameOutcome(winner, result.points, result.kind, first_seat, turns))
    return Results(tuple(outcomes))


def play_game(
    seats: tuple[Decider, Decider], dice: random.Random, rules: MatchRules
) -> tuple[MatchState, int]:
    """Play the first game of a match under ``rules``: ``seats[n]`` decides for player ``n``.
    Returns the state once that game is over (``state.games[0]`` is its result) and the
    number of plays made."""
    state = new_match(rules)
    turns = 0
    for _count in range(MAX_ACTIONS):
        if state.games:
            return state, turns
        if state.phase is Phase.OPENING:
            action: Action = OpeningRoll(_roll(dice))
        else:
            seat = state.turn
            if seat is None:
                raise RuntimeError(f"nobody to act in phase {state.phase.value}")
            action = action_for(state, seats[seat](state, seat), seat, lambda: _roll(dice))
            turns += isinstance(action, Move)
        state, _recorded = advance(state, action)
    raise RuntimeError(f"the game did not end within {MAX_ACTIONS} actions")


def random_decider(rng: random.Random) -> Decider:
    """A player that rolls, plays a uniformly random legal play, takes every double and
    rejects every resignation."""

    def decide(state: MatchState, seat: int) -> Decision:
        if state.phase is Phase.MOVING:
            return Decision("move", play=str(rng.choice(state.legal_plays())))
        if state.phase is Phase.DOUBLED:
            return Decision("take")
        if state.phase is Phase.RESIGNING:
            return Decision("reject")
        return Decision("roll")

    return decide


def _roll(dice: random.Random) -> tuple[int, int]:
    return (dice.randint(1, 6), dice.randint(1, 6))
