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
