"""Texts drawn once and stamped where they are needed again.

A 64-player bracket draws about 400 texts, most of them the same few (the "—" of places still
undecided, seeds, scores, the names again in every round a player reaches): laying each out
again with libraqm was a third of the picture's drawing. A text's coverage is kept as a mask
and pasted in its colour, which blends exactly as drawing it would. The cache holds images that
are only ever read, so drawings in several threads can share it.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from rendering.sprites import font
from rendering.theme import RGB


@lru_cache(maxsize=4096)
def _stamp(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    face = font(size, bold)
    box = face.getbbox(text, anchor=anchor)
    left, top, right, bottom = (math.floor(box[0]), math.floor(box[1]), *map(math.ceil, box[2:]))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)))
    ImageDraw.Draw(mask).text((-left, -top), text, font=face, fill=255, anchor=anchor)
    return mask, left, top


def stamp(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB,
    bold: bool = True,
    anchor: str = "la",
) -> None:
    """``text`` at ``xy`` in ``fill`` (the bundled font; ``anchor`` as Pillow's ``text``)."""
    if not text:
        return
    mask, left, top = _stamp(text, size, bold, anchor)
    image.paste(fill, (round(xy[0]) + left, round(xy[1]) + top), mask)
