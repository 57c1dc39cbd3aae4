"""Board pictures: engine state in, PNG bytes out (Pillow only; never imports bot or storage).
Also the chart of a match analysis (plain values in, PNG bytes out), and a chouette's board with
every member's cube."""

from rendering.analysis_chart import ChartError, ChartLabels, draw_analysis_chart
from rendering.board import DEFAULT_WIDTH, render_board, render_image
from rendering.chouette import MemberCubeView, chouette_members, render_chouette
from rendering.labels import DEFAULT_LABELS
from rendering.leaderboard import LeaderboardLabels, LeaderboardLine, draw_leaderboard
from rendering.palette import encode
from rendering.theme import DEFAULT_THEME, THEMES, Theme
from rendering.view import BoardView, LastPlay

__all__ = [
    "DEFAULT_LABELS",
    "DEFAULT_THEME",
    "DEFAULT_WIDTH",
    "THEMES",
    "BoardView",
    "ChartError",
    "ChartLabels",
    "LastPlay",
    "LeaderboardLabels",
    "LeaderboardLine",
    "MemberCubeView",
    "Theme",
    "chouette_members",
    "draw_analysis_chart",
    "draw_leaderboard",
    "encode",
    "render_board",
    "render_chouette",
    "render_image",
]
