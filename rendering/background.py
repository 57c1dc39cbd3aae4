"""The parts of a picture that never change for a theme and size: rim, felt, points, numbers."""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from PIL import Image, ImageDraw

from gammon import Variant
from rendering.geometry import Box, geometry
from rendering.sprites import font
from rendering.theme import Theme

_SCALE: Final = 2  # drawn at twice the size, then scaled down: smooth point edges
_POINT_LENGTH: Final = 4.6  # in checker diameters


def _scaled(box: Box) -> Box:
    return (box[0] * _SCALE, box[1] * _SCALE, box[2] * _SCALE, box[3] * _SCALE)


@lru_cache(maxsize=16)
def board_background(theme: Theme, width: int, variant: Variant) -> Image.Image:
    """The empty board (RGB). Only read by renders, never drawn on."""
    geo = geometry(width)
    image = Image.new("RGB", (geo.width * _SCALE, geo.height * _SCALE), theme.background)
    draw = ImageDraw.Draw(image)
    u = geo.u * _SCALE
    rim = _scaled(geo.board)
    draw.rounded_rectangle(rim, radius=round(0.25 * u), fill=theme.frame_edge)
    inset = round(0.06 * u)
    draw.rounded_rectangle(
        (rim[0] + inset, rim[1] + inset, rim[2] - inset, rim[3] - inset),
        radius=round(0.2 * u),
        fill=theme.frame,
    )
    for panel in (geo.left_panel, geo.right_panel):
        draw.rounded_rectangle(_scaled(panel), radius=round(0.12 * u), fill=theme.tray)
    for half in (geo.left_half, geo.right_half):
        draw.rectangle(_scaled(half), fill=theme.felt)
    bar = _scaled(geo.bar)
    draw.rectangle(bar, fill=theme.frame)
    if variant is Variant.BACKGAMMON:
        draw.line(
            ((bar[0] + bar[2]) // 2, bar[1], (bar[0] + bar[2]) // 2, bar[3]),
            fill=theme.frame_edge,
            width=max(2, round(0.04 * u)),
        )
    for slot in range(12):
        centre = geo.slot_x(slot) * _SCALE
        half_width = 0.5 * u
        for top in (True, False):
            base = geo.play_top * _SCALE if top else geo.play_bottom * _SCALE
            tip = base + _POINT_LENGTH * u * (1 if top else -1)
            colour = theme.point_a if (slot + top) % 2 == 0 else theme.point_b
            draw.polygon(
                [(centre - half_width, base), (centre + half_width, base), (centre, tip)],
                fill=colour,
            )
    if variant is Variant.LONG_NARDY:
        # No bar in long nardy: the middle strip is only the hinge of the board.
        draw.rectangle(bar, fill=theme.frame_edge)
        draw.rectangle(
            (bar[0] + round(0.35 * u), bar[1], bar[2] - round(0.35 * u), bar[3]), fill=theme.frame
        )
    image = image.reduce(_SCALE)
    _draw_point_numbers(image, theme, width)
    return image


def _draw_point_numbers(image: Image.Image, theme: Theme, width: int) -> None:
    geo = geometry(width)
    draw = ImageDraw.Draw(image)
    number_font = font(geo.text_size)
    top_y = (geo.board[1] + geo.play_top) / 2
    bottom_y = (geo.play_bottom + geo.board[3]) / 2
    for point in range(1, 25):
        top, slot = geo.point_slot(point)
        draw.text(
            (geo.slot_x(slot), top_y if top else bottom_y),
            str(point),
            font=number_font,
            fill=theme.frame_text,
            anchor="mm",
        )
