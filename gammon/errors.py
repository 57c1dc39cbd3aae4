"""The three ways a typed play can fail, all ``ValueError`` (as python-chess does for moves).

Every message names the input, the dice and the GNU Backgammon Position ID, so a report can be
pasted straight into GNU Backgammon. ``reason`` is a stable code the chat layer translates.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gammon.play import Play
    from gammon.position import Position


_LISTED = 5
"""Candidates named in an ambiguity message; the exception keeps them all."""


class PlayError(ValueError):
    """A typed play that cannot be accepted."""

    def __init__(
        self, message: str, *, text: str, position: Position, dice: Sequence[int], reason: str
    ) -> None:
        roll = "-".join(str(die) for die in dice)
        super().__init__(f"{message} (input {text!r}, dice {roll}, position {position.id()})")
        self.text = text
        self.position = position
        self.dice = tuple(dice)
        self.reason = reason
        self.detail = message


class InvalidNotationError(PlayError):
    """The text cannot be read as backgammon notation."""


class IllegalPlayError(PlayError):
    """The text reads fine but is not a legal play; ``alternatives`` are the closest legal ones."""

    def __init__(
        self,
        message: str,
        *,
        text: str,
        position: Position,
        dice: Sequence[int],
        reason: str,
        alternatives: Sequence[Play] = (),
    ) -> None:
        self.alternatives = tuple(alternatives)
        if self.alternatives:
            message += ". Closest legal plays: " + ", ".join(
                str(play) for play in self.alternatives
            )
        super().__init__(message, text=text, position=position, dice=dice, reason=reason)


class AmbiguousPlayError(PlayError):
    """The text fits more than one legal play; ``candidates`` lists them."""

    def __init__(
        self, *, text: str, position: Position, dice: Sequence[int], candidates: Sequence[Play]
    ) -> None:
        self.candidates = tuple(candidates)
        shown = [str(play) for play in self.candidates[:_LISTED]]
        more = len(self.candidates) - len(shown)
        listed = ", ".join(shown) + (f" or {more} more" if more > 0 else "")
        super().__init__(
            f"ambiguous play: it could mean {listed}",
            text=text,
            position=position,
            dice=dice,
            reason="ambiguous",
        )
