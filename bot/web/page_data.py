"""What the match overview and the replay page show: plain values the server fills in.

Texts that depend on the match (its status, how each game ended) arrive already translated;
the pages translate only their own fixed strings.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GameRow:
    """One finished game: ``winner`` is a name, ``None`` for a draw (long nardy)."""

    number: int
    winner: str | None
    points: int
    how: str
    score_after: tuple[int, int]


@dataclass(frozen=True)
class MatchPageData:
    """The match overview. ``length`` 0 is money play (single games in long nardy); a link
    that is ``None`` is left out."""

    number: int
    names: tuple[str, str]
    variant: str
    length: int
    status: str
    finished: bool
    games: tuple[GameRow, ...]
    replay_url: str | None
    verify_url: str | None


@dataclass(frozen=True)
class Frame:
    """One position of a replay: the board picture the server sends, and what happened."""

    image_url: str
    caption: str


@dataclass(frozen=True)
class ReplayPageData:
    """A replay: for each game (in order) its frames, shown one at a time."""

    number: int
    names: tuple[str, str]
    games: tuple[tuple[Frame, ...], ...]

    def __post_init__(self) -> None:
        if not all(self.games):
            raise ValueError("every game of a replay has at least one frame")
