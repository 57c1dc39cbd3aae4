"""The lines of a game in a ``.mat`` file, laid out exactly as GNU Backgammon 1.07 writes them.

gnubg's writer (``ExportGameJF``) numbers rows of two cells: ``"%3d) %-27s "`` for the left-hand
player (player 0), then the right-hand player's cell and the line's end. Its reader cuts a line
at a second ``dd:``, else at the first two spaces from column 15 on, and a line it does not cut
again reuses the right-hand cell of an earlier, longer line (its buffer still holds it). So the
padding is part of the format: a lone ``"  6)  Drops"`` after ``"... Doubles => 4"`` makes gnubg
read the double twice. Where the "Wins" of a drop, a resignation or a last checker borne off
goes follows gnubg too, except the two resignations gnubg's reader misses in its own layout
(a resignation after the other side's roll, see :func:`_resignation`).

>>> for line in lay_out([Play(0, (3, 1), "8/5 6/5"), Offer(1, 2), Drop(0, 1)]).splitlines():
...     print(repr(line))
'  1) 31: 8/5 6/5                  Doubles => 2'
'  2)  Drops                       Wins 1 point '
''
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

LEFT_WIDTH: Final = 27  # "%3d) %-27s " then the right cell
RIGHT_COLUMN: Final = 5 + LEFT_WIDTH + 1  # where the right-hand cell starts
_LEFT_WINS: Final = " " * 6  # a "Wins" line of the left-hand player
_RIGHT_WINS: Final = " " * (RIGHT_COLUMN + 1)  # ... and of the right-hand one


@dataclass(frozen=True)
class Play:
    """A roll and its play (``""``: the roll cannot be played)."""

    player: int
    dice: tuple[int, int]
    play: str


@dataclass(frozen=True)
class Rolled:
    """Dice rolled and not played: a resignation follows, or the record stops here."""

    player: int
    dice: tuple[int, int]


@dataclass(frozen=True)
class Offer:
    """A double (``beaver`` false) or a beaver, turning the cube to ``value``."""

    player: int
    value: int
    beaver: bool = False


@dataclass(frozen=True)
class Take:
    player: int


@dataclass(frozen=True)
class Drop:
    """The double is dropped; the doubler wins ``points``."""

    player: int
    points: int


@dataclass(frozen=True)
class Resigned:
    """``player`` resigned and the opponent accepted: it wins ``points``."""

    player: int
    points: int


@dataclass(frozen=True)
class Result:
    """How the game that the last play finished ended: ``winner`` ``None`` is a draw."""

    winner: int | None
    points: int


Record = Play | Rolled | Offer | Take | Drop | Resigned | Result


def wins_text(points: int) -> str:
    return f"Wins {points} point{'s' if points != 1 else ''}"


def lay_out(records: Iterable[Record]) -> str:
    """The move lines of one game, each ending in a newline (the last may stay open when the
    record stops in the middle of a row)."""
    return _Layout().run(records)


class _Layout:
    def __init__(self) -> None:
        self.out: list[str] = []
        self.half = 0  # gnubg's "i": even for a left-hand cell, odd for a right-hand one
        self.line_open = False  # a row is written but not yet ended
        self.rolled = False  # the last cell is bare dice

    def run(self, records: Iterable[Record]) -> str:
        for record in records:
            if isinstance(record, Result):
                self._result(record)
            elif isinstance(record, Resigned):
                self._write(_resignation(record, self.half, self.rolled, self.line_open))
                self.line_open = False
            else:
                self._cell(record)
        text = "".join(self.out)
        return text + "\n" if self.line_open else text

    def _cell(self, record: Play | Rolled | Offer | Take | Drop) -> None:
        if self.half == 0 and isinstance(record, Play | Rolled) and record.player == 1:
            self._write("  1)" + " " * (RIGHT_COLUMN - 4))  # the right-hand player opened
            self.half, self.line_open = 1, True
        self.rolled = isinstance(record, Rolled)
        text = _cell_text(record, self.half)
        if self.half & 1:
            self._write(text if self.rolled else text + "\n")
            self.line_open = self.rolled
        else:
            number = (self.half >> 1) + 1
            cell = text if self.rolled else f"{text:<{LEFT_WIDTH}} "
            self._write(f"{number:3d}) {cell}")
            self.line_open = True
        if isinstance(record, Drop):
            self._write("\n" if self.half & 1 else "\n\n")
            self.line_open = False
        self.half += 1

    def _result(self, record: Result) -> None:
        """The line after a game's last play, on the winner's side (the mover's, in
        backgammon; in long nardy's last roll the other player may have won)."""
        indent = _RIGHT_WINS if record.winner == 1 else _LEFT_WINS
        text = "Draw" if record.winner is None else wins_text(record.points)
        self._write(("\n" if self.line_open else "") + indent + text + "\n\n")
        self.line_open = False

    def _write(self, text: str) -> None:
        self.out.append(text)


def _cell_text(record: Play | Rolled | Offer | Take | Drop, half: int) -> str:
    if isinstance(record, Play | Rolled):
        dice = f"{record.dice[0]}{record.dice[1]}: "
        return dice + record.play if isinstance(record, Play) else dice
    if isinstance(record, Offer):
        return f" {'Beavers' if record.beaver else 'Doubles'} => {record.value}"
    if isinstance(record, Take):
        return " Takes"
    # The left-hand player's drop has the "Wins" on its line, where gnubg reads the right cell.
    gap = "\n" + _LEFT_WINS if half & 1 else " " * 23
    return f" Drops{gap}{wins_text(record.points)}"


def _resignation(record: Resigned, half: int, rolled: bool, line_open: bool) -> str:
    """gnubg's placement of a resignation's "Wins", which its reader takes as a resignation
    by the other player of the cell it lands in.

    Two cases differ from gnubg's writer, whose reader would read the "Wins" as the play of
    bare dice: the right-hand player resigns after the left one rolled (gnubg writes the
    "Wins" on the left's dice line; here the line is padded and ended first), and the left-hand
    player resigns after the right one rolled (gnubg appends it to the dice; here it gets a
    line of its own, on the right)."""
    text = wins_text(record.points) + "\n\n"
    left_wins = record.player == 1
    if not line_open:
        return (_LEFT_WINS if left_wins else _RIGHT_WINS) + text
    if rolled and half & 1:  # the left-hand player's dice: "%3d) dd: "
        if left_wins:
            return " " * (RIGHT_COLUMN - 9) + "\n" + _LEFT_WINS + text
        return " " * (RIGHT_COLUMN - 9) + text
    if rolled:  # the right-hand player's dice end the line
        return "\n" + (_LEFT_WINS if left_wins else _RIGHT_WINS) + text
    # A left-hand cell that is not dice alone, padded to the right-hand column.
    return "\n" + _LEFT_WINS + text if left_wins else " " + text
