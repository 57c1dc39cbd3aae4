"""Palettes chosen ahead of time: a drawing process starts without choosing them again.

Choosing a board palette draws a dozen sample boards and quantizes them (about 0.3 s for the
default theme, width and variant); every drawing process of every bot process did it at its
start. :mod:`rendering.stored_palettes` keeps the palettes of both themes at the default
widths of boards and animations, each under a key made of everything it was chosen from (the
theme's colours and proportions, the width, the variant, the number of colours), written by
``tools/make_palettes.py``. A key not there (a changed theme, another width) is chosen as
before; tests/rendering/test_palette.py checks the stored palettes' boards against what was
drawn, and that every palette a drawing process warms up with is stored.
"""

from __future__ import annotations

import hashlib

from PIL import Image

from gammon import Variant
from rendering.stored_palettes import PALETTES
from rendering.theme import Theme


def palette_key(theme: Theme, width: int, variant: Variant, colours: int) -> str:
    """The stored palette's name: a digest of what the palette is chosen from."""
    source = repr((theme, width, variant.value, colours)).encode()
    return hashlib.sha256(source).hexdigest()[:20]


def stored_palette(key: str) -> Image.Image | None:
    """The "P" image carrying the palette stored under ``key``; None when none is."""
    colours = PALETTES.get(key)
    if colours is None:
        return None
    image = Image.new("P", (1, 1))
    image.putpalette(bytes.fromhex(colours))
    return image
