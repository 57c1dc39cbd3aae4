"""Measuring how tall a picture's words are once a phone shows it 360 pixels wide.

A text is found by drawing the picture twice, once with the text's colour made equal to what
is under it (the text vanishes, nothing else changes): where the two pictures, each scaled to
the phone's width, differ by at least half the text's contrast, at least half of the pixel is
ink. Those pixels fall into lines (runs of rows) and each line into words (runs of columns
apart by a few empty columns); a word's height is how many rows hold its ink.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageChops

PHONE_WIDTH = 360
LEGIBLE = 8  # pixels: the smallest cap height read comfortably on a phone
_WORD_GAP = 3  # empty columns between two words (letters of a word at 360 px touch or nearly)

Colour = tuple[int, int, int]


def on_phone(image: Image.Image) -> Image.Image:
    """``image`` scaled to the phone's width, as a chat app would (a good filter)."""
    height = round(image.height * PHONE_WIDTH / image.width)
    return image.convert("RGB").resize((PHONE_WIDTH, height), Image.Resampling.LANCZOS)


@dataclass(frozen=True)
class Word:
    left: int
    top: int
    right: int  # exclusive
    bottom: int  # exclusive

    @property
    def height(self) -> int:
        return self.bottom - self.top


def ink(shown: Image.Image, hidden: Image.Image, text: Colour, hidden_as: Colour) -> Image.Image:
    """A mask (mode "L", 255 for ink) of the text that ``shown`` draws in ``text`` and
    ``hidden`` in ``hidden_as`` (the colour under it), both seen on the phone."""
    difference = ImageChops.difference(on_phone(shown), on_phone(hidden))
    red, green, blue = difference.split()
    strongest = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    contrast = max(abs(a - b) for a, b in zip(text, hidden_as, strict=True))
    return strongest.point(lambda value: 255 if 2 * value >= contrast else 0)


def _runs(flags: list[bool], gap: int) -> list[tuple[int, int]]:
    """(start, end) of the runs of true flags; runs fewer than ``gap`` apart are one."""
    found: list[tuple[int, int]] = []
    for index, flag in enumerate(flags):
        if not flag:
            continue
        if found and index - found[-1][1] < gap:
            found[-1] = (found[-1][0], index + 1)
        else:
            found.append((index, index + 1))
    return found


def lines_of_words(mask: Image.Image) -> list[list[Word]]:
    """The words of ``mask``, line by line from the top, each line from the left."""
    rows = [mask.crop((0, y, mask.width, y + 1)).getbbox() is not None for y in range(mask.height)]
    lines: list[list[Word]] = []
    for top, bottom in _runs(rows, 1):
        band = mask.crop((0, top, mask.width, bottom))
        columns = [
            band.crop((x, 0, x + 1, band.height)).getbbox() is not None for x in range(band.width)
        ]
        words = []
        for left, right in _runs(columns, _WORD_GAP):
            box = band.crop((left, 0, right, band.height)).getbbox()
            assert box is not None
            words.append(Word(left, top + box[1], right, top + box[3]))
        lines.append(words)
    return lines
