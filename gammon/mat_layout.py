"""The columns of gnubg's ``.mat`` layout, shared by the writer and the reader."""

from __future__ import annotations

from typing import Final

LEFT_WIDTH: Final = 28  # as gnubg writes it: "%3d) %-28s" then the right cell
RIGHT_COLUMN: Final = 5 + LEFT_WIDTH  # where the right-hand cell starts
