"""The rules a match is played under: its length and, for money play, the optional rules."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

MAX_MATCH_LENGTH: Final = 25


@dataclass(frozen=True)
class MatchRules:
    """``length`` 1..25 points, or 0 for money (unlimited) play.

    Tournament rules govern matches: the Crawford rule always applies and the money-only
    options (Jacoby, beavers, automatic doubles) are refused. ``automatic_doubles`` is the
    per-game cap of automatic doubles on tied opening rolls (0 = off). ``cube`` False plays
    without the doubling cube.
    """

    length: int = 3
    cube: bool = True
    jacoby: bool = False
    beavers: bool = False
    automatic_doubles: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.length, int) or not 0 <= self.length <= MAX_MATCH_LENGTH:
            raise ValueError(f"match length is 1 to {MAX_MATCH_LENGTH}, or 0 for money play")
        if not 0 <= self.automatic_doubles <= 6:
            raise ValueError("automatic doubles per game: 0 (off) to 6")
        if self.length and (self.jacoby or self.beavers or self.automatic_doubles):
            raise ValueError(
                "Jacoby, beavers and automatic doubles are money-play rules; matches never use them"
            )
        if not self.cube and (self.beavers or self.automatic_doubles):
            raise ValueError("beavers and automatic doubles need the doubling cube")

    @property
    def is_money(self) -> bool:
        return self.length == 0

    def to_dict(self) -> dict[str, int | bool]:
        return {
            "length": self.length,
            "cube": self.cube,
            "jacoby": self.jacoby,
            "beavers": self.beavers,
            "automatic_doubles": self.automatic_doubles,
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> MatchRules:
        known = {"length", "cube", "jacoby", "beavers", "automatic_doubles"}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown match rules: {sorted(unknown)}")
        return cls(**data)  # type: ignore[arg-type]
