"""What the match overview and the replay page show: plain values the server fills in.

Texts that depend on the match (its status, how each game ended) arrive already translated;
the pages translate only their own fixed strings.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GameRow:
    """One finished game: ``winner`` is a name, ``None`` for a draw (long nardy);
    ``replay_url`` opens the replay at this game."""

    number: int
    winner: str | None
    points: int
    how: str
    score_after: tuple[int, int]
    replay_url: str | None = None


@dataclass(frozen=True)
class Board:
    """The picture of the match's last position (the final one once it has ended) and what
    happened there."""

    image_url: str
    caption: str


@dataclass(frozen=True)
class AnalysedError:
    """One of the errors the analysis names, numbered as the chart's markers are."""

    number: int
    description: str  # "game 1, move 3, 6-1: played 13/7 8/7, best 8/2* 6/2 (−0.040)"
    position_id: str
    match_id: str


@dataclass(frozen=True)
class AnalysedPlayer:
    """A player's figures, each already a sentence part ("error rate 3.2 (PR)"), and their
    largest errors."""

    name: str
    figures: tuple[str, ...]
    errors: tuple[AnalysedError, ...]


@dataclass(frozen=True)
class AnalysisSummary:
    """The analysis on the match page: ``chart_url`` is its picture (``None`` where the bot
    draws no pictures), ``chart_text`` what the picture shows (its alternative text)."""

    level: str
    players: tuple[AnalysedPlayer, AnalysedPlayer]
    chart_url: str | None
    chart_text: str


@dataclass(frozen=True)
class MatchPageData:
    """The match overview. ``length`` 0 is money play (single games in long nardy); a link,
    picture or analysis that is ``None`` is left out (``analysing``: one is on its way)."""

    number: int
    names: tuple[str, str]
    variant: str
    length: int
    status: str
    finished: bool
    games: tuple[GameRow, ...]
    replay_url: str | None
    verify_url: str | None
    mat_url: str | None = None
    board: Board | None = None
    analysis: AnalysisSummary | None = None
    analysing: bool = False


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
    start: int = 0  # the game shown first (0-based)

    def __post_init__(self) -> None:
        if not all(self.games):
            raise ValueError("every game of a replay has at least one frame")
        if self.games and not 0 <= self.start < len(self.games):
            raise ValueError(f"there is no game {self.start + 1} to start the replay at")
