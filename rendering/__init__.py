"""Board pictures: engine state in, PNG bytes out (Pillow only; never imports bot or storage)."""

from rendering.board import DEFAULT_WIDTH, encode, render_board, render_image
from rendering.labels import DEFAULT_LABELS
from rendering.theme import DEFAULT_THEME, THEMES, Theme
from rendering.view import BoardView, LastPlay

__all__ = [
    "DEFAULT_LABELS",
    "DEFAULT_THEME",
    "DEFAULT_WIDTH",
    "THEMES",
    "BoardView",
    "LastPlay",
    "Theme",
    "encode",
    "render_board",
    "render_image",
]
