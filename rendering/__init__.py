"""Board pictures: engine state in, PNG bytes out (Pillow only; never imports bot or storage).
Also the chart of a match analysis (plain values in, PNG bytes out), a chouette's board with
every member's cube, and a tournament's brackets and tables."""

from rendering.analysis_chart import ChartError, ChartLabels, draw_analysis_chart
from rendering.board import DEFAULT_WIDTH, render_board, render_image
from rendering.chouette import MemberCubeView, chouette_members, render_chouette
from rendering.labels import DEFAULT_LABELS
from rendering.leaderboard import LeaderboardLabels, LeaderboardLine, draw_leaderboard
from rendering.palette import encode
from rendering.theme import DEFAULT_THEME, THEMES, Theme
from rendering.tournament import draw_tournament
from rendering.tournament_view import (
    BracketMatch,
    BracketPart,
    BracketRound,
    Entry,
    StandingsTable,
    TableLine,
    TournamentLabels,
    TournamentPicture,
)
from rendering.view import BoardView, LastPlay

__all__ = [
    "DEFAULT_LABELS",
    "DEFAULT_THEME",
    "DEFAULT_WIDTH",
    "THEMES",
    "BoardView",
    "BracketMatch",
    "BracketPart",
    "BracketRound",
    "ChartError",
    "ChartLabels",
    "Entry",
    "LastPlay",
    "LeaderboardLabels",
    "LeaderboardLine",
    "MemberCubeView",
    "StandingsTable",
    "TableLine",
    "Theme",
    "TournamentLabels",
    "TournamentPicture",
    "chouette_members",
    "draw_analysis_chart",
    "draw_leaderboard",
    "draw_tournament",
    "encode",
    "render_board",
    "render_chouette",
    "render_image",
]
