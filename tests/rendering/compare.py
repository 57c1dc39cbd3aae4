"""Comparing a rendered picture with its golden image, with a tolerance (fonts and Pillow
versions shift a few pixels)."""

from __future__ import annotations

import io

from PIL import Image, ImageChops


def picture(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


def difference(first: Image.Image, second: Image.Image) -> tuple[float, float]:
    """Mean absolute difference per channel (0..255) and the share of pixels off by > 48."""
    diff = ImageChops.difference(first.convert("RGB"), second.convert("RGB")).convert("L")
    pixels = first.width * first.height
    mean = sum(index * count for index, count in enumerate(diff.histogram())) / pixels
    far = sum(diff.point(lambda value: 255 if value > 48 else 0).histogram()[255:])
    return mean, far / pixels


def moments(gif: bytes) -> list[tuple[Image.Image, int]]:
    """What a viewer of an animated GIF sees, moment by moment, and for how long (ms).

    Our animations store a frame as up to three images, a band of rows each, all but the last
    shown for :data:`rendering.gif.STEP_MS` (:mod:`rendering.gif`): a moment ends with the
    first image shown longer than that."""
    from rendering.gif import STEP_MS

    shown: list[tuple[Image.Image, int]] = []
    waited = 0
    with Image.open(io.BytesIO(gif)) as image:
        for index in range(image.n_frames):
            image.seek(index)
            duration = int(image.info["duration"])
            waited += duration
            if duration > STEP_MS or index == image.n_frames - 1:
                shown.append((image.convert("RGB"), waited))
                waited = 0
    return shown
