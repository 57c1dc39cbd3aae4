"""The checker position: where each side's fifteen checkers stand.

A :class:`Position` is seen from the side on roll. Each side's checkers are a tuple of 26
counts in that side's own numbering: index 0 holds the checkers borne off, 1..24 the points
(1 is the side's own ace point, 24 its back point) and 25 the bar. The opponent's point ``q``
is the same triangle as the player's point ``25 - q``.

>>> start = Position.start()
>>> start.id()
'4HPwATDgc/ABMA'
>>> start.pip_counts()
(167, 167)
>>> Position.from_id('4HPwATDgc/ABMA') == start
True
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from typing import Final

from gammon._bits import decode_key, encode_key

CHECKERS: Final = 15
"""Checkers per side."""
OFF: Final = 0
"""Index of the borne-off checkers in a side's tuple."""
BAR: Final = 25
"""Index of the bar in a side's tuple."""
SLOTS: Final = 26
"""Length of a side's tuple: off, points 1..24, bar."""


class Variant(enum.StrEnum):
    """The game played on the board.

    In backgammon the sides move in opposite directions: the opponent's point ``q`` is the
    player's ``25 - q``. In long nardy both travel the same way round from their head (24) to
    their home (1..6): the opponent's point ``q`` is the player's ``q + 12`` or ``q - 12``.
    """

    BACKGAMMON = "backgammon"
    LONG_NARDY = "long_nardy"


def mirror_point(point: int, variant: Variant) -> int:
    """The other side's number for the player's point ``point`` (1..24)."""
    if variant is Variant.BACKGAMMON:
        return 25 - point
    return point + 12 if point <= 12 else point - 12


_START_POINTS: Final = {
    Variant.BACKGAMMON: {6: 5, 8: 3, 13: 5, 24: 2},
    Variant.LONG_NARDY: {24: 15},
}
_ID_BYTES: Final = 10
_ID_CHARS: Final = 14


def _side_from_points(points: dict[int, int]) -> tuple[int, ...]:
    side = [0] * SLOTS
    for point, count in points.items():
        side[point] = count
    side[OFF] = CHECKERS - sum(side)
    return tuple(side)


def _checked_side(side: Iterable[int], who: str) -> tuple[int, ...]:
    values = tuple(side)
    if len(values) != SLOTS:
        raise ValueError(
            f"{who}: expected {SLOTS} counts (off, points 1..24, bar), got {len(values)}"
        )
    for value in values:
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"{who}: checker counts must be non-negative integers: {values}")
    if sum(values) != CHECKERS:
        raise ValueError(
            f"{who}: a side has {CHECKERS} checkers, these counts add up to {sum(values)}"
        )
    return values


class Position:
    """An immutable checker position seen from the side on roll.

    ``player`` is the side on roll, ``opponent`` the other side; both tuples use their own
    side's numbering (see the module docstring). ``variant`` says how the two numberings meet.
    """

    __slots__ = ("_key", "opponent", "player", "variant")

    player: tuple[int, ...]
    opponent: tuple[int, ...]
    variant: Variant
    _key: int | None

    def __init__(
        self,
        player: Iterable[int],
        opponent: Iterable[int],
        variant: Variant | str = Variant.BACKGAMMON,
    ) -> None:
        kind = Variant(variant)
        mine = _checked_side(player, "player")
        theirs = _checked_side(opponent, "opponent")
        if kind is Variant.LONG_NARDY and (mine[BAR] or theirs[BAR]):
            raise ValueError("long nardy has no bar: no checker can stand on it")
        for point in range(1, 25):
            other = mirror_point(point, kind)
            if mine[point] and theirs[other]:
                raise ValueError(
                    f"point {point} holds checkers of both sides (player {mine[point]}, "
                    f"opponent {theirs[other]})"
                )
        _set = object.__setattr__
        _set(self, "player", mine)
        _set(self, "opponent", theirs)
        _set(self, "variant", kind)
        _set(self, "_key", None)

    @classmethod
    def _trusted(
        cls,
        player: tuple[int, ...],
        opponent: tuple[int, ...],
        variant: Variant = Variant.BACKGAMMON,
    ) -> Position:
        """Build without validation; only for values the engine itself derived."""
        position = object.__new__(cls)
        _set = object.__setattr__
        _set(position, "player", player)
        _set(position, "opponent", opponent)
        _set(position, "variant", variant)
        _set(position, "_key", None)
        return position

    @classmethod
    def start(cls, variant: Variant | str = Variant.BACKGAMMON) -> Position:
        """The starting position: backgammon's, or long nardy's (all fifteen on the head).

        >>> Position.start("long_nardy").id()
        'AACA/z8AAID/Pw'
        """
        return _STARTS[Variant(variant)]

    @classmethod
    def from_points(
        cls,
        player: dict[int, int],
        opponent: dict[int, int],
        variant: Variant | str = Variant.BACKGAMMON,
    ) -> Position:
        """Build from ``{point: count}`` maps (25 = bar); the rest of each side is borne off.

        >>> Position.from_points({6: 2, 5: 2}, {6: 1}).borne_off()
        (11, 14)
        """
        for who, points in (("player", player), ("opponent", opponent)):
            if any(not 1 <= point <= BAR for point in points):
                raise ValueError(f"{who}: points are 1..24, or 25 for the bar: {sorted(points)}")
            if sum(points.values()) > CHECKERS:
                raise ValueError(f"{who}: more than {CHECKERS} checkers")
        return cls(_side_from_points(player), _side_from_points(opponent), variant)

    @classmethod
    def from_id(cls, position_id: str, variant: Variant | str = Variant.BACKGAMMON) -> Position:
        """Read a GNU Backgammon Position ID (the side not on roll is encoded first).

        Long nardy positions use the same layout, each side in its own numbering (the bar
        slot always empty).

        >>> Position.from_id('4HPwATDgc/ABMA').player[24]
        2
        """
        key = decode_key(position_id, _ID_BYTES, _ID_CHARS, "Position ID")
        sides: list[tuple[int, ...]] = []
        bit = 0
        for who in ("opponent", "player"):
            counts = [0] * SLOTS
            for slot in range(25):  # points 1..24, then the bar
                run = 0
                while bit < 80 and (key >> bit) & 1:
                    run += 1
                    bit += 1
                if bit >= 80:
                    raise ValueError(f"not a valid Position ID (bits run out): {position_id!r}")
                bit += 1
                counts[slot + 1] = run
            on_board = sum(counts)
            if on_board > CHECKERS:
                raise ValueError(
                    f"not a valid Position ID ({who} has {on_board} checkers): {position_id!r}"
                )
            counts[OFF] = CHECKERS - on_board
            sides.append(tuple(counts))
        if key >> bit:
            raise ValueError(f"not a valid Position ID (stray bits at the end): {position_id!r}")
        position = cls(player=sides[1], opponent=sides[0], variant=variant)
        if position.id() != position_id:
            raise ValueError(f"not a canonical Position ID: {position_id!r}")
        return position

    def id(self) -> str:
        """The GNU Backgammon Position ID, exactly as gnubg writes it."""
        key = self._key
        if key is None:
            key = 0
            bit = 0
            for side in (self.opponent, self.player):
                for slot in range(1, SLOTS):
                    count = side[slot]
                    if count:
                        key |= ((1 << count) - 1) << bit
                        bit += count
                    bit += 1
            object.__setattr__(self, "_key", key)
        return encode_key(key, _ID_BYTES)

    def swapped(self) -> Position:
        """The same checkers with the other side on roll."""
        return Position._trusted(self.opponent, self.player, self.variant)

    def pip_counts(self) -> tuple[int, int]:
        """Pips to bear off: (player on roll, opponent). A checker on the bar counts 25."""
        return (_pips(self.player), _pips(self.opponent))

    def on_bar(self) -> tuple[int, int]:
        """Checkers on the bar: (player on roll, opponent)."""
        return (self.player[BAR], self.opponent[BAR])

    def borne_off(self) -> tuple[int, int]:
        """Checkers borne off: (player on roll, opponent)."""
        return (self.player[OFF], self.opponent[OFF])

    def opponent_on_point(self, point: int) -> int:
        """Opponent checkers on the player's point ``point`` (1..24)."""
        return self.opponent[mirror_point(point, self.variant)]

    def facing(self) -> tuple[int, ...]:
        """Opponent checkers on each of the player's points, indexed 0..25 like a side."""
        if self.variant is Variant.BACKGAMMON:
            return self.opponent[::-1]
        theirs = self.opponent
        return (0, *theirs[13:25], *theirs[1:13], 0)

    def all_home(self) -> bool:
        """True when every checker of the player on roll is home or borne off."""
        return not any(self.player[7:])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return (
            self.player == other.player
            and self.opponent == other.opponent
            and self.variant is other.variant
        )

    def __hash__(self) -> int:
        return hash((self.player, self.opponent, self.variant))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Position is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Position is immutable")

    def __repr__(self) -> str:
        if self.variant is Variant.BACKGAMMON:
            return f"Position.from_id({self.id()!r})"
        return f"Position.from_id({self.id()!r}, {self.variant.value!r})"

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return (Position.from_id, (self.id(), self.variant.value))


def _pips(side: Sequence[int]) -> int:
    return sum(point * side[point] for point in range(1, SLOTS))


_STARTS: Final = {
    variant: Position(_side_from_points(points), _side_from_points(points), variant)
    for variant, points in _START_POINTS.items()
}
