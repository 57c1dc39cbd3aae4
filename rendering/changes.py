"""Successive pictures on one background (an animation's frames), each drawn again only where it
may differ from the one before.

A game's frames differ in a few checkers, the dice and the bands' texts: about a twentieth of
the pixels, in strips that cover a quarter of the picture. Drawing, quantizing and comparing
whole frames cost two and a half times the GIF's compression itself; drawing again only the
marks in those strips (see :func:`rendering.marks.changed_boxes`) and quantizing only the
strips gives the same frames, pixel for pixel.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from rendering.marks import Box, Mark, changed_boxes, draw_marks

Piece = tuple[Box, Image.Image]
"""Where on the picture, and what is there now (RGB)."""
_NEAR = 12  # pixels: boxes closer than this are drawn again as one (fewer, larger pieces)


class Redrawing:
    """The picture so far (:attr:`picture`), and what each new frame drew again."""

    def __init__(self, background: Image.Image) -> None:
        self.background = background
        self.picture = background.copy()
        self._marks: Sequence[Mark] | None = None
        # Where the regions are drawn again: each region is set back to the background first,
        # so what marks drew outside the regions (now or before) is never read.
        self._scratch = background.copy()

    def draw(self, marks: Sequence[Mark]) -> list[Piece]:
        """Make :attr:`picture` what ``marks`` draw on the background. Returns the pieces drawn
        again (disjoint): the whole picture the first time, nothing if nothing changed."""
        whole = (0, 0, *self.picture.size)
        if self._marks is None:
            boxes = [whole]
        else:
            boxes = changed_boxes(self._marks, marks, self.picture.size)
        self._marks = marks
        if boxes == [whole]:
            self.picture = self.background.copy()
            draw_marks(self.picture, marks)
            return [(whole, self.picture.copy())]
        regions = merged(boxes)
        # Marks reach beyond a region: draw every mark that touches one on the background, keep
        # only the regions. A mark not touching any region changed nothing there.
        scratch = self._scratch
        for region in regions:
            scratch.paste(self.background.crop(region), region)
        draw_marks(scratch, [mark for mark in marks if _touches(mark.box(), regions)])
        pieces = []
        for region in regions:
            piece = scratch.crop(region)
            self.picture.paste(piece, region)
            pieces.append((region, piece))
        return pieces


def merged(boxes: Sequence[Box], near: int = _NEAR) -> list[Box]:
    """The boxes joined into disjoint strips covering them: boxes whose rows overlap or come
    closer than ``near`` pixels share the strip around them. (Every piece costs a dozen
    calls into Pillow: a few wide strips are cheaper than many small boxes.)"""
    strips: list[Box] = []
    for left, top, right, bottom in sorted(boxes, key=lambda box: box[1]):
        if strips and top < strips[-1][3] + near:
            last = strips[-1]
            strips[-1] = (min(left, last[0]), last[1], max(right, last[2]), max(bottom, last[3]))
        else:
            strips.append((left, top, right, bottom))
    return strips


def _near(first: Box, second: Box, near: int) -> bool:
    return (
        first[0] < second[2] + near
        and second[0] < first[2] + near
        and first[1] < second[3] + near
        and second[1] < first[3] + near
    )


def _touches(box: Box, regions: Sequence[Box]) -> bool:
    return any(_near(box, region, 0) for region in regions)
