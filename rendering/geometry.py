"""Where everything sits on the picture, in pixels, for a given width and variant.

The viewer's points are always in the same places: 13..24 along the top from left to right,
12..1 along the bottom, home at the bottom right. Long nardy uses the same places in each
player's own numbering, so both sides travel counter-clockwise.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final

# Widths and heights in checker diameters (u).
_RIM: Final = 0.5  # the rim at the sides
_NUMBERS: Final = 0.8  # the rim above and below the points, holding their numbers
_PANEL: Final = 1.3
_DIVIDER: Final = 0.2
_BAR: Final = 1.1
_HALF_WIDTH: Final = 6.0
_BAND: Final = 1.2
_HALF_HEIGHT: Final = 5.0
_MIDDLE: Final = 1.0
WIDTH_UNITS: Final = 2 * (_RIM + _PANEL + _DIVIDER + _HALF_WIDTH) + _BAR
HEIGHT_UNITS: Final = 2 * (_BAND + _NUMBERS + _HALF_HEIGHT) + _MIDDLE
VISIBLE_STACK: Final = 5
TEXT: Final = 0.56
"""The size of the words and numbers on a picture: a digit or capital is then 8.5 pixels tall
when a phone shows the picture 360 pixels wide (DejaVu Sans: 0.73 of the size; a checker is
1/17.1 of the width)."""

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class Geometry:
    """Pixel positions for one picture size. ``u`` is a checker's diameter."""

    width: int
    height: int
    u: float
    board: Box  # the wooden rim's outer edge
    left_panel: Box
    right_panel: Box
    left_half: Box  # felt of the left six points (both rows)
    right_half: Box
    bar: Box
    top_band: Box
    bottom_band: Box
    play_top: float  # felt top edge (top row bases)
    play_bottom: float
    middle: float  # vertical centre of the board

    @property
    def text_size(self) -> int:
        """:data:`TEXT` in pixels."""
        return round(TEXT * self.u)

    def slot_x(self, slot: int) -> float:
        """Centre x of column 0..11 from the left."""
        half = self.left_half if slot < 6 else self.right_half
        return half[0] + (slot % 6 + 0.5) * self.u

    def point_slot(self, point: int) -> tuple[bool, int]:
        """(is the top row, column) of the viewer's point 1..24."""
        if point >= 13:
            return True, point - 13
        return False, 12 - point

    def stack_centre(self, point: int, index: int) -> tuple[float, float]:
        """Centre of the ``index``-th checker (0 at the base) on the viewer's ``point``."""
        top, slot = self.point_slot(point)
        x = self.slot_x(slot)
        if top:
            return x, self.play_top + (index + 0.5) * self.u
        return x, self.play_bottom - (index + 0.5) * self.u

    def bar_centre(self, upper: bool, index: int) -> tuple[float, float]:
        """Checkers on the bar stack away from the middle: the viewer's in the upper half."""
        x = (self.bar[0] + self.bar[2]) / 2
        offset = (index + 0.5) * self.u + 0.45 * self.u
        return (x, self.middle - offset) if upper else (x, self.middle + offset)

    def tray_box(self, upper: bool, left: bool) -> Box:
        """A borne-off tray: the right panel in backgammon, left (top) for long nardy's
        opponent."""
        panel = self.left_panel if left else self.right_panel
        pad = round(0.12 * self.u)
        if upper:
            return (
                panel[0] + pad,
                panel[1] + pad,
                panel[2] - pad,
                round(self.middle - 0.3 * self.u),
            )
        return (panel[0] + pad, round(self.middle + 0.3 * self.u), panel[2] - pad, panel[3] - pad)

    def dice_centre(self, right: bool, index: int, count: int) -> tuple[float, float]:
        half = self.right_half if right else self.left_half
        centre = (half[0] + half[2]) / 2
        spacing = 1.05 * self.u
        return centre + (index - (count - 1) / 2) * spacing, self.middle


@lru_cache(maxsize=16)
def geometry(width: int) -> Geometry:
    u = width / WIDTH_UNITS
    height = round(HEIGHT_UNITS * u)

    def px(units: float) -> int:
        return round(units * u)

    top = px(_BAND)
    bottom = height - px(_BAND)
    board = (0, top, width, bottom)
    inner_top = top + px(_NUMBERS)
    inner_bottom = bottom - px(_NUMBERS)
    x = px(_RIM)
    left_panel = (x, inner_top, x + px(_PANEL), inner_bottom)
    left_felt = left_panel[2] + px(_DIVIDER)
    left_half = (left_felt, inner_top, left_felt + px(_HALF_WIDTH), inner_bottom)
    bar = (left_half[2], inner_top, left_half[2] + px(_BAR), inner_bottom)
    right_half = (bar[2], inner_top, bar[2] + px(_HALF_WIDTH), inner_bottom)
    right_panel = (right_half[2] + px(_DIVIDER), inner_top, width - px(_RIM), inner_bottom)
    return Geometry(
        width=width,
        height=height,
        u=u,
        board=board,
        left_panel=left_panel,
        right_panel=right_panel,
        left_half=left_half,
        right_half=right_half,
        bar=bar,
        top_band=(0, 0, width, top),
        bottom_band=(0, bottom, width, height),
        play_top=float(inner_top),
        play_bottom=float(inner_bottom),
        middle=(inner_top + inner_bottom) / 2,
    )
