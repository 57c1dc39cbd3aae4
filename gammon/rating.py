"""The FIBS rating formula, the common currency of online backgammon.

Everyone starts at 1500 with no experience. For a match of length N between players whose
ratings differ by D, the underdog (the lower rated player) wins with the chance

    P_upset = 1 / (10^(D·√N / 2000) + 1).

A winner who was the underdog gains 4·√N·(1 − P_upset), a winning favourite 4·√N·P_upset:
4·√N times the chance the winner was given to lose. The loser loses the same base amount.
Each player's change is multiplied by that player's own experience factor
max(1, 5 − experience/100), where experience is the sum of the lengths of the rated matches
the player finished before this one: new players move five times as fast, players with 400
points of experience or more at the base rate. Experience then grows by N for both.

Plain floats in a fixed order of operations: recomputing the same matches in the same order
gives bit for bit the same ratings on every machine (IEEE 754 doubles).

>>> change = rate(Standing(1500.0, 0), Standing(1500.0, 0), 5)
>>> round(change.winner.rating, 4), round(change.loser.rating, 4)
(1522.3607, 1477.6393)
>>> change.winner.experience, change.loser.experience
(5, 5)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from gammon.standing import START_RATING, Standing

__all__ = [
    "FULL_EXPERIENCE",
    "START_RATING",
    "RatingChange",
    "Standing",
    "experience_factor",
    "rate",
    "upset_chance",
    "winning_chance",
]

FULL_EXPERIENCE: Final = 400  # from here on the experience factor is 1


@dataclass(frozen=True, slots=True)
class RatingChange:
    """Both players' standings after a rated match, and what changed."""

    winner: Standing
    loser: Standing
    winner_gain: float
    loser_loss: float


def upset_chance(difference: float, length: int) -> float:
    """The chance that the lower rated player wins a ``length``-point match when the ratings
    differ by ``difference`` (either sign).

    >>> upset_chance(0, 7)
    0.5
    >>> round(1 - upset_chance(100, 5), 3)  # the favourite's share, FIBS's own table
    0.564
    """
    return 1 / (10 ** (abs(difference) * math.sqrt(length) / 2000) + 1)


def winning_chance(rating: float, opponent: float, length: int) -> float:
    """The chance the formula gives a player rated ``rating`` to beat ``opponent``."""
    upset = upset_chance(rating - opponent, length)
    return upset if rating < opponent else 1 - upset


def experience_factor(experience: int) -> float:
    """max(1, 5 − experience/100): 5 for a new player, 1 from 400 points of experience.

    >>> experience_factor(0), experience_factor(150), experience_factor(400), experience_factor(900)
    (5.0, 3.5, 1.0, 1.0)
    """
    return max(1.0, 5 - experience / 100)


def rate(winner: Standing, loser: Standing, length: int) -> RatingChange:
    """The standings after ``winner`` beat ``loser`` in a ``length``-point match."""
    if length < 1:
        raise ValueError("a rated match has a length of at least 1")
    base = 4 * math.sqrt(length) * (1 - winning_chance(winner.rating, loser.rating, length))
    gain = base * experience_factor(winner.experience)
    loss = base * experience_factor(loser.experience)
    return RatingChange(
        winner=Standing(winner.rating + gain, winner.experience + length),
        loser=Standing(loser.rating - loss, loser.experience + length),
        winner_gain=gain,
        loser_loss=loss,
    )
