"""The colours and text sizes of a tournament's picture: the leaderboard's light panel in the
board's wooden frame (default theme), so every picture of the bot looks like one family.

Sizes are chosen for a phone: a table is drawn :data:`TABLE_WIDTH` pixels wide with no text
under :data:`TABLE_TEXT` pixels, so shown 360 pixels wide (a phone held upright) its smallest
text is still 11 pixels. A bracket of three rounds or more cannot be that legible at 360
pixels: its boxes keep :data:`NAME_SIZE` and the picture grows as wide and tall as its rounds
need, for the reader to zoom into (both apps do); the web page shows the full view.
"""

from __future__ import annotations

from typing import Final

from rendering.panel import FRAME, FRAME_EDGE, MUTED, PANEL, RULE, STRIPE, TEXT, TINT
from rendering.theme import RGB

__all__ = [
    "BOX",
    "FRAME",
    "FRAME_EDGE",
    "LINE",
    "MUTED",
    "PANEL",
    "RULE",
    "STRIPE",
    "TEXT",
    "TINT",
]

RIM: Final = 14
PADDING: Final = 22
TITLE_SIZE: Final = 26
TITLE_HEIGHT: Final = 46
HEADING_SIZE: Final = 20
HEADING_HEIGHT: Final = 36
SECTION_GAP: Final = 24  # between two brackets or tables

TABLE_WIDTH: Final = 540
TABLE_TEXT: Final = 17  # x 360 / 540 = 11.3 pixels on a phone

NAME_SIZE: Final = 17  # x 360 / 540 = 11.3 pixels when a bracket of two rounds fits
SEED_SIZE: Final = 14
ROUND_SIZE: Final = 16

BOX: Final[RGB] = (255, 255, 255)
LINE: Final[RGB] = (150, 128, 104)  # joining a match to the next
