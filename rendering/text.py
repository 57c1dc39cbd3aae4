"""Text that fits: names cleaned of characters the bundled font cannot draw, shortened with an
ellipsis to a width, or set a little smaller first."""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from rendering.sprites import font

_MISSING = "\U0010fffd"  # a private-use code point: the font draws its "missing" box for it
_PROBE_SIZE = 24
_MAX_NAME = 64  # characters kept before measuring; longer names are cut anyway


@lru_cache(maxsize=8192)
def _drawable(char: str) -> bool:
    if char.isspace():
        return True
    if unicodedata.category(char)[0] in "CZ":  # controls, format marks, separators
        return False
    probe = font(_PROBE_SIZE)
    return bytes(probe.getmask(char)) != bytes(probe.getmask(_MISSING))


def clean(text: str) -> str:
    """Keep the characters the font can draw (emoji go), collapse runs of spaces."""
    kept = "".join(char if _drawable(char) else " " for char in text[: _MAX_NAME * 4])
    return " ".join(kept.split())[:_MAX_NAME]


@lru_cache(maxsize=1024)
def fitted(text: str, size: int, max_width: int, bold: bool = True) -> str:
    """``text`` cleaned and, if wider than ``max_width`` pixels, cut with an ellipsis."""
    cleaned = clean(text)
    face = font(size, bold)
    if face.getlength(cleaned) <= max_width:
        return cleaned
    low, high = 0, len(cleaned)
    while low < high:
        middle = (low + high + 1) // 2
        if face.getlength(cleaned[:middle].rstrip() + "…") <= max_width:
            low = middle
        else:
            high = middle - 1
    return cleaned[:low].rstrip() + "…"


def shrunk(text: str, size: int, smallest: int, max_width: int) -> tuple[str, int]:
    """``text`` cleaned, and the largest size from ``size`` down to ``smallest`` at which it is
    at most ``max_width`` pixels wide; at ``smallest`` cut with an ellipsis if it must be."""
    cleaned = clean(text)
    width = font(size).getlength(cleaned)
    if width <= max_width:
        return cleaned, size
    guess = max(smallest, min(size - 1, int(size * max_width / width)))  # width ~ size
    for tried in range(guess, smallest, -1):
        if font(tried).getlength(cleaned) <= max_width:
            return cleaned, tried
    return fitted(cleaned, smallest, max_width), smallest
