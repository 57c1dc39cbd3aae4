"""gammon: the backgammon rules, pure and standard-library only.

The public API: :class:`Position` (with GNU Backgammon Position IDs), :func:`legal_plays`,
:func:`parse_play` / :func:`format_play` (standard notation), :class:`Match` (GNU Backgammon
Match IDs), and the three notation errors.
"""

from gammon.errors import AmbiguousPlayError, IllegalPlayError, InvalidNotationError, PlayError
from gammon.match import GameState, Match, Resignation
from gammon.movegen import legal_plays
from gammon.notation import format_play, parse_play
from gammon.play import Play, Step
from gammon.position import Position, Variant

__all__ = [
    "AmbiguousPlayError",
    "GameState",
    "IllegalPlayError",
    "InvalidNotationError",
    "Match",
    "Play",
    "PlayError",
    "Position",
    "Resignation",
    "Step",
    "Variant",
    "format_play",
    "legal_plays",
    "parse_play",
]
