"""Values for one turn's checker play: a :class:`Step` per checker move, a :class:`Play` for all."""

from __future__ import annotations

from typing import NamedTuple

from gammon.position import BAR, OFF, Position


class Step(NamedTuple):
    """One checker moved by one die: ``start`` 25 is the bar, ``end`` 0 is off."""

    start: int
    end: int
    die: int
    hit: bool

    def __str__(self) -> str:
        start = "bar" if self.start == BAR else str(self.start)
        end = "off" if self.end == OFF else str(self.end)
        return f"{start}/{end}{'*' if self.hit else ''}"


class Play:
    """A complete play for the side on roll: its steps and the resulting position.

    ``result`` has the opponent on roll. Two plays are equal when they start from the same
    position with the same dice and reach the same resulting position, whatever order of
    steps led there.
    """

    __slots__ = ("_raw_steps", "dice", "result", "start")

    start: Position
    dice: tuple[int, int]
    result: Position
    _raw_steps: tuple[tuple[int, int, int, bool], ...]

    def __init__(
        self,
        start: Position,
        dice: tuple[int, int],
        steps: tuple[tuple[int, int, int, bool], ...],
        result: Position,
    ) -> None:
        _set = object.__setattr__
        _set(self, "start", start)
        _set(self, "dice", dice)
        _set(self, "_raw_steps", steps)
        _set(self, "result", result)

    @property
    def steps(self) -> tuple[Step, ...]:
        """The single-checker steps in an order in which they can be played."""
        return tuple(Step._make(raw) for raw in self._raw_steps)

    def hits(self) -> int:
        """How many opposing checkers this play sends to the bar."""
        return sum(1 for raw in self._raw_steps if raw[3])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Play):
            return NotImplemented
        return (
            self.result == other.result
            and self.start == other.start
            and sorted(self.dice) == sorted(other.dice)
        )

    def __hash__(self) -> int:
        return hash((self.start, self.result))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Play is immutable")

    def __reduce__(self) -> tuple[type[Play], tuple[object, ...]]:
        """Pickled as its constructor's arguments (setting attributes is refused), so plays
        travel to worker processes, e.g. in the frames of a replay to draw."""
        return (Play, (self.start, self.dice, self._raw_steps, self.result))

    def __str__(self) -> str:
        from gammon.notation import format_play

        return format_play(self)

    def __repr__(self) -> str:
        return f"parse_play({str(self)!r}, {self.start!r}, {self.dice!r})"
