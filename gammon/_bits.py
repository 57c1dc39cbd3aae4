"""Bit packing shared by the GNU Backgammon Position and Match IDs.

Both IDs are little-endian bit strings (bit 0 is the lowest bit of byte 0) written in
standard base64 without the trailing ``=`` padding.
"""

from __future__ import annotations

import base64
import binascii


def encode_key(key: int, byte_count: int) -> str:
    """Write ``key`` as ``byte_count`` little-endian bytes in unpadded base64."""
    return base64.b64encode(key.to_bytes(byte_count, "little")).decode("ascii").rstrip("=")


def decode_key(text: str, byte_count: int, char_count: int, what: str) -> int:
    """Read an unpadded base64 key of exactly ``char_count`` characters."""
    if not isinstance(text, str) or len(text) != char_count:
        raise ValueError(f"a {what} has {char_count} characters: {text!r}")
    padding = "=" * (-len(text) % 4)
    try:
        raw = base64.b64decode(text + padding, validate=True)
    except (binascii.Error, ValueError):
        raise ValueError(f"not a valid {what}: {text!r}") from None
    if len(raw) != byte_count:
        raise ValueError(f"not a valid {what}: {text!r}")
    return int.from_bytes(raw, "little")
