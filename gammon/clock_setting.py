"""A match clock's setting (:mod:`gammon.clock`): the delay per period and each player's
reserve, as ``clock=`` takes it.

>>> parse_clock("normal")
ClockSetting(delay=10, reserve=60, per_point=True)
>>> parse_clock("10s+5m").text(), parse_clock("8s+20s/pt").text()
('10s+5m', 'fast')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final

MAX_DELAY: Final = 600  # seconds
MAX_RESERVE: Final = 24 * 3600  # seconds, for the whole match
_UNITS: Final = {"s": 1, "m": 60, "h": 3600}
_PATTERN: Final = re.compile(r"(\d{1,4})s?\+(\d{1,5})([smh])(/(?:pt|point|p))?")


@dataclass(frozen=True)
class ClockSetting:
    """``delay`` seconds free per period, then a reserve of ``reserve`` seconds per player, or
    ``reserve`` seconds per match point when ``per_point``."""

    delay: int
    reserve: int
    per_point: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.delay <= MAX_DELAY:
            raise ValueError(f"the delay is 0 to {MAX_DELAY} seconds")
        if not 1 <= self.reserve <= MAX_RESERVE:
            raise ValueError("the reserve is at least one second and at most a day")

    def reserve_for(self, length: int) -> int:
        """Each player's reserve in seconds for a match of ``length`` points."""
        return self.reserve * max(length, 1) if self.per_point else self.reserve

    def text(self) -> str:
        """The setting as ``clock=`` takes it: a preset's name, or ``8s+20s/pt``."""
        for name, preset in PRESETS.items():
            if preset == self:
                return name
        return f"{self.delay}s+{_span(self.reserve)}" + ("/pt" if self.per_point else "")

    def to_dict(self) -> dict[str, Any]:
        return {"delay": self.delay, "reserve": self.reserve, "per_point": self.per_point}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ClockSetting:
        if not isinstance(data, dict) or set(data) != {"delay", "reserve", "per_point"}:
            raise ValueError(f"not a clock setting: {data!r}")
        return cls(int(data["delay"]), int(data["reserve"]), bool(data["per_point"]))


PRESETS: Final = {
    "fast": ClockSetting(8, 20, per_point=True),
    "normal": ClockSetting(10, 60, per_point=True),
}


def _span(seconds: int) -> str:
    for unit in ("h", "m"):
        if seconds % _UNITS[unit] == 0:
            return f"{seconds // _UNITS[unit]}{unit}"
    return f"{seconds}s"


def parse_clock(text: str) -> ClockSetting:
    """``fast`` (8 s + 20 s per point), ``normal`` (10 s + 1 min per point) or
    ``<delay>s+<reserve><s|m|h>[/pt]``; raises ``ValueError`` on anything else."""
    word = text.strip().lower()
    if word in PRESETS:
        return PRESETS[word]
    found = _PATTERN.fullmatch(word)
    if found is None:
        raise ValueError(f"not a clock: {text!r}")
    reserve = int(found.group(2)) * _UNITS[found.group(3)]
    return ClockSetting(int(found.group(1)), reserve, per_point=found.group(4) is not None)


def clock_face(reserve: int) -> str:
    """A reserve (ms) as a clock shows it, minutes and seconds.

    >>> clock_face(159_000), clock_face(7_400), clock_face(3_600_000)
    ('2:39', '0:07', '60:00')
    """
    return f"{reserve // 60_000}:{reserve // 1000 % 60:02d}"
