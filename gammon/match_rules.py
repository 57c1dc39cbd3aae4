"""The rules a match or series is played under: variant, length and the optional rules."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from gammon.clock_setting import ClockSetting
from gammon.position import Variant

MAX_MATCH_LENGTH: Final = 25
SERIES_STARTS: Final = ("loser", "alternate")


@dataclass(frozen=True)
class MatchRules:
    """``length`` 1..25 points, or 0 for money play (backgammon) or single games (long nardy).

    Backgammon matches follow the tournament rules: the Crawford rule always applies and the
    money-only options (Jacoby, beavers, automatic doubles, the latter capped per game) are
    refused. ``cube`` ``None`` means the variant's default: backgammon has the doubling cube,
    long nardy never does. Long nardy options: ``mars`` (a loser who bore off nothing pays
    two points; off: every result is one point), ``last_roll`` (when the starter bears off
    first the other player rolls once more, and a draw if that finishes them too), and
    ``series_start``: who starts the later games of a series, the ``loser`` of the previous
    game or ``alternate``. ``clock``: a match clock (:mod:`gammon.clock`), backgammon matches
    only; written by :meth:`to_dict` only when set, so rules without one read as before.
    """

    length: int = 3
    cube: bool | None = None
    jacoby: bool = False
    beavers: bool = False
    automatic_doubles: int = 0
    variant: Variant = Variant.BACKGAMMON
    mars: bool = True
    last_roll: bool = False
    series_start: str = "loser"
    clock: ClockSetting | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "variant", Variant(self.variant))
        if isinstance(self.clock, dict):
            object.__setattr__(self, "clock", ClockSetting.from_dict(self.clock))
        if self.clock is not None and (self.is_money or self.variant is not Variant.BACKGAMMON):
            raise ValueError("clocks are for backgammon matches (a length of 1 to 25 points)")
        if not isinstance(self.length, int) or not 0 <= self.length <= MAX_MATCH_LENGTH:
            raise ValueError(f"match length is 1 to {MAX_MATCH_LENGTH}, or 0 for money play")
        if not 0 <= self.automatic_doubles <= 6:
            raise ValueError("automatic doubles per game: 0 (off) to 6")
        if self.series_start not in SERIES_STARTS:
            raise ValueError(f"series_start is one of {SERIES_STARTS}")
        money_options = self.jacoby or self.beavers or self.automatic_doubles
        if self.variant is Variant.LONG_NARDY:
            if self.cube or money_options:
                raise ValueError("long nardy is played without the doubling cube")
            return
        if self.length and money_options:
            raise ValueError(
                "Jacoby, beavers and automatic doubles are money-play rules; matches never use them"
            )
        if not self.uses_cube and money_options:
            raise ValueError("Jacoby, beavers and automatic doubles need the doubling cube")
        if not self.mars or self.last_roll or self.series_start != "loser":
            raise ValueError("mars, last roll and series start are long nardy options")

    @property
    def is_money(self) -> bool:
        """Unlimited play: money sessions, or single games of long nardy."""
        return self.length == 0

    @property
    def uses_cube(self) -> bool:
        return self.variant is Variant.BACKGAMMON if self.cube is None else self.cube

    def to_dict(self) -> dict[str, Any]:
        return {
            "length": self.length,
            "cube": self.cube,
            "jacoby": self.jacoby,
            "beavers": self.beavers,
            "automatic_doubles": self.automatic_doubles,
            "variant": self.variant.value,
            "mars": self.mars,
            "last_roll": self.last_roll,
            "series_start": self.series_start,
        } | ({} if self.clock is None else {"clock": self.clock.to_dict()})

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchRules:
        unknown = set(data) - _RULE_NAMES  # the names to_dict writes
        if unknown:
            raise ValueError(f"unknown match rules: {sorted(unknown)}")
        return cls(**data)


# Computed once: every match row read turns its rules back into MatchRules.
_RULE_NAMES: Final = frozenset(MatchRules().to_dict()) | {"clock"}
