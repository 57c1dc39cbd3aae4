"""A player's standing in the ratings: a value the rating rule (:mod:`gammon.rating`) reads
and makes, and storage keeps; the rule itself lives with the rules, not here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

START_RATING: Final = 1500.0


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's rating and experience (match points played in rated matches)."""

    rating: float = START_RATING
    experience: int = 0
