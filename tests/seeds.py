"""A deterministic source of secret server seeds for tests that build a ``Core``."""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable


def fixed_seeds() -> Callable[[], bytes]:
    """Server seeds that are the same in every run (the n-th is SHA-256 of "seed-n"), so a
    test sees the same dice every time."""
    count = itertools.count()
    return lambda: hashlib.sha256(f"seed-{next(count)}".encode()).digest()
