"""The steps a picture is drawn in (a sprite pasted, a text, a shape), kept as values.

A board is drawn by applying its marks in order to a copy of the empty board. Kept as values,
two pictures' marks tell where the pictures may differ (:func:`changed_boxes`): an animation
draws each frame again only there (see :mod:`rendering.changes`).

Two marks are equal when they draw the same thing in the same place with the same look, so
they change the same pixels in the same way. Sprites and fonts are compared by identity (they
are cached objects, kept alive by the marks that use them).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, TypeVar

from PIL import Image, ImageDraw, ImageFont

from rendering.sprites import font

Box = tuple[int, int, int, int]
Colour = tuple[int, int, int]
_SLACK = 2  # pixels around a text's or shape's computed extent: anti-aliasing, rounding
_KEPT_TEXTS = 2048  # masks of texts kept per kind of call, a few KB each
_T = TypeVar("_T")


class Mark:
    """One drawing step: ``key`` says what it draws (equal keys draw equal pixels), ``box()``
    where it may change pixels."""

    __slots__ = ("_hash", "key")

    def __init__(self, key: tuple[object, ...]) -> None:
        self.key = key
        self._hash = hash(key)  # marks are compared by the hundred for every frame

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mark) and self._hash == other._hash and self.key == other.key

    def __hash__(self) -> int:
        return self._hash

    def box(self) -> Box:
        raise NotImplementedError

    def draw(self, image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
        raise NotImplementedError


class SpriteMark(Mark):
    """An RGBA sprite pasted through its own alpha, its top left corner at ``at``."""

    __slots__ = ("at", "sprite")

    def __init__(self, sprite: Image.Image, at: tuple[int, int]) -> None:
        super().__init__(("sprite", id(sprite), at))
        self.sprite = sprite
        self.at = at

    def box(self) -> Box:
        x, y = self.at
        return x, y, x + self.sprite.width, y + self.sprite.height

    def draw(self, image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
        image.paste(self.sprite, self.at, self.sprite)


class TextMark(Mark):
    """One line of text, placed by ``anchor`` at ``xy``."""

    __slots__ = ("anchor", "fill", "font", "text", "xy")

    def __init__(
        self,
        xy: tuple[float, float],
        text: str,
        font: ImageFont.FreeTypeFont,
        fill: Colour,
        anchor: str,
    ) -> None:
        super().__init__(("text", xy, text, id(font), fill, anchor))
        self.xy = xy
        self.text = text
        self.font = font
        self.fill = fill
        self.anchor = anchor

    def box(self) -> Box:
        left, top, right, bottom = _text_extent(self.font, self.text, self.anchor)
        x, y = self.xy
        return _outward((x + left, y + top, x + right, y + bottom))

    def draw(self, image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
        draw.text(self.xy, self.text, font=self.font, fill=self.fill, anchor=self.anchor)


class PolygonMark(Mark):
    """A filled polygon."""

    __slots__ = ("fill", "points")

    def __init__(self, points: Sequence[tuple[float, float]], fill: Colour) -> None:
        self.points = tuple(points)
        self.fill = fill
        super().__init__(("polygon", self.points, fill))

    def box(self) -> Box:
        xs = [x for x, _ in self.points]
        ys = [y for _, y in self.points]
        return _outward((min(xs), min(ys), max(xs), max(ys)))

    def draw(self, image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
        draw.polygon(self.points, fill=self.fill)


class RoundedRectangleMark(Mark):
    """A filled rectangle with rounded corners and a one-pixel outline."""

    __slots__ = ("corners", "fill", "outline", "radius")

    def __init__(
        self, corners: tuple[float, float, float, float], radius: int, fill: Colour, outline: Colour
    ) -> None:
        super().__init__(("rounded", corners, radius, fill, outline))
        self.corners = corners
        self.radius = radius
        self.fill = fill
        self.outline = outline

    def box(self) -> Box:
        return _outward(self.corners)

    def draw(self, image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
        draw.rounded_rectangle(
            self.corners, radius=self.radius, fill=self.fill, outline=self.outline
        )


def draw_marks(image: Image.Image, marks: Sequence[Mark]) -> None:
    """Apply ``marks`` to ``image`` in order."""
    draw = ImageDraw.Draw(image)
    for mark in marks:
        mark.draw(image, draw)


def changed_boxes(
    before: Sequence[Mark], after: Sequence[Mark], size: tuple[int, int]
) -> list[Box]:
    """Where a picture drawn with ``after`` may differ from one drawn with ``before`` on the same
    background: the boxes of the marks only one of them has (or has more often).

    Outside those boxes every pixel was drawn by the same marks in both; if those marks come in
    the same order the pixel is the same. If they do not, the whole picture is returned."""
    counted_before, counted_after = Counter(before), Counter(after)
    changed = {
        mark
        for mark in counted_before.keys() | counted_after.keys()
        if counted_before[mark] != counted_after[mark]
    }
    kept_before = [mark for mark in before if mark not in changed]
    kept_after = [mark for mark in after if mark not in changed]
    if kept_before != kept_after:
        return [(0, 0, *size)]
    boxes = {mark.box() for mark in (*before, *after) if mark in changed}
    return sorted(box for box in (_clipped(box, size) for box in boxes) if box is not None)


def _outward(extent: tuple[float, float, float, float]) -> Box:
    left, top, right, bottom = extent
    return (
        math.floor(left) - _SLACK,
        math.floor(top) - _SLACK,
        math.ceil(right) + _SLACK,
        math.ceil(bottom) + _SLACK,
    )


def _clipped(box: Box, size: tuple[int, int]) -> Box | None:
    left, top = max(0, box[0]), max(0, box[1])
    right, bottom = min(size[0], box[2]), min(size[1], box[3])
    return (left, top, right, bottom) if left < right and top < bottom else None


@lru_cache(maxsize=_KEPT_TEXTS)
def _text_extent(
    face: ImageFont.FreeTypeFont, text: str, anchor: str
) -> tuple[float, float, float, float]:
    return face.getbbox(text, anchor=anchor)


@lru_cache(maxsize=64)
def text_font(size: int, bold: bool = True) -> ImageFont.FreeTypeFont:
    """:func:`rendering.sprites.font`, remembering the texts it measures and draws."""
    face = font(size, bold)
    return _RememberingFont(face.path, face.size, face.index, face.encoding, face.layout_engine)


class _RememberingFont(ImageFont.FreeTypeFont):
    """A font that keeps the masks and widths of the texts it was asked for.

    The names, scores and labels of a board come back in every picture, and laying out and
    drawing a text costs about as much as pasting ten checkers. The masks are only read by
    Pillow when it draws them (colour fonts, which write into theirs, are not kept)."""

    def getmask2(self, text: str | bytes, mode: str = "", *args: Any, **kwargs: Any) -> Any:
        if mode == "RGBA":
            return super().getmask2(text, mode, *args, **kwargs)
        return _remembered(_mask, self, text, mode, args, kwargs)

    def getlength(self, text: str | bytes, *args: Any, **kwargs: Any) -> float:
        return _remembered(_length, self, text, "", args, kwargs)


def _remembered(
    kept: Callable[..., _T],
    face: ImageFont.FreeTypeFont,
    text: str | bytes,
    mode: str,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> _T:
    """``kept(face, text, mode, args, kwargs)``, from its cache when all arguments can be keys
    (a list of features cannot)."""
    named = tuple(sorted(kwargs.items()))
    try:
        hash((args, named))
    except TypeError:
        return kept.__wrapped__(face, text, mode, args, named)  # type: ignore[attr-defined, no-any-return]
    return kept(face, text, mode, args, named)


@lru_cache(maxsize=_KEPT_TEXTS)
def _mask(
    face: ImageFont.FreeTypeFont,
    text: str | bytes,
    mode: str,
    args: tuple[Any, ...],
    named: tuple[tuple[str, Any], ...],
) -> Any:
    return ImageFont.FreeTypeFont.getmask2(face, text, mode, *args, **dict(named))


@lru_cache(maxsize=_KEPT_TEXTS)
def _length(
    face: ImageFont.FreeTypeFont,
    text: str | bytes,
    mode: str,
    args: tuple[Any, ...],
    named: tuple[tuple[str, Any], ...],
) -> float:
    return ImageFont.FreeTypeFont.getlength(face, text, *args, **dict(named))
