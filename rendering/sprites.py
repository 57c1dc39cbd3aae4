"""Anti-aliased pieces drawn once and reused: checkers, dice, the cube, and the fonts.

Each sprite is drawn at four times its size and scaled down, which smooths the edges. All
caches hold images that are only ever read, so renders in several threads can share them.
"""

from __future__ import annotations

import logging
from functools import lru_cache
from pathlib import Path
from typing import Final

from PIL import Image, ImageDraw, ImageFont, features

from rendering.theme import RGB, Theme

_SUPERSAMPLE: Final = 4
_FONTS: Final = Path(__file__).parent / "fonts"
logger = logging.getLogger(__name__)


@lru_cache(maxsize=1)
def layout_engine() -> ImageFont.Layout:
    """libraqm (bundled with Pillow's wheels) shapes Arabic letters and lays out right-to-left
    text; without it Pillow's basic layout draws them unjoined, left to right. That fallback
    is said once in the log, where an operator sees it, not hidden."""
    if features.check("raqm"):
        return ImageFont.Layout.RAQM
    logger.warning(
        "this Pillow has no libraqm: Arabic names and labels on pictures are drawn unshaped "
        "and left to right (install Pillow from its wheels, which include libraqm)"
    )
    return ImageFont.Layout.BASIC


_PIPS: Final = {
    1: [(0.5, 0.5)],
    2: [(0.27, 0.27), (0.73, 0.73)],
    3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
    4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
    5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
    6: [(0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)],
}


@lru_cache(maxsize=64)
def font(size: int, bold: bool = True) -> ImageFont.FreeTypeFont:
    """The bundled DejaVu Sans, so text looks the same on every machine."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(_FONTS / name), size, layout_engine=layout_engine())


def _shade(colour: RGB, factor: float) -> RGB:
    if factor >= 1:
        return (
            round(colour[0] + (255 - colour[0]) * (factor - 1)),
            round(colour[1] + (255 - colour[1]) * (factor - 1)),
            round(colour[2] + (255 - colour[2]) * (factor - 1)),
        )
    return (round(colour[0] * factor), round(colour[1] * factor), round(colour[2] * factor))


def _downsampled(big: Image.Image, size: int) -> Image.Image:
    return big.resize((size, size), Image.Resampling.LANCZOS)


@lru_cache(maxsize=32)
def checker(theme: Theme, light: bool, diameter: int) -> Image.Image:
    """A round checker with a rim, a bevel and a soft highlight (RGBA)."""
    colour = theme.light_checker if light else theme.dark_checker
    rim = theme.light_rim if light else theme.dark_rim
    big = diameter * _SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    edge = max(2, big // 28)
    draw.ellipse((edge, edge, big - edge, big - edge), fill=(*rim, 255))
    inset = big * 0.07
    draw.ellipse((inset, inset, big - inset, big - inset), fill=(*colour, 255))
    groove = big * 0.2
    draw.ellipse(
        (groove, groove, big - groove, big - groove),
        outline=(*_shade(colour, 0.82), 255),
        width=max(2, big // 40),
    )
    shine = big * 0.28
    draw.ellipse(
        (shine, shine * 0.9, big - shine * 1.6, big - shine * 1.7),
        fill=(*_shade(colour, 1.12), 255),
    )
    return _downsampled(image, diameter)


@lru_cache(maxsize=16)
def ring(colour: RGB, diameter: int, width_fraction: float = 0.09) -> Image.Image:
    """A highlight ring that fits around a checker (RGBA)."""
    big = diameter * _SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    width = max(2, round(big * width_fraction))
    ImageDraw.Draw(image).ellipse((1, 1, big - 2, big - 2), outline=(*colour, 255), width=width)
    return _downsampled(image, diameter)


@lru_cache(maxsize=64)
def die(face: RGB, pip: RGB, value: int, size: int) -> Image.Image:
    """A die showing ``value`` (RGBA)."""
    big = size * _SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    radius = big * 0.18
    draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=radius, fill=(*_shade(face, 0.7), 255))
    inset = big * 0.04
    draw.rounded_rectangle(
        (inset, inset, big - 1 - inset, big - 1 - inset), radius=radius, fill=(*face, 255)
    )
    dot = big * 0.095
    for fx, fy in _PIPS[value]:
        cx, cy = fx * big, fy * big
        draw.ellipse((cx - dot, cy - dot, cx + dot, cy + dot), fill=(*pip, 255))
    return _downsampled(image, size)


@lru_cache(maxsize=64)
def cube(theme: Theme, value: int, size: int, offered: bool) -> Image.Image:
    """The doubling cube showing ``value`` (RGBA); an offered cube has an accent border."""
    big = size * _SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    border = theme.accent if offered else _shade(theme.cube, 0.6)
    draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=big * 0.16, fill=(*border, 255))
    inset = big * (0.09 if offered else 0.05)
    draw.rounded_rectangle(
        (inset, inset, big - 1 - inset, big - 1 - inset),
        radius=big * 0.13,
        fill=(*theme.cube, 255),
    )
    text = str(value)
    text_font = font(round(big * (0.58 if len(text) <= 2 else 0.42 if len(text) == 3 else 0.3)))
    draw.text((big / 2, big / 2), text, font=text_font, fill=theme.cube_text, anchor="mm")
    return _downsampled(image, size)
