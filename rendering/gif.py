"""An animated GIF whose frames share one palette, each frame after the first stored as the
rectangles that changed from the frame before, their unchanged pixels transparent.

Pillow's own writer (``save_all``) does the same from whole frames, but remaps every frame to
the given palette and compares and blanks whole frames: half of the time it takes.
Here the frames come as the pieces that were drawn again (:mod:`rendering.changes`): only
those are quantized and compared. Only the compressing is Pillow's (:func:`getdata`, its
documented helper for writing frames one at a time); the file around the frames is a few fixed
blocks of GIF89a, the same bytes Pillow writes.

A board's frame changes in its top band (whose turn, pips), its bottom band (the caption) and
on the board between them, so one rectangle around every change is nearly the whole picture,
and compressing it was a large part of an animation's time. A frame is therefore stored as up
to :data:`MAX_BANDS` rectangles, one band of rows each, shown :data:`STEP_MS` apart: about a
third of the picture's pixels instead of nearly all of them, and four bands did better than
three while five saved no more (docs/benchmarks.md has the figures). Viewers show a frame's
bands 20 ms after one another, top to bottom.
"""

from __future__ import annotations

import itertools
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from PIL import GifImagePlugin, Image, ImageChops
from PIL.Image import ImagePointHandler

from rendering.changes import Piece
from rendering.marks import Box

_LOOP_FOREVER = b"!\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"  # the extension chat apps loop by
_TRAILER = b";"
_Change = tuple[Box, Image.Image, Image.Image]  # where, its colours, the mask of changed pixels
MAX_BANDS = 4
"""A frame's changes are stored as up to this many rectangles, one band of rows each."""
STEP_MS = 20
"""How long each band but the last of a frame is shown: the shortest duration that browsers
and Telegram's converter keep as it is (10 ms and less count as 100 ms)."""


@dataclass
class GifFrame:
    image: Image.Image  # mode "P"
    at: tuple[int, int] | None  # where its top left corner goes; None: the first, whole frame
    duration: int  # milliseconds


def gif_frames(
    pictures: Sequence[Sequence[Piece]],
    durations: Sequence[int],
    palette: Image.Image,
    transparent: int,
) -> list[GifFrame]:
    """The frames a GIF stores for successive pictures, each given as the pieces that may
    have changed (all of it for the first), all in the colours of ``palette`` (a "P" image).
    Palette index ``transparent`` must be one no colour uses. A picture the same as the one
    before only lengthens that one (as Pillow does)."""
    changes = _Changes(transparent)
    for pieces, duration in zip(pictures, durations, strict=True):
        coloured = [
            (box, image.quantize(palette=palette, dither=Image.Dither.NONE))
            for box, image in pieces
        ]
        changes.add(coloured, duration)
    return changes.frames


class _ChangedPixels(ImagePointHandler):
    """``difference.point(_CHANGED)``: the "1" mask of a palette index difference's nonzero
    pixels. Given a table, Pillow's ``point`` rounds its 256 entries in Python on every call
    (3 % of an animation's time over five calls a frame); this hands the table, whole
    numbers already, to Pillow's core as that method does after the rounding."""

    _TABLE: Final = [0, *(255,) * 255]

    def point(self, im: Image.Image) -> Image.Image:
        return im._new(im.im.point(self._TABLE, "1"))


_CHANGED: Final = _ChangedPixels()


class _Changes:
    """The frames of a GIF, from pictures given as pieces in palette colours."""

    def __init__(self, transparent: int) -> None:
        self.transparent = transparent
        self.frames: list[GifFrame] = []
        self._shown: Image.Image | None = None  # the last frame as the GIF shows it

    def add(self, pieces: Sequence[Piece], duration: int) -> None:
        if self._shown is None:
            ((_box, first),) = pieces
            self.frames.append(GifFrame(first, None, duration))
            self._shown = first.copy()
            return
        changes = [change for change in map(self._change, pieces) if change is not None]
        if not changes:
            self.frames[-1].duration += duration
            return
        groups = _bands(changes, MAX_BANDS if duration > STEP_MS * (MAX_BANDS - 1) else 1)
        for index, group in enumerate(groups):
            last = index == len(groups) - 1
            shown = duration - STEP_MS * (len(groups) - 1) if last else STEP_MS
            self.frames.append(self._frame(group, shown))

    def _change(self, piece: Piece) -> _Change | None:
        """Where the piece changed the shown frame (None: nowhere), the changed rectangle of
        the piece and the mask of its changed pixels; the shown frame takes the piece."""
        assert self._shown is not None
        region, colours = piece
        changed = ImageChops.subtract_modulo(colours, self._shown.crop(region)).point(_CHANGED)
        inside = changed.getbbox()
        if inside is None:
            return None
        self._shown.paste(colours, region[:2])
        left, top = region[:2]
        box = (left + inside[0], top + inside[1], left + inside[2], top + inside[3])
        return box, colours.crop(inside), changed.crop(inside)

    def _frame(self, changes: Sequence[_Change], duration: int) -> GifFrame:
        """The rectangle around every change, transparent but for the changed pixels."""
        left = min(box[0] for box, _colours, _mask in changes)
        top = min(box[1] for box, _colours, _mask in changes)
        right = max(box[2] for box, _colours, _mask in changes)
        bottom = max(box[3] for box, _colours, _mask in changes)
        image = Image.new("P", (right - left, bottom - top), self.transparent)
        for box, colours, mask in changes:
            image.paste(colours, (box[0] - left, box[1] - top), mask)
        return GifFrame(image, (left, top), duration)


def _bands(changes: Sequence[_Change], most: int) -> list[list[_Change]]:
    """The changes in at most ``most`` bands of rows, cut where the rows between two changes
    that nothing changed are tallest (the largest gaps first), top to bottom."""
    ordered = sorted(changes, key=lambda change: change[0][1])
    gaps: list[tuple[int, int]] = []  # (rows nothing changed in, the index a band starts at)
    bottom = ordered[0][0][3]
    for index, (box, _colours, _mask) in enumerate(ordered[1:], start=1):
        if box[1] > bottom:
            gaps.append((box[1] - bottom, index))
        bottom = max(bottom, box[3])
    cuts = sorted(index for _rows, index in sorted(gaps, reverse=True)[: most - 1])
    return [ordered[start:end] for start, end in itertools.pairwise([0, *cuts, len(ordered)])]


def animated_gif(frames: Sequence[GifFrame], palette: bytes, transparent: int) -> bytes:
    """The frames as a GIF89a that loops forever. ``palette`` lists the colours as RGB bytes."""
    if not frames or frames[0].at is not None:
        raise ValueError("a GIF starts with a whole frame")
    parts = [_header(frames[0].image.size, palette, transparent), _LOOP_FOREVER]
    for frame in frames:
        parts += _frame_data(frame, transparent)
    parts.append(_TRAILER)
    return b"".join(parts)


def _header(size: tuple[int, int], palette: bytes, transparent: int) -> bytes:
    """Signature, screen and the one global colour table, padded to a power of two (with
    room for the transparent index)."""
    entries = max(2, len(palette) // 3, transparent + 1)
    bits = (entries - 1).bit_length()  # 2**bits entries
    table = palette[: 3 * entries].ljust(3 << bits, b"\0")
    flags = 0x80 | (bits - 1)  # a global table and its size (as Pillow writes it)
    return b"GIF89a" + struct.pack("<HHBBB", *size, flags, 0, 0) + table


def _frame_data(frame: GifFrame, transparent: int) -> list[bytes]:
    """Graphic control (duration, drawn over the frame before), image descriptor and data."""
    params: dict[str, int] = {"duration": frame.duration, "disposal": 1}
    if frame.at is not None:
        params["transparency"] = transparent
    return GifImagePlugin.getdata(frame.image, frame.at or (0, 0), **params)
