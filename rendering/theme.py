"""Board themes: every colour and proportion of a picture, in one value per theme."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Theme:
    """Colours (RGB) and proportions (in checker diameters) of a board picture."""

    name: str
    background: RGB  # around the board, behind the player bands
    frame: RGB  # the board's rim and the bar
    frame_edge: RGB
    felt: RGB  # the playing surface
    point_a: RGB  # alternate point colours
    point_b: RGB
    tray: RGB  # borne-off trays and the cube panel
    light_checker: RGB
    light_rim: RGB
    dark_checker: RGB
    dark_rim: RGB
    label_on_light: RGB  # count labels drawn on a light checker
    label_on_dark: RGB
    text: RGB  # names and numbers on the background
    muted_text: RGB
    frame_text: RGB  # point numbers on the rim
    accent: RGB  # whose turn, last play
    hit: RGB  # hits in the last play
    die_light: RGB
    die_light_pip: RGB
    die_dark: RGB
    die_dark_pip: RGB
    cube: RGB
    cube_text: RGB


CLASSIC: Final = Theme(
    name="classic",
    background=(38, 30, 24),
    frame=(92, 56, 30),
    frame_edge=(58, 34, 17),
    felt=(205, 170, 112),
    point_a=(128, 38, 30),
    point_b=(244, 232, 205),
    tray=(74, 45, 24),
    light_checker=(246, 241, 230),
    light_rim=(170, 160, 140),
    dark_checker=(38, 36, 36),
    dark_rim=(10, 10, 10),
    label_on_light=(40, 30, 20),
    label_on_dark=(250, 245, 235),
    text=(246, 238, 222),
    muted_text=(190, 172, 150),
    frame_text=(240, 220, 180),
    accent=(255, 196, 0),
    hit=(230, 40, 40),
    die_light=(250, 248, 242),
    die_light_pip=(30, 24, 20),
    die_dark=(34, 32, 32),
    die_dark_pip=(250, 245, 235),
    cube=(250, 248, 242),
    cube_text=(30, 24, 20),
)

DARK: Final = Theme(
    name="dark",
    background=(12, 13, 16),
    frame=(34, 37, 44),
    frame_edge=(70, 76, 88),
    felt=(22, 25, 30),
    point_a=(0, 150, 170),
    point_b=(120, 130, 150),
    tray=(28, 31, 37),
    light_checker=(250, 250, 250),
    light_rim=(150, 150, 150),
    dark_checker=(255, 140, 0),
    dark_rim=(150, 70, 0),
    label_on_light=(10, 10, 10),
    label_on_dark=(10, 10, 10),
    text=(245, 245, 245),
    muted_text=(160, 168, 180),
    frame_text=(220, 226, 235),
    accent=(255, 230, 0),
    hit=(255, 60, 90),
    die_light=(250, 250, 250),
    die_light_pip=(10, 10, 10),
    die_dark=(255, 140, 0),
    die_dark_pip=(10, 10, 10),
    cube=(245, 245, 245),
    cube_text=(10, 10, 10),
)

THEMES: Final = {theme.name: theme for theme in (CLASSIC, DARK)}
DEFAULT_THEME: Final = CLASSIC.name
