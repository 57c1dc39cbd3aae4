"""Pictures as palette PNGs whose palette is chosen once and reused.

Choosing a palette for every picture (Pillow's fast octree) was most of a board's encoding
time. A board only ever shows its theme's colours and their anti-aliased blends, so a palette
chosen once from sample pictures that show every kind of mark fits every later board about as
well as a palette of its own, and mapping a picture onto a given palette is a fraction of the
work (docs/benchmarks.md has the figures).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Final

from PIL import Image

# On palette images level 6 took twice the time of 3 (docs/benchmarks.md).
PNG_COMPRESS_LEVEL: Final = 3


def shared_palette(samples: Sequence[Image.Image], colours: int = 256) -> Image.Image:
    """A "P" image whose palette of ``colours`` fits all ``samples`` (RGB, one size), chosen
    by the fast octree over them stacked into one picture: as good as median cut on boards,
    in a third of the time."""
    first = samples[0]
    mosaic = Image.new("RGB", (first.width, first.height * len(samples)))
    for row, sample in enumerate(samples):
        mosaic.paste(sample, (0, row * first.height))
    return mosaic.quantize(colours, method=Image.Quantize.FASTOCTREE)


def encode_in_palette(
    image: Image.Image, palette: Image.Image, compress_level: int = PNG_COMPRESS_LEVEL
) -> bytes:
    """PNG bytes of ``image`` (RGB) in the colours of ``palette`` (see :func:`shared_palette`),
    each pixel the nearest of them (no dithering: flat colours stay flat), zlib level 3 unless
    told otherwise."""
    return _png(image.quantize(palette=palette, dither=Image.Dither.NONE), compress_level)


def encode(image: Image.Image) -> bytes:
    """PNG bytes of a picture with no palette of its own yet: 256 colours chosen for this
    picture (fast octree), then zlib level 3. About a third of the bytes and half the time of
    a truecolour PNG, with no visible loss on flat colours."""
    return _png(image.quantize(256, method=Image.Quantize.FASTOCTREE))


def _png(palette_image: Image.Image, compress_level: int = PNG_COMPRESS_LEVEL) -> bytes:
    buffer = io.BytesIO()
    palette_image.save(buffer, "PNG", compress_level=compress_level)
    return buffer.getvalue()
