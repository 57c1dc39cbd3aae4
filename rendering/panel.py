"""The colours of the bot's pictures that are not boards (the leaderboard, the analysis chart, a
tournament's brackets and tables): the board's wooden rim around a light panel that reads well
on Discord's and Telegram's dark and light themes, text in the board's dark brown."""

from __future__ import annotations

from typing import Final

from rendering.theme import CLASSIC, RGB

FRAME: Final = CLASSIC.frame
FRAME_EDGE: Final = CLASSIC.frame_edge
PANEL: Final[RGB] = (251, 247, 238)
STRIPE: Final[RGB] = (244, 237, 222)  # every other line of a table
TINT: Final[RGB] = (255, 226, 170)  # a line to find at once: the asker's own, a winner
TEXT: Final = CLASSIC.background
MUTED: Final[RGB] = (128, 110, 92)
RULE: Final[RGB] = (196, 180, 158)
